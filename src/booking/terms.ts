/**
 * The guest's acceptance of the booking terms and the cancellation policy (migration 0225, docs/booking.md#booking-terms):
 * a booking that says `accept_terms: true` is marked accepted by the database (bookings.terms_accepted_at); one made
 * by the public (a publishable key) without it is refused with 422 SK649 while the organization has booking terms —
 * before anything is priced, with the same line held by the database for any statement of such a transaction.
 */
import type { Queryable } from '../db/types.js';
import { apiError } from '../errors/registry.js';
import type { ApiError } from '../errors/api-error.js';

/** 422 SK649: a booking by the public without the guest's acceptance of the organization's booking terms. */
export function termsNotAccepted(): ApiError {
  return apiError('SK649');
}

/**
 * Marks the transaction's bookings accepted (`accepted`), or, when the guest's acceptance is `required` and the
 * organization has booking terms, refuses the booking.
 */
export async function settleTermsAcceptance(tx: Queryable, accepted: boolean, required: boolean): Promise<void> {
  if (accepted) {
    // Transaction-local: the bookings this transaction inserts carry the acceptance, nothing after it.
    await tx.query("SELECT set_config('staykit.booking_terms_accepted', 'true', true)");
    return;
  }
  if (!required) return;
  const { rows } = await tx.query<{ required: boolean }>('SELECT staykit_internal.current_booking_terms() IS NOT NULL AS required');
  if (rows[0]?.required) throw termsNotAccepted();
}
