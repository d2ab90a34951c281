/**
 * The money routes written once each (src/routing/route-schema.ts): method, url, scope, documentation and the TypeBox
 * schemas of their bodies and answers, from which routes.ts registers them (validated, typed) and openapi.ts
 * documents them — the invoice PDF (a PDF answer) and Stripe's events (a raw body, documented, not validated) too.
 */
import Type from 'typebox';
import { defineRoute } from '../routing/route-schema.js';
import { component } from '../routing/schema-component.js';
import { moneyBodyInvalid } from './errors.js';
import { INVOICE_DOCUMENT_TABLES } from './invoice-queries.js';

const uuid = Type.String({ format: 'uuid' });
const httpUrl = (description: string) => Type.String({ pattern: '^https?://[^\\s]{1,2000}$', expected: 'an http(s) URL', description });
const tags = ['payments'];

const PaymentSettingsInput = Type.Object({
  stripe_secret_key: Type.String({ pattern: '^(sk|rk)_[A-Za-z0-9_]{8,250}$', expected: 'a Stripe secret key (sk_… or rk_…)' }),
  stripe_webhook_secret: Type.String({ pattern: '^whsec_[A-Za-z0-9+/=_]{8,250}$', expected: 'a Stripe webhook signing secret (whsec_…)' }),
  success_url: httpUrl('Where Stripe Checkout sends the guest after paying.'),
  cancel_url: httpUrl('Where Stripe Checkout sends the guest who gives up.'),
}, { additionalProperties: false });

const PaymentSettings = component('PaymentSettings', Type.Object({
  provider: Type.Union([Type.Literal('stripe'), Type.Null()], { description: 'null: payments are manual.' }),
  secret_key_hint: Type.Optional(Type.String({ description: 'The last four characters of the secret key.' })),
  success_url: Type.Optional(Type.String()),
  cancel_url: Type.Optional(Type.String()),
  updated_at: Type.Optional(Type.String({ format: 'date-time' })),
}, { description: 'Which Stripe account is set up: never the keys themselves (docs/payments.md#stripe).' }));

export const paymentSettingsGet = defineRoute({
  method: 'GET', url: '/payment-settings', scope: { resource: 'organizations', access: 'read' },
  operationId: 'payment_settings_get', summary: 'Which Stripe account is set up', tags,
  description: 'Scope `organizations:read`. `{"provider": null}` when payments are manual.',
  responses: { 200: { description: 'The account, without its keys.', schema: PaymentSettings } },
  errors: ['Unauthorized', 'Forbidden'], invalid: moneyBodyInvalid,
});

export const paymentSettingsPut = defineRoute({
  method: 'PUT', url: '/payment-settings', scope: { resource: 'organizations', access: 'write' },
  operationId: 'payment_settings_put', summary: 'Set up Stripe', tags,
  description: 'Stores the keys encrypted (AES-256-GCM with the server\'s STAYKIT_SECRET_KEY); they are never shown again. Scope `organizations:write`. '
    + 'A server without STAYKIT_SECRET_KEY answers 409 (SK678).',
  body: PaymentSettingsInput,
  responses: { 200: { description: 'Stored.', schema: PaymentSettings } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'Conflict'], invalid: moneyBodyInvalid,
});

export const paymentSettingsDelete = defineRoute({
  method: 'DELETE', url: '/payment-settings', scope: { resource: 'organizations', access: 'write' },
  operationId: 'payment_settings_delete', summary: 'Remove the Stripe account (payments become manual)', tags,
  description: 'Scope `organizations:write`.',
  responses: { 204: { description: 'Removed.' } },
  errors: ['Unauthorized', 'Forbidden'], invalid: moneyBodyInvalid,
});

export const paymentLinkPost = defineRoute({
  method: 'POST', url: '/payment-link', scope: { resource: 'payments', access: 'write' },
  operationId: 'payment_link', summary: 'A Stripe Checkout link for a booking\'s next payment', tags,
  description: 'The next payment still to pay (pending, failed or expired; the earliest due first). Scope `payments:write`. '
    + 'No such payment (or booking): 404 (SK676); Stripe not set up: 409 (SK671); Stripe refused: 502 (SK672).',
  body: Type.Object({ booking_id: Type.String({ format: 'uuid', expected: 'a booking id (UUID)' }) }, { additionalProperties: false }),
  responses: {
    200: {
      description: 'The link.',
      schema: Type.Object({
        payment_id: uuid,
        amount: Type.Integer({ description: 'Minor units.' }),
        currency: Type.String(),
        payment_url: Type.String({ format: 'uri', description: 'The Stripe Checkout page to send the guest to.' }),
      }),
    },
  },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'BadGateway'], invalid: moneyBodyInvalid,
});


export const invoicePdf = defineRoute({
  method: 'GET', url: '/invoices/:id', scope: { resource: 'invoices', access: 'read' },
  operationId: 'invoice_pdf', summary: 'An invoice as a PDF', tags: ['invoices'],
  description: `Send \`Accept: application/pdf\` (406 SK673 otherwise). Needs the read scope of every table the document shows: ${INVOICE_DOCUMENT_TABLES.join(', ')}. `
    + 'The JSON is at `GET /invoices?id=eq.{id}`.',
  params: Type.Object({ id: Type.String({ format: 'uuid', expected: 'an invoice id (UUID)' }) }),
  responses: { 200: { description: 'The invoice.', mediaType: 'application/pdf', schema: Type.String({ format: 'binary' }) } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'NotAcceptable'], invalid: moneyBodyInvalid,
});

/** The answer to a Stripe event (stripe-webhook.ts). */
export const StripeEventReceipt = Type.Object({
  received: Type.Literal(true),
  duplicate: Type.Boolean({ description: 'The event was applied before: nothing changed.' }),
});

export const stripeWebhook = defineRoute({
  method: 'POST', url: '/stripe/webhook/:organization_id', scope: undefined,
  operationId: 'stripe_webhook', summary: 'Stripe\'s events for an organization', tags, security: [],
  description: 'Verified by the `Stripe-Signature` header with the organization\'s webhook signing secret (400 SK670 when it does not '
    + 'verify, or the organization has no Stripe account); each event id is applied once (docs/payments.md#stripe).',
  params: Type.Object({ organization_id: Type.String({ format: 'uuid', expected: 'an organization id (UUID)' }) }),
  parameters: [{ name: 'Stripe-Signature', in: 'header', required: true, schema: { type: 'string' } }],
  // Stripe signs the exact bytes it sent: the handler verifies them before anything reads them as JSON.
  rawBody: { 'application/json': Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'A Stripe event.' }) },
  responses: { 200: { description: 'Received.', schema: StripeEventReceipt } },
  errors: ['BadRequest'], invalid: moneyBodyInvalid,
});

export const MONEY_ROUTES = [paymentSettingsGet, paymentSettingsPut, paymentSettingsDelete, paymentLinkPost, invoicePdf, stripeWebhook];
