/**
 * POST /v1/booking-cancel: `{booking_id, reason?, refund?}` → the booking's events move to CANCELLED with the reason,
 * in one call (docs/booking.md#cancelling); what was paid is settled by `refund` (`policy`: the unit's cancellation
 * policy, the default; `full`; `none`) in the same transaction (docs/payments.md#cancellations). What a cancellation does — who and why on the booking, coupon uses released —
 * is done by the database for every writer of the status (migrations/0102); this is the one call that also says why.
 */
import type { Queryable } from '../db/types.js';
import { run } from './queries.js';
import { cancelBookingQuery, type CancelledBookingRow } from './lifecycle-queries.js';
import type { CancelBody, RefundMode } from './request-schemas.js';

export interface CancelInput {
  bookingId: string;
  reason: string | null;
  refund: RefundMode;
}

export function toCancelInput(body: CancelBody): CancelInput {
  return { bookingId: body.booking_id.toLowerCase(), reason: body.reason ?? null, refund: body.refund ?? 'policy' };
}

export async function cancelBooking(tx: Queryable, input: CancelInput): Promise<CancelledBookingRow['result']> {
  const [row] = await run<CancelledBookingRow>(tx, cancelBookingQuery(input.bookingId, input.reason, input.refund));
  return row!.result;
}
