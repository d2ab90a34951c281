/**
 * Stripe's events for an organization (POST /v1/stripe/webhook/{organization_id}): the signature is verified with
 * the organization's webhook signing secret by the SDK (`stripe.webhooks.constructEvent`) before anything is read;
 * each event id is applied once (staykit_internal.stripe_events), in the same transaction as its effect, so a
 * replay changes nothing. Checkout session events move the payment named in the session's metadata:
 * completed and paid, or async_payment_succeeded → paid at the event's time, for the amount Stripe collected
 * (staykit_internal.checkout_paid, migration 0210); async_payment_failed → failed; expired → expired, when the
 * payment still waits for that session. The database does the rest (payments.paid webhook, confirming a request
 * booking).
 */
import type Stripe from 'stripe';
import type { Database, Queryable } from '../db/types.js';
import { stripeSignatureInvalid } from './errors.js';
import { loadStripeAccount } from './stripe-accounts.js';
import { loadStripe } from './stripe-sdk.js';

export interface StripeEventOutcome {
  received: true;
  duplicate: boolean;
}

type PaymentMove = { status: 'paid' } | { status: 'failed' | 'expired'; from: string[] };

function moveFor(event: Stripe.Event): PaymentMove | undefined {
  switch (event.type) {
    case 'checkout.session.completed':
      return event.data.object.payment_status === 'unpaid' ? undefined : { status: 'paid' };
    case 'checkout.session.async_payment_succeeded':
      return { status: 'paid' };
    case 'checkout.session.async_payment_failed':
      return { status: 'failed', from: ['pending'] };
    case 'checkout.session.expired':
      return { status: 'expired', from: ['pending'] };
    default:
      return undefined;
  }
}

async function applyEvent(tx: Queryable, organizationId: string, event: Stripe.Event): Promise<void> {
  const move = moveFor(event);
  if (!move || !event.type.startsWith('checkout.session.')) return;
  const session = event.data.object as Stripe.Checkout.Session;
  const paymentId = session.metadata?.payment_id;
  if (!paymentId || session.metadata?.organization_id !== organizationId) return;
  const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id ?? null;
  if (move.status === 'paid') {
    // The money Stripe collected, as it was collected: the database decides whether it pays the payment the session
    // was made for (still to pay, same amount) or is recorded apart, e.g. after the schedule was re-split. Paid when
    // Stripe says, but never later than now: a Stripe clock ahead of ours must not refuse money collected (SK679).
    await tx.query('SELECT staykit_internal.checkout_paid($1, $2, $3, $4, $5, least(to_timestamp($6), now()))',
      [organizationId, paymentId, session.amount_total ?? null, session.id, intent, event.created]);
    return;
  }
  // Only the session the payment is waiting for: an older session of a payment that has a newer one (or whose
  // amount changed since) failing or expiring says nothing about it.
  await tx.query(
    `UPDATE api.payments SET status = $3, provider = 'stripe', provider_reference = coalesce($4, provider_reference)
     WHERE id = $1 AND organization_id = $2 AND status = ANY ($5::text[]) AND provider_reference IN ($6, $4)`,
    [paymentId, organizationId, move.status, intent, move.from, session.id],
  );
}

/** Verifies and applies one event; throws SK670 when the signature does not verify. */
export async function receiveStripeEvent(
  db: Database, serverSecret: string | undefined, organizationId: string, rawBody: Buffer, signature: string | undefined,
): Promise<StripeEventOutcome> {
  const account = await loadStripeAccount(db, serverSecret, organizationId);
  if (!account || !signature) throw stripeSignatureInvalid();
  const { webhooks } = await loadStripe();
  let event: Stripe.Event;
  try {
    event = webhooks.constructEvent(rawBody, signature, account.webhookSecret);
  } catch {
    throw stripeSignatureInvalid();
  }
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `INSERT INTO staykit_internal.stripe_events (organization_id, event_id, type) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING event_id`,
      [organizationId, event.id, event.type],
    );
    if (rows.length === 0) return { received: true, duplicate: true };
    await applyEvent(tx, organizationId, event);
    return { received: true, duplicate: false };
  });
}
