/**
 * POST /v1/book: validate and price the stay again inside the writing transaction (prepare.ts), then write it
 * through staykit_internal.create_booking (its definition in effect: schema/schema.sql), where the exclusion
 * constraint has the last word.
 */
import type { Queryable } from '../db/types.js';
import type { BookingInput, ContactInput } from './input.js';
import { guestContactMissing } from './errors.js';
import { bookingPayload, prepareBooking } from './prepare.js';
import { run } from './queries.js';
import { settleTermsAcceptance } from './terms.js';
import { createBookingQuery, type CreatedBookingRow } from './write-queries.js';
import { writePaymentSchedule } from '../money/booking-payments.js';
import type { BookResult } from './answer-schemas.js';


/** 422 SK648 naming what is missing: a name (first or last) and an e-mail address (checked for its form by the input). */
function requireReachableGuest(contact: ContactInput | null): void {
  const missing = [
    ...(contact?.first_name?.trim() || contact?.last_name?.trim() ? [] : ['a name']),
    ...(contact?.email?.trim() ? [] : ['an e-mail address']),
  ];
  if (missing.length > 0) throw guestContactMissing(missing);
}

export interface BookOptions {
  /**
   * The guest must be reachable: a name and an e-mail address, from `contact` or the booking form. Set for bookings
   * made by the public (a publishable key: the widget, the booking site), where nobody else knows who booked.
   */
  requireGuestContact?: boolean;
  /**
   * The guest must accept the organization's booking terms, when it has any (`accept_terms: true`, else 422 SK649).
   * Set, like `requireGuestContact`, for bookings made by the public.
   */
  requireTermsAcceptance?: boolean;
}

export async function book(tx: Queryable, input: BookingInput, now: Date, options: BookOptions = {}): Promise<BookResult> {
  await settleTermsAcceptance(tx, input.acceptTerms, options.requireTermsAcceptance ?? false);
  const prepared = await prepareBooking(tx, input, now);
  if (options.requireGuestContact) requireReachableGuest(prepared.contact);
  const [created] = await run<CreatedBookingRow>(tx, createBookingQuery(bookingPayload(prepared, input)));
  const result = created!.result;
  const paymentSchedule = await writePaymentSchedule(tx, prepared, result.booking_id, now);
  return { reference: result.reference, booking_id: result.booking_id, payment_url: null, payment_schedule: paymentSchedule };
}
