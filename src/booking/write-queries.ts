/**
 * The booking flow's writes, as `{ text, values }`. The API role may not insert products or bookings itself: each
 * write is one call of a staykit_internal function that inserts the rows, given as JSON, for the request's
 * organization (their definitions in effect: schema/schema.sql).
 */
import type { SqlQuery } from './queries.js';

export interface CreatedBookingRow {
  result: { booking_id: string; reference: string };
}

export interface CreatedProductRow {
  product: Record<string, unknown>;
}

/** The booking and, when the payload names them, its site and widget (migrations/0101). */
export function createBookingQuery(payload: Record<string, unknown>): SqlQuery {
  return {
    text: 'SELECT staykit_internal.record_booking_source(staykit_internal.create_booking($1::jsonb), $1::jsonb) AS result',
    values: [JSON.stringify(payload)],
  };
}

export function createProductQuery(fields: Record<string, unknown>): SqlQuery {
  return { text: 'SELECT staykit_internal.create_product($1::jsonb) AS product', values: [JSON.stringify(fields)] };
}
