/**
 * The statements of a booking's later life — cancelling, changing, importing — as `{ text, values }`. Each write is
 * one call of a staykit_internal function (cancel_booking, change_booking, import_booking; their definitions in
 * effect: schema/schema.sql) that writes for the request's organization.
 */
import type { SqlQuery } from './queries.js';
import type { RefundMode } from './request-schemas.js';
import type { CancelResult } from './answer-schemas.js';

/** The booking as cancelled: the answer of /booking-cancel (its `settlement`, migration 0216, absent when nothing was cancelled now). */
export interface CancelledBookingRow {
  result: CancelResult;
}

export function cancelBookingQuery(bookingId: string, reason: string | null, refund: RefundMode): SqlQuery {
  return { text: 'SELECT staykit_internal.cancel_booking($1::uuid, $2::text, $3::text) AS result', values: [bookingId, reason, refund] };
}

/** What a cancellation gives back of what was paid: as the unit's cancellation policy says, all of it, or nothing. */

/** A booking as a change starts from; `event_id` is null when it has no live booking event (cancelled). */
export interface CurrentBookingRow {
  id: string;
  reference: string;
  language: string;
  occupancy: Record<string, number>;
  event_id: string | null;
  product_id: string;
  rent_period: 'nightly' | 'daily';
  start_date: string;
  end_date: string;
  generated_title: string;
  origin: string | null;
  /** Form values as /book takes them, typed by their service (numbers, booleans, option ids). */
  form_values: Record<string, unknown>;
  coupon_codes: string[];
  /** The sum of its fee lines, as a quote's total. */
  total: number;
}

export function currentBookingQuery(bookingId: string): SqlQuery {
  return {
    text: `SELECT b.id, b.reference, b.language, b.occupancy, e.id AS event_id, e.product_id, p.rent_period,
             e.start_date::text AS start_date, e.end_date::text AS end_date, e.generated_title, e.origin,
             coalesce((SELECT jsonb_object_agg(d.service_id, CASE
                         WHEN s.type = 'select' THEN to_jsonb(d.option_id)
                         WHEN s.type IN ('quantity', 'number') AND d.value ~ '^-?[0-9]+$' THEN to_jsonb(d.value::integer)
                         WHEN s.type = 'checkbox' AND d.value IN ('true', 'false') THEN to_jsonb(d.value::boolean)
                         ELSE to_jsonb(d.value) END)
                       FROM api.booking_details AS d JOIN api.services AS s ON s.id = d.service_id
                       WHERE d.booking_id = b.id), '{}') AS form_values,
             coalesce((SELECT jsonb_agg(c.code ORDER BY c.code) FROM api.coupon_uses AS u JOIN api.coupons AS c ON c.id = u.coupon_id
                       WHERE u.booking_id = b.id), '[]') AS coupon_codes,
             coalesce((SELECT sum(l.amount) FROM api.line_items AS l WHERE l.booking_id = b.id AND l.fee_type = 'fee'), 0)::integer AS total
           FROM api.bookings AS b
           LEFT JOIN LATERAL (SELECT * FROM api.calendar_events AS ev
                              WHERE ev.booking_id = b.id AND ev.type = 'booking' AND ev.status <> 'CANCELLED'
                              ORDER BY ev.start_date LIMIT 1) AS e ON true
           LEFT JOIN api.products AS p ON p.id = e.product_id
           WHERE b.id = $1::uuid`,
    values: [bookingId],
  };
}

/** change_booking's answer; `payments` is null for an imported reservation (its money is its channel's). */
export interface ChangedBookingRow {
  result: { booking_id: string; reference: string; event_id: string; payments: { paid: number; to_pay: number; refund_due: number } | null };
}

export function changeBookingQuery(bookingId: string, payload: Record<string, unknown>): SqlQuery {
  return { text: 'SELECT staykit_internal.change_booking($1::uuid, $2::jsonb) AS result', values: [bookingId, JSON.stringify(payload)] };
}

export interface ImportedBookingRow {
  result: { booking_id: string; reference: string; created: boolean; unchanged: boolean };
}

export function importBookingQuery(payload: Record<string, unknown>): SqlQuery {
  return { text: 'SELECT staykit_internal.import_booking($1::jsonb) AS result', values: [JSON.stringify(payload)] };
}

/** The live calendar event of an imported reservation, if it was imported before. */
export function importedEventQuery(channel: string, externalId: string): SqlQuery {
  return {
    text: `SELECT (SELECT e.id FROM api.calendar_events AS e
                   WHERE e.booking_id = i.booking_id AND e.type = 'booking' AND e.status <> 'CANCELLED' LIMIT 1) AS event_id
           FROM api.booking_imports AS i WHERE i.channel = $1 AND i.external_id = $2`,
    values: [channel, externalId],
  };
}
