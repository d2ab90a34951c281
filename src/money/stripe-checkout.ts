/**
 * A Stripe Checkout session for one pending payment: the guest pays exactly that amount in the booking's currency,
 * and the session carries the payment's id (metadata) so Stripe's events find it again. The session id is kept as
 * the payment's provider reference until the payment intent replaces it.
 */
import type { Queryable } from '../db/types.js';
import { stripeRefused } from './errors.js';
import type { StripeAccount } from './stripe-accounts.js';
import type { StripeClientFactory } from './stripe-client.js';

export interface PayablePayment {
  id: string;
  organization_id: string;
  booking_id: string;
  amount: number;
  currency: string;
  reference: string;
}

/** The next payment of a booking still to pay (pending, failed or expired), the earliest due first. Read with the server's connection. */
export async function nextPayablePayment(db: Queryable, organizationId: string, bookingId: string): Promise<PayablePayment | undefined> {
  const { rows } = await db.query<PayablePayment>(
    `SELECT p.id, p.organization_id, p.booking_id, p.amount, p.currency, b.reference
     FROM api.payments AS p JOIN api.bookings AS b ON b.id = p.booking_id AND b.organization_id = p.organization_id
     WHERE p.organization_id = $1 AND p.booking_id = $2 AND p.status = ANY (staykit_internal.open_payment_statuses())
     ORDER BY p.due_at NULLS LAST, p.created_at, p.id LIMIT 1`,
    [organizationId, bookingId],
  );
  return rows[0];
}

export async function createCheckoutSession(
  db: Queryable, stripe: StripeClientFactory, account: StripeAccount, payment: PayablePayment,
): Promise<string> {
  const client = await stripe(account.secretKey);
  let session;
  try {
    session = await client.checkout.sessions.create({
      mode: 'payment',
      success_url: account.successUrl,
      cancel_url: account.cancelUrl,
      client_reference_id: payment.booking_id,
      metadata: { payment_id: payment.id, organization_id: payment.organization_id, booking_id: payment.booking_id },
      payment_intent_data: { metadata: { payment_id: payment.id, organization_id: payment.organization_id } },
      line_items: [{
        quantity: 1,
        price_data: { currency: payment.currency.toLowerCase(), unit_amount: payment.amount, product_data: { name: `Booking ${payment.reference}` } },
      }],
    });
  } catch (error) {
    throw stripeRefused(error instanceof Error ? error.message : 'unknown error');
  }
  if (!session.url) throw stripeRefused('the Checkout session has no URL');
  // Only while the payment still has the session's amount: a change of the stay may have re-split it meanwhile, and
  // then the session pays an amount of its own (staykit_internal.checkout_paid records it apart).
  await db.query(
    `UPDATE api.payments SET provider = 'stripe', provider_reference = $3, method = 'card',
       status = CASE WHEN status = 'pending' THEN status ELSE 'pending' END
     WHERE id = $1 AND organization_id = $2 AND amount = $4 AND status = ANY (staykit_internal.open_payment_statuses())`,
    [payment.id, payment.organization_id, session.id, payment.amount],
  );
  return session.url;
}
