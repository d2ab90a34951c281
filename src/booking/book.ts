/**
 * POST /v1/book: validate and price the stay again inside the writing transaction (prepare.ts), then write it
 * through staykit_internal.create_booking (migrations/0060), where the exclusion constraint has the last word.
 */
import type { Queryable } from '../db/types.js';
import type { BookingInput } from './input.js';
import { bookingPayload, prepareBooking } from './prepare.js';

export interface BookResult {
  reference: string;
  booking_id: string;
  payment_url: string | null;
}

export async function book(tx: Queryable, input: BookingInput, now: Date): Promise<BookResult> {
  const prepared = await prepareBooking(tx, input, now);
  const { rows } = await tx.query<{ result: { booking_id: string; reference: string } }>(
    'SELECT staykit_internal.create_booking($1::jsonb) AS result',
    [JSON.stringify(bookingPayload(prepared, input))],
  );
  const result = rows[0]!.result;
  return { reference: result.reference, booking_id: result.booking_id, payment_url: null };
}
