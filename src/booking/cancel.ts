/**
 * POST /v1/booking-cancel: `{booking_id, reason?, refund?}` → the booking's events move to CANCELLED with the reason,
 * in one call (docs/booking.md#cancelling); what was paid is settled by `refund` (`policy`: the unit's cancellation
 * policy, the default; `full`; `none`) in the same transaction (docs/payments.md#cancellations). What a cancellation does — who and why on the booking, coupon uses released —
 * is done by the database for every writer of the status (migrations/0102); this is the one call that also says why.
 */
import type { Queryable } from '../db/types.js';
import { invalidInput } from './errors.js';
import { parseUuid, rejectUnknownFields, requireObject } from './input.js';
import { run } from './queries.js';
import { cancelBookingQuery, REFUND_MODES, type CancelledBookingRow, type RefundMode } from './lifecycle-queries.js';

export interface CancelInput {
  bookingId: string;
  reason: string | null;
  refund: RefundMode;
}

export const MAX_REASON_LENGTH = 2000;

export function parseCancelInput(value: unknown): CancelInput {
  const body = requireObject(value, 'The request body');
  rejectUnknownFields(body, ['booking_id', 'reason', 'refund']);
  const refund = body.refund ?? 'policy';
  if (typeof refund !== 'string' || !(REFUND_MODES as readonly string[]).includes(refund)) {
    throw invalidInput(`refund must be one of ${REFUND_MODES.join(', ')}`);
  }
  const reason = body.reason ?? null;
  if (reason !== null && (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH)) {
    throw invalidInput(`reason must be a string of at most ${MAX_REASON_LENGTH} characters`);
  }
  return { bookingId: parseUuid(body.booking_id, 'booking_id'), reason, refund: refund as RefundMode };
}

export async function cancelBooking(tx: Queryable, input: CancelInput): Promise<CancelledBookingRow['result']> {
  const [row] = await run<CancelledBookingRow>(tx, cancelBookingQuery(input.bookingId, input.reason, input.refund));
  return row!.result;
}
