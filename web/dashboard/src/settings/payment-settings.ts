/**
 * The organization's Stripe account through `/v1/payment-settings` (src/money/routes.ts): which key is stored (its
 * last four characters), never the keys — the server stores them encrypted and has no way to show them.
 */
import { requestJson } from '../api/http';

export interface PaymentSettingsState {
  provider: 'stripe' | null;
  secret_key_hint?: string;
  success_url?: string;
  cancel_url?: string;
  updated_at?: string;
}

export interface StripeKeys {
  stripe_secret_key: string;
  stripe_webhook_secret: string;
  success_url: string;
  cancel_url: string;
}

const PATH = '/v1/payment-settings';

export const readPaymentSettings = () => requestJson<PaymentSettingsState>('GET', PATH);
export const savePaymentSettings = (keys: StripeKeys) => requestJson<PaymentSettingsState>('PUT', PATH, keys);
export const removePaymentSettings = () => requestJson<undefined>('DELETE', PATH);

/** Where Stripe sends this organization's events. */
export const stripeWebhookUrl = (origin: string, organizationId: string) => `${origin}/v1/stripe/webhook/${organizationId}`;
