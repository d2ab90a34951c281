/**
 * The statements of a booking's later life — cancelling, changing, importing — as `{ text, values }`. Each write is
 * one call of a staykit_internal function (migrations/0102…0104) that writes for the request's organization.
 */
import type { SqlQuery } from './queries.js';

export interface CancelledBookingRow {
  result: {
    booking_id: string;
    reference: string;
    cancelled_at: string | null;
    cancelled_by: string | null;
    cancellation_reason: string | null;
    released_coupon_uses: number;
  };
}

export function cancelBookingQuery(bookingId: string, reason: string | null): SqlQuery {
  return { text: 'SELECT staykit_internal.cancel_booking($1::uuid, $2::text) AS result', values: [bookingId, reason] };
}
