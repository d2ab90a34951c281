/**
 * POST /v1/import-booking (docs/booking.md#imported-reservations): a reservation sold on another channel, recorded
 * as the channel sold it — its own price lines, no re-pricing and no stay rules (the channel applied its own) — but
 * never over another stay: the no-overlap constraints hold as for every writer, and a conflict is a 409 naming the
 * stay it meets. Idempotent on (channel, external_id): a repeat updates the same booking, or changes nothing when it
 * is the same request. Written by staykit_internal.import_booking (migrations/0105).
 */
import type { Queryable } from '../db/types.js';
import { EMAIL } from '../common/patterns.js';
import { invalidInput, notAvailable, productNotFound } from './errors.js';
import {
  parseInterval, parseOccupancy, parseUuid, rejectUnknownFields, requireObject, type ContactInput, type Interval,
} from './input.js';
import { localize, type BlockingEvent, type Product } from './model.js';
import { blockingEventsQuery, productsQuery, run } from './queries.js';
import { conflictingEvents, toStay } from './rules.js';
import { importBookingQuery, importedEventQuery, type ImportedBookingRow } from './lifecycle-queries.js';

const CHANNEL = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
const CURRENCY = /^[A-Z]{3}$/;
const ITEM_TYPES = ['rent', 'adjustment', 'service', 'coupon', 'tax'] as const;
const STATUSES = ['CONFIRMED', 'TENTATIVE', 'CANCELLED'] as const;

export interface PriceLine {
  name: string;
  amount: number;
  quantity: number;
  item_type: (typeof ITEM_TYPES)[number];
  fee_type: 'fee' | 'deposit';
}

export interface ImportInput {
  channel: string;
  externalId: string;
  productId: string;
  interval: Interval;
  status: (typeof STATUSES)[number];
  occupancy: Record<string, number>;
  currency: string | null;
  language: string;
  guest: ContactInput | null;
  priceLines: PriceLine[];
}

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) throw invalidInput(`${field} must be a non-empty string of at most ${max} characters`);
  return value;
}

function parsePriceLines(value: unknown): PriceLine[] {
  if (!Array.isArray(value) || value.length > 200) throw invalidInput('price_lines must be an array of at most 200 lines');
  return value.map((raw, index) => {
    const field = `price_lines[${index}]`;
    const line = requireObject(raw, field);
    rejectUnknownFields(line, ['name', 'amount', 'quantity', 'item_type', 'fee_type'], `${field}.`);
    const amount = line.amount;
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) throw invalidInput(`${field}.amount must be an integer (minor units)`);
    const quantity = line.quantity ?? 1;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 0) throw invalidInput(`${field}.quantity must be a non-negative integer`);
    const itemType = line.item_type ?? 'rent';
    if (!(ITEM_TYPES as readonly unknown[]).includes(itemType)) throw invalidInput(`${field}.item_type must be one of ${ITEM_TYPES.join(', ')}`);
    const feeType = line.fee_type ?? 'fee';
    if (feeType !== 'fee' && feeType !== 'deposit') throw invalidInput(`${field}.fee_type must be fee or deposit`);
    return { name: text(line.name, `${field}.name`, 200), amount, quantity, item_type: itemType as PriceLine['item_type'], fee_type: feeType };
  });
}

function parseGuest(value: unknown): ContactInput | null {
  if (value === undefined || value === null) return null;
  const guest = requireObject(value, 'guest');
  rejectUnknownFields(guest, ['first_name', 'last_name', 'email', 'phone'], 'guest.');
  const result: ContactInput = {};
  for (const key of ['first_name', 'last_name', 'email', 'phone'] as const) {
    if (guest[key] !== undefined && guest[key] !== null) result[key] = text(guest[key], `guest.${key}`, 320);
  }
  if (result.email !== undefined && !EMAIL.test(result.email)) throw invalidInput('guest.email must be an e-mail address');
  return result;
}

export function parseImportInput(value: unknown): ImportInput {
  const body = requireObject(value, 'The request body');
  rejectUnknownFields(body, ['channel', 'external_id', 'product_id', 'interval', 'status', 'occupancy', 'currency', 'language', 'guest', 'price_lines']);
  const channel = text(body.channel, 'channel', 64).toLowerCase();
  if (!CHANNEL.test(channel)) throw invalidInput('channel must be a name like airbnb or booking.com (letters, digits, _ . -)');
  const status = body.status ?? 'CONFIRMED';
  if (!(STATUSES as readonly unknown[]).includes(status)) throw invalidInput(`status must be one of ${STATUSES.join(', ')}`);
  const currency = body.currency ?? null;
  if (currency !== null && (typeof currency !== 'string' || !CURRENCY.test(currency))) throw invalidInput('currency must be an ISO 4217 code like EUR');
  const language = body.language ?? 'en';
  if (typeof language !== 'string' || !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(language)) throw invalidInput('language must be a language code like en or nl');
  return {
    channel,
    externalId: text(body.external_id, 'external_id', 255),
    productId: parseUuid(body.product_id, 'product_id'),
    interval: parseInterval(body.interval),
    status: status as ImportInput['status'],
    occupancy: parseOccupancy(body.occupancy),
    currency,
    language,
    guest: parseGuest(body.guest),
    priceLines: parsePriceLines(body.price_lines ?? []),
  };
}

export interface ImportResult {
  booking_id: string;
  reference: string;
  created: boolean;
  unchanged: boolean;
  total: number;
}

export async function importBooking(tx: Queryable, input: ImportInput, request: unknown): Promise<ImportResult> {
  const [product] = await run<Product>(tx, productsQuery([input.productId]));
  if (!product) throw productNotFound(input.productId);
  const stay = toStay(product.rent_period, input.interval);
  if (input.status !== 'CANCELLED') {
    // A helpful 409 naming the stay it meets; the constraints decide in the write itself.
    const [own] = await run<{ event_id: string | null }>(tx, importedEventQuery(input.channel, input.externalId));
    const events = await run<BlockingEvent>(tx, blockingEventsQuery([product.id], stay.start, [stay.endExclusive]));
    const conflicts = conflictingEvents(stay, 0, events.filter((event) => event.id !== own?.event_id));
    if (conflicts.length > 0) {
      throw notAvailable(conflicts.map((event) => `${event.related_product_id ? `related unit ${event.related_product_id} ` : ''}` +
        `${event.type === 'booking' ? 'booked' : 'blocked'} from ${event.start_date} to ${event.end_date} (event ${event.id})`).join('\n'));
    }
  }
  const guest = input.guest ? [input.guest.first_name, input.guest.last_name].filter(Boolean).join(' ') : '';
  const productName = localize(product.name, input.language);
  const [row] = await run<ImportedBookingRow>(tx, importBookingQuery({
    channel: input.channel,
    external_id: input.externalId,
    request,
    booking: {
      product_id: product.id, start_date: stay.start, end_date: stay.endExclusive, status: input.status,
      currency: input.currency ?? product.currency, language: input.language, occupancy: input.occupancy,
      contact: input.guest, generated_title: guest ? `${productName} – ${guest}` : productName,
      line_items: input.priceLines.map((line) => ({ ...line, name: { default: line.name }, taxes: [] })),
    },
  }));
  const result = row!.result;
  const total = input.priceLines.filter((line) => line.fee_type === 'fee').reduce((sum, line) => sum + line.amount, 0);
  return { booking_id: result.booking_id, reference: result.reference, created: result.created, unchanged: result.unchanged, total };
}

