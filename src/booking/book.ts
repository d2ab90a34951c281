/**
 * POST /v1/book: validate and price the stay again inside the writing transaction (prepare.ts), then write it
 * through staykit_internal.create_booking (migrations/0060), where the exclusion constraint has the last word.
 */
import type { Queryable } from '../db/types.js';
import type { BookingInput } from './input.js';
import { bookingPayload, prepareBooking } from './prepare.js';
import { run } from './queries.js';
import { createBookingQuery, type CreatedBookingRow } from './write-queries.js';
import { writePaymentSchedule } from '../money/booking-payments.js';
import type { ScheduledPayment } from '../money/schedule.js';

export interface BookResult {
  reference: string;
  booking_id: string;
  payment_url: string | null;
  /** The pending payments written with the booking (src/money). */
  payment_schedule: ScheduledPayment[];
}

export async function book(tx: Queryable, input: BookingInput, now: Date): Promise<BookResult> {
  const prepared = await prepareBooking(tx, input, now);
  const [created] = await run<CreatedBookingRow>(tx, createBookingQuery(bookingPayload(prepared, input)));
  const result = created!.result;
  const paymentSchedule = await writePaymentSchedule(tx, prepared, result.booking_id, now);
  return { reference: result.reference, booking_id: result.booking_id, payment_url: null, payment_schedule: paymentSchedule };
}
