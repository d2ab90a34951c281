/**
 * POST /v1/import-booking (docs/booking.md#imported-reservations): a reservation sold on another channel, recorded
 * as the channel sold it — its own price lines, no re-pricing and no stay rules (the channel applied its own) — but
 * never over another stay: the no-overlap constraints hold as for every writer, and a conflict is a 409 naming the
 * stay it meets. Idempotent on (channel, external_id): a repeat updates the same booking, or changes nothing when it
 * is the same request. Written by staykit_internal.import_booking (migrations/0105).
 */
import type { Queryable } from '../db/types.js';
import { notAvailable, productNotFound } from './errors.js';
import { checkInterval, toOccupancy, type ContactInput, type Interval } from './input.js';
import { localize, type BlockingEvent, type Product } from './model.js';
import { blockingEventsQuery, productsQuery, run } from './queries.js';
import { conflictingEvents, toStay } from './rules.js';
import { importBookingQuery, importedEventQuery, type ImportedBookingRow } from './lifecycle-queries.js';
import type { ImportBody, PriceLineBody } from './request-schemas.js';
import type { ImportResult } from './answer-schemas.js';

export type PriceLine = Required<PriceLineBody>;

export interface ImportInput {
  channel: string;
  externalId: string;
  productId: string;
  interval: Interval;
  status: NonNullable<ImportBody['status']>;
  occupancy: Record<string, number>;
  currency: string | null;
  language: string;
  guest: ContactInput | null;
  priceLines: PriceLine[];
}

function toGuest(guest: ImportBody['guest']): ContactInput | null {
  if (!guest) return null;
  const result: ContactInput = {};
  for (const key of ['first_name', 'last_name', 'email', 'phone'] as const) {
    const value = guest[key];
    if (typeof value === 'string') result[key] = value;
  }
  return result;
}

/** The validated body → the import, with the documented defaults. */
export function toImportInput(body: ImportBody): ImportInput {
  return {
    channel: body.channel.toLowerCase(),
    externalId: body.external_id,
    productId: body.product_id.toLowerCase(),
    interval: checkInterval(body.interval),
    status: body.status ?? 'CONFIRMED',
    occupancy: toOccupancy(body.occupancy),
    currency: body.currency ?? null,
    language: body.language ?? 'en',
    guest: toGuest(body.guest),
    priceLines: (body.price_lines ?? []).map((line) => ({
      name: line.name, amount: line.amount, quantity: line.quantity ?? 1, item_type: line.item_type ?? 'rent', fee_type: line.fee_type ?? 'fee',
    })),
  };
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

