/**
 * A Stripe client for one organization's secret key, through the official `stripe` package. STAYKIT_STRIPE_API_URL
 * points the SDK elsewhere (its host/port/protocol options): the tests' local Stripe-speaking server, a mock in
 * development; unset, it talks to api.stripe.com. The SDK is loaded with the first client (stripe-sdk.ts).
 */
import type Stripe from 'stripe';
import { loadStripe } from './stripe-sdk.js';

export type StripeClientFactory = (secretKey: string) => Promise<Stripe>;

export function stripeClientFactory(apiUrl: string | undefined): StripeClientFactory {
  const target = apiUrl ? new URL(apiUrl) : undefined;
  return async (secretKey) => new (await loadStripe())(secretKey, {
    maxNetworkRetries: 1,
    timeout: 10_000,
    ...(target ? {
      host: target.hostname,
      port: target.port || (target.protocol === 'https:' ? 443 : 80),
      protocol: target.protocol === 'http:' ? 'http' : 'https',
    } : {}),
  });
}
