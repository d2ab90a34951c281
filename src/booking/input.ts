/**
 * The booking flow's validated bodies (request-schemas.ts) → typed inputs: the code's names, defaults applied, ids in
 * lower case, coupon codes trimmed and deduplicated. The schema has refused every malformed shape (400 SK601 naming
 * the field); what is left here needs more than one field (an end before its start) or answers with a code of its
 * own (an occupancy key that cannot be a capacity group: 400 SK603).
 */
import { invalidInput, unknownCapacityGroup } from './errors.js';
import { UUID } from '../common/patterns.js';
import type { BookingBody, BookingOptionsBody } from './request-schemas.js';

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

/** A stay's fields as a body holds them (a /book body, a cart item). */
type StayBody = Pick<BookingBody, 'product_id' | 'interval' | 'occupancy' | 'form_values'>;

/** The interval, its end not before its start. */
export function checkInterval(interval: Interval, field = 'interval'): Interval {
  if (interval.end < interval.start) throw invalidInput(`${field}.end must not be before ${field}.start`);
  return { start: interval.start, end: interval.end };
}

/** `{group_id: n}`; keys must look like uuids (else they cannot be a capacity group: 400 SK603). */
export function toOccupancy(occupancy: Record<string, number> | null | undefined): Record<string, number> {
  const result: Record<string, number> = {};
  for (const [key, count] of Object.entries(occupancy ?? {})) {
    if (!UUID.test(key)) throw unknownCapacityGroup(key);
    result[key.toLowerCase()] = count;
  }
  return result;
}

export function toFormValues(values: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [key.toLowerCase(), value]));
}

/** Trimmed, each code once (case-insensitively), in the order given. */
export function toCouponCodes(codes: string[] | null | undefined): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const code of codes ?? []) {
    const key = code.trim().toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      result.push(code.trim());
    }
  }
  return result;
}

function toContact(contact: BookingOptionsBody['contact']): ContactInput | null {
  if (!contact) return null;
  const result: ContactInput = {};
  for (const key of ['first_name', 'last_name', 'email', 'phone'] as const) {
    const value = contact[key];
    if (typeof value === 'string') result[key] = value;
  }
  return result;
}

export function toStayInput(body: StayBody, prefix = ''): StayInput {
  return {
    productId: body.product_id.toLowerCase(),
    interval: checkInterval(body.interval, `${prefix}interval`),
    occupancy: toOccupancy(body.occupancy),
    formValues: toFormValues(body.form_values),
  };
}

export function toOptions(body: BookingOptionsBody): Omit<BookingInput, keyof StayInput | 'couponCodes'> {
  return {
    currency: body.currency ?? null,
    language: body.language ?? 'en',
    silent: body.silent === true,
    acceptTerms: body.accept_terms === true,
    redirectUrl: body.redirect_url ?? null,
    contact: toContact(body.contact),
    siteId: body.site_id?.toLowerCase() ?? null,
    widgetId: body.widget_id?.toLowerCase() ?? null,
  };
}

/** The body of /quote and /book. */
export function toBookingInput(body: BookingBody): BookingInput {
  return { ...toStayInput(body), couponCodes: toCouponCodes(body.coupon_codes), ...toOptions(body) };
}
