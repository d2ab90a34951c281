/**
 * An organization's Stripe account: stored encrypted in staykit_internal.payment_accounts by the server's
 * connection (the API role cannot reach the table), read back only to call Stripe or verify its events.
 */
import type { Queryable } from '../db/types.js';
import { decryptSecret, encryptSecret } from './secrets.js';

export interface StripeAccountInput {
  secret_key: string;
  webhook_secret: string;
  success_url: string;
  cancel_url: string;
}

export interface StripeAccount {
  secretKey: string;
  webhookSecret: string;
  successUrl: string;
  cancelUrl: string;
}

/** What the API shows of the account: never a key, only which one. */
export interface StripeAccountSummary {
  provider: 'stripe';
  secret_key_hint: string;
  success_url: string;
  cancel_url: string;
  updated_at: string;
}

export async function saveStripeAccount(db: Queryable, serverSecret: string, organizationId: string, input: StripeAccountInput): Promise<void> {
  await db.query(
    `INSERT INTO staykit_internal.payment_accounts
       (organization_id, secret_key_encrypted, webhook_secret_encrypted, secret_key_hint, success_url, cancel_url)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (organization_id) DO UPDATE SET secret_key_encrypted = EXCLUDED.secret_key_encrypted,
       webhook_secret_encrypted = EXCLUDED.webhook_secret_encrypted, secret_key_hint = EXCLUDED.secret_key_hint,
       success_url = EXCLUDED.success_url, cancel_url = EXCLUDED.cancel_url, updated_at = now()`,
    [organizationId, encryptSecret(serverSecret, input.secret_key), encryptSecret(serverSecret, input.webhook_secret),
      input.secret_key.slice(-4), input.success_url, input.cancel_url],
  );
}

export async function deleteStripeAccount(db: Queryable, organizationId: string): Promise<void> {
  await db.query('DELETE FROM staykit_internal.payment_accounts WHERE organization_id = $1', [organizationId]);
}

export async function stripeAccountSummary(db: Queryable, organizationId: string): Promise<StripeAccountSummary | undefined> {
  const { rows } = await db.query<StripeAccountSummary>(
    `SELECT provider, secret_key_hint, success_url, cancel_url, updated_at
     FROM staykit_internal.payment_accounts WHERE organization_id = $1`,
    [organizationId],
  );
  return rows[0];
}

export async function loadStripeAccount(db: Queryable, serverSecret: string | undefined, organizationId: string): Promise<StripeAccount | undefined> {
  if (!serverSecret) return undefined;
  const { rows } = await db.query<{ secret_key_encrypted: string; webhook_secret_encrypted: string; success_url: string; cancel_url: string }>(
    `SELECT secret_key_encrypted, webhook_secret_encrypted, success_url, cancel_url
     FROM staykit_internal.payment_accounts WHERE organization_id = $1`,
    [organizationId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    secretKey: decryptSecret(serverSecret, row.secret_key_encrypted),
    webhookSecret: decryptSecret(serverSecret, row.webhook_secret_encrypted),
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
  };
}
