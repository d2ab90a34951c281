/**
 * Stripe's events for an organization (POST /v1/stripe/webhook/{organization_id}): the signature is verified with
 * the organization's webhook signing secret by the SDK (`stripe.webhooks.constructEvent`) before anything is read;
 * each event id is applied once (staykit_internal.stripe_events), in the same transaction as its effect, so a
 * replay changes nothing. Checkout session events move the payment named in the session's metadata:
 * completed and paid, or async_payment_succeeded → paid (at the event's time); async_payment_failed → failed;
 * expired → expired. The database does the rest (payments.paid webhook, confirming a request booking).
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

type PaymentMove = { status: 'paid' | 'failed' | 'expired'; from: string[] };

function moveFor(event: Stripe.Event): PaymentMove | undefined {
  switch (event.type) {
    case 'checkout.session.completed':
      return event.data.object.payment_status === 'unpaid' ? undefined : { status: 'paid', from: ['pending', 'failed', 'expired'] };
    case 'checkout.session.async_payment_succeeded':
      return { status: 'paid', from: ['pending', 'failed', 'expired'] };
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
  await tx.query(
    `UPDATE api.payments
     SET status = $3, provider = 'stripe', provider_reference = coalesce($4, provider_reference),
         paid_at = CASE WHEN $3 = 'paid' THEN to_timestamp($5) END
     WHERE id = $1 AND organization_id = $2 AND status = ANY ($6::text[])`,
    [paymentId, organizationId, move.status, intent, event.created, move.from],
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
