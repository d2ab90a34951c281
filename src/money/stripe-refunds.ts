/**
 * Refunds of Stripe payments are executed at Stripe: a refund written through the API (pending, checked by the
 * database against the payment) is sent to Stripe for the payment's payment intent, with the refund's id as the
 * idempotency key (a retry never refunds twice), then marked refunded — or failed, with Stripe's reason — with
 * Stripe's refund id as its provider reference. Run after each POST /v1/refunds, and by the background workers for those Stripe could not take at once.
 */
import type { Database } from '../db/types.js';
import type { WorkerLogger } from '../observability/worker-logger.js';
import { loadStripeAccount } from './stripe-accounts.js';
import type { StripeClientFactory } from './stripe-client.js';
import { loadStripe } from './stripe-sdk.js';

interface DueRefund {
  id: string;
  organization_id: string;
  amount: number;
  payment_intent: string;
}

/** Sends the pending refunds of Stripe payments (of one organization, or all) to Stripe; returns how many were settled. */
export async function executeStripeRefunds(
  db: Database, stripe: StripeClientFactory, serverSecret: string | undefined, organizationId?: string,
): Promise<number> {
  if (!serverSecret) return 0;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<DueRefund>(
      `SELECT r.id, r.organization_id, r.amount, p.provider_reference AS payment_intent
       FROM api.refunds AS r JOIN api.payments AS p ON p.id = r.payment_id AND p.organization_id = r.organization_id
       WHERE r.status = 'pending' AND p.provider = 'stripe' AND p.provider_reference LIKE 'pi\\_%'
         AND ($1::uuid IS NULL OR r.organization_id = $1)
       ORDER BY r.created_at LIMIT 20
       FOR UPDATE OF r SKIP LOCKED`,
      [organizationId ?? null],
    );
    let settled = 0;
    for (const refund of rows) {
      const account = await loadStripeAccount(tx, serverSecret, refund.organization_id);
      if (!account) continue;
      const client = await stripe(account.secretKey);
      try {
        const done = await client.refunds.create(
          { payment_intent: refund.payment_intent, amount: refund.amount, metadata: { refund_id: refund.id } },
          { idempotencyKey: `staykit-refund-${refund.id}` },
        );
        const status = done.status === 'failed' || done.status === 'canceled' ? 'failed' : 'refunded';
        await tx.query(`UPDATE api.refunds SET status = $2, provider_reference = $3 WHERE id = $1`, [refund.id, status, done.id]);
      } catch (error) {
        // Stripe unreachable, overloaded or failing itself: the refund stays pending for the next try (same
        // idempotency key). Stripe refusing it (already refunded, too much): failed, with Stripe's reason.
        const { errors } = await loadStripe(); // loaded already: `client` came from it
        if (error instanceof errors.StripeConnectionError || error instanceof errors.StripeRateLimitError
          || error instanceof errors.StripeAPIError) continue;
        const reason = error instanceof Error ? error.message : 'unknown error';
        await tx.query(`UPDATE api.refunds SET status = 'failed', reason = left(reason || ' (Stripe: ' || $2 || ')', 1000) WHERE id = $1`, [refund.id, reason]);
      }
      settled += 1;
    }
    return settled;
  });
}

export interface RefundRetries {
  stop(): Promise<void>;
}

/** The background workers' retry of refunds left pending (Stripe unreachable): every `intervalMs`, all organizations. */
export function startStripeRefundRetries(
  db: Database, stripe: StripeClientFactory, serverSecret: string | undefined, logger: WorkerLogger, intervalMs = 60_000,
): RefundRetries {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = executeStripeRefunds(db, stripe, serverSecret)
      .catch((error: unknown) => logger.warn({ err: error }, 'stripe refund retries'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  if (serverSecret) timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
