/**
 * The `payment_url` of a booking: a Stripe Checkout session for its next payment still to pay, when the
 * organization has set up Stripe; null otherwise (payments are then manual: bank transfer, cash, recorded through
 * the API). Uses the server's connection after the booking's own transaction has committed, so a slow or failing
 * Stripe never holds or undoes a booking.
 */
import type { Database } from '../db/types.js';
import { loadStripeAccount } from './stripe-accounts.js';
import { createCheckoutSession, nextPayablePayment } from './stripe-checkout.js';
import type { StripeClientFactory } from './stripe-client.js';

export interface PaymentLinkDeps {
  db: Database;
  /** STAYKIT_SECRET_KEY: without it no Stripe account can be read, so payments are manual. */
  serverSecret: string | undefined;
  stripe: StripeClientFactory;
}

export interface PaymentLink {
  payment_id: string;
  amount: number;
  currency: string;
  payment_url: string;
}

/** The link for the booking's next payment; undefined when there is no Stripe account or nothing is due. */
export async function paymentLinkFor(deps: PaymentLinkDeps, organizationId: string, bookingId: string): Promise<PaymentLink | undefined> {
  const account = await loadStripeAccount(deps.db, deps.serverSecret, organizationId);
  if (!account) return undefined;
  const payment = await nextPayablePayment(deps.db, organizationId, bookingId);
  if (!payment) return undefined;
  const url = await createCheckoutSession(deps.db, deps.stripe, account, payment);
  return { payment_id: payment.id, amount: payment.amount, currency: payment.currency, payment_url: url };
}

/** For /book: the URL, or null when payments are manual — a Stripe failure leaves the booking made, without a link. */
export async function bookingPaymentUrl(deps: PaymentLinkDeps, organizationId: string, bookingId: string, log: (error: unknown) => void): Promise<string | null> {
  try {
    return (await paymentLinkFor(deps, organizationId, bookingId))?.payment_url ?? null;
  } catch (error) {
    log(error);
    return null;
  }
}

/**
 * For /cart-checkout: every booking of the cart is paid on its own (its own schedule and Checkout session), so each
 * item gets the `payment_url` of its booking; the cart's `payment_url` is that link when the cart is one booking, and
 * null for several (there is no single link that pays them all).
 */
export async function addCartPaymentUrls(deps: PaymentLinkDeps, organizationId: string, cart: CheckedOutCart, log: (error: unknown) => void): Promise<void> {
  for (const item of cart.items) item.payment_url = await bookingPaymentUrl(deps, organizationId, item.booking_id, log);
  cart.payment_url = cart.items.length === 1 ? cart.items[0]!.payment_url ?? null : null;
}

export interface CheckedOutCart {
  items: { booking_id: string; payment_url?: string | null }[];
  payment_url: string | null;
}
