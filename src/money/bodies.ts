/**
 * The request and response bodies of the money routes (routes.ts), each written once as a TypeBox schema: JSON
 * Schema for the OpenAPI document (openapi.ts) and, through `Static`, the handlers' TypeScript types.
 */
import Type, { type Static } from 'typebox';

const uuid = Type.String({ format: 'uuid' });

export const PaymentSettingsInput = Type.Object({
  stripe_secret_key: Type.String({ pattern: '^(sk|rk)_[A-Za-z0-9_]{8,250}$', description: 'A Stripe secret key (sk_…) or restricted key (rk_…).' }),
  stripe_webhook_secret: Type.String({ pattern: '^whsec_[A-Za-z0-9+/=_]{8,250}$', description: 'The signing secret of the Stripe webhook endpoint.' }),
  success_url: Type.String({ pattern: '^https?://[^\\s]{1,2000}$', description: 'Where Stripe Checkout sends the guest after paying.' }),
  cancel_url: Type.String({ pattern: '^https?://[^\\s]{1,2000}$', description: 'Where Stripe Checkout sends the guest who gives up.' }),
});
export type PaymentSettingsInput = Static<typeof PaymentSettingsInput>;

export const PaymentSettings = Type.Object({
  provider: Type.Union([Type.Literal('stripe'), Type.Null()], { description: 'null: payments are manual.' }),
  secret_key_hint: Type.Optional(Type.String({ description: 'The last four characters of the secret key.' })),
  success_url: Type.Optional(Type.String()),
  cancel_url: Type.Optional(Type.String()),
  updated_at: Type.Optional(Type.String({ format: 'date-time' })),
}, { description: 'Which Stripe account is set up: never the keys themselves (docs/payments.md#stripe).' });

export const PaymentLinkRequest = Type.Object({ booking_id: uuid });

export const PaymentLink = Type.Object({
  payment_id: uuid,
  amount: Type.Integer({ description: 'Minor units.' }),
  currency: Type.String(),
  payment_url: Type.String({ format: 'uri', description: 'The Stripe Checkout page to send the guest to.' }),
});

export const StripeEventReceipt = Type.Object({
  received: Type.Literal(true),
  duplicate: Type.Boolean({ description: 'The event was applied before: nothing changed.' }),
});
