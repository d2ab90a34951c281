/**
 * Request bodies of the booking flow → typed inputs. Everything a client can get wrong about the shape is a 400
 * SK601 naming the field; rules that need the database (unknown product, capacity group, coupon) come later.
 */
import { invalidInput, unknownCapacityGroup } from './errors.js';
import { isDate } from '../common/dates.js';
import { EMAIL, UUID } from '../common/patterns.js';

const CURRENCY = /^[A-Z]{3}$/;
const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export interface Interval {
  start: string;
  end: string;
}

export interface ContactInput {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
}

export interface StayInput {
  productId: string;
  interval: Interval;
  occupancy: Record<string, number>;
  formValues: Record<string, unknown>;
}

export interface BookingInput extends StayInput {
  couponCodes: string[];
  currency: string | null;
  language: string;
  silent: boolean;
  /** The guest accepted the booking terms and the cancellation policy (`accept_terms`; migration 0225). */
  acceptTerms: boolean;
  redirectUrl: string | null;
  contact: ContactInput | null;
  /** The site or widget the booking came through (stored on the booking; must be the organization's). */
  siteId: string | null;
  widgetId: string | null;
}

/** The fields of a stay (in /book, /quote and each cart item). */
export const STAY_FIELDS = ['product_id', 'interval', 'occupancy', 'form_values'] as const;
/** The options shared by /book, /quote and a cart. */
export const OPTION_FIELDS = ['currency', 'language', 'silent', 'accept_terms', 'redirect_url', 'contact', 'site_id', 'widget_id'] as const;

/**
 * Strict input: a field the endpoint does not know is a 400 naming it (like /create-product), never silently
 * dropped — a client sending `price` or a misspelt `coupon_code` must learn that it had no effect.
 */
export function rejectUnknownFields(body: Record<string, unknown>, allowed: readonly string[], prefix = ''): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw invalidInput(`Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.map((key) => prefix + key).join(', ')}`,
      `allowed: ${allowed.map((key) => prefix + key).join(', ')}`);
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw invalidInput(`${field} must be a JSON object`);
  return value;
}

export function parseUuid(value: unknown, field: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw invalidInput(`${field} must be a uuid`);
  return value.toLowerCase();
}

export function parseInterval(value: unknown, field = 'interval'): Interval {
  const interval = requireObject(value, field);
  rejectUnknownFields(interval, ['start', 'end'], `${field}.`);
  const { start, end } = interval;
  if (!isDate(start)) throw invalidInput(`${field}.start must be a date (YYYY-MM-DD)`);
  if (!isDate(end)) throw invalidInput(`${field}.end must be a date (YYYY-MM-DD)`);
  if (end < start) throw invalidInput(`${field}.end must not be before ${field}.start`);
  return { start, end };
}

/** `{group_id: n}` with integer n ≥ 0; keys must look like uuids (else they cannot be a capacity group). */
export function parseOccupancy(value: unknown, field = 'occupancy'): Record<string, number> {
  if (value === undefined || value === null) return {};
  const occupancy = requireObject(value, field);
  const result: Record<string, number> = {};
  for (const [key, count] of Object.entries(occupancy)) {
    if (!UUID.test(key)) throw unknownCapacityGroup(key);
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > 10_000) {
      throw invalidInput(`${field}.${key} must be a non-negative integer`);
    }
    result[key.toLowerCase()] = count;
  }
  return result;
}

function parseFormValues(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  const values = requireObject(value, field);
  const result: Record<string, unknown> = {};
  for (const [key, formValue] of Object.entries(values)) {
    if (!UUID.test(key)) throw invalidInput(`${field} keys must be service ids (uuid)`, `got "${key}"`);
    if (formValue !== null && !['string', 'number', 'boolean'].includes(typeof formValue)) {
      throw invalidInput(`${field}.${key} must be a string, number, boolean or null`);
    }
    result[key.toLowerCase()] = formValue;
  }
  return result;
}

export function parseCouponCodes(value: unknown, field = 'coupon_codes'): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((code) => typeof code !== 'string' || code.trim() === '' || code.length > 64)) {
    throw invalidInput(`${field} must be an array of coupon codes`);
  }
  const seen = new Set<string>();
  const codes: string[] = [];
  for (const code of value as string[]) {
    const key = code.trim().toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      codes.push(code.trim());
    }
  }
  return codes;
}

function optionalUuid(value: unknown, field: string): string | null {
  return value === undefined || value === null ? null : parseUuid(value, field);
}

function optionalString(value: unknown, field: string, max = 2048): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) throw invalidInput(`${field} must be a string`);
  return value;
}

function parseContact(value: unknown): ContactInput | null {
  if (value === undefined || value === null) return null;
  const contact = requireObject(value, 'contact');
  rejectUnknownFields(contact, ['first_name', 'last_name', 'email', 'phone'], 'contact.');
  const result: ContactInput = {};
  for (const key of ['first_name', 'last_name', 'email', 'phone'] as const) {
    const field = optionalString(contact[key], `contact.${key}`, 320);
    if (field !== null) result[key] = field;
  }
  if (result.email !== undefined && result.email !== '' && !EMAIL.test(result.email)) {
    throw invalidInput('contact.email must be an e-mail address');
  }
  return result;
}

export function parseStay(body: Record<string, unknown>, prefix = ''): StayInput {
  const productValue = body.product_id;
  return {
    productId: parseUuid(productValue, `${prefix}product_id`),
    interval: parseInterval(body.interval, `${prefix}interval`),
    occupancy: parseOccupancy(body.occupancy, `${prefix}occupancy`),
    formValues: parseFormValues(body.form_values, `${prefix}form_values`),
  };
}

export function parseOptions(body: Record<string, unknown>): Omit<BookingInput, keyof StayInput | 'couponCodes'> {
  const currency = optionalString(body.currency, 'currency');
  if (currency !== null && !CURRENCY.test(currency)) throw invalidInput('currency must be an ISO 4217 code like EUR');
  const language = optionalString(body.language, 'language') ?? 'en';
  if (!LANGUAGE.test(language)) throw invalidInput('language must be a language code like en or nl');
  if (body.silent !== undefined && body.silent !== null && typeof body.silent !== 'boolean') {
    throw invalidInput('silent must be a boolean');
  }
  if (body.accept_terms !== undefined && body.accept_terms !== null && typeof body.accept_terms !== 'boolean') {
    throw invalidInput('accept_terms must be a boolean');
  }
  return {
    currency,
    language,
    silent: body.silent === true,
    acceptTerms: body.accept_terms === true,
    redirectUrl: optionalString(body.redirect_url, 'redirect_url'),
    contact: parseContact(body.contact),
    siteId: optionalUuid(body.site_id, 'site_id'),
    widgetId: optionalUuid(body.widget_id, 'widget_id'),
  };
}

/** The body of /quote and /book. */
export function parseBookingInput(value: unknown): BookingInput {
  const body = requireObject(value, 'The request body');
  rejectUnknownFields(body, [...STAY_FIELDS, 'coupon_codes', ...OPTION_FIELDS]);
  return { ...parseStay(body), couponCodes: parseCouponCodes(body.coupon_codes), ...parseOptions(body) };
}
