/**
 * The payment and invoice operations in the OpenAPI document (src/openapi/document.ts adds them to its paths and
 * schemas); their bodies are the schemas the routes use (bodies.ts).
 */
import { PaymentLink, PaymentLinkRequest, PaymentSettings, PaymentSettingsInput, StripeEventReceipt } from './bodies.js';

type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
const uuid = { type: 'string', format: 'uuid' };
const json = (schema: object) => ({ 'application/json': { schema } });
const STATUS: Record<string, number> = {
  BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, NotAcceptable: 406, Conflict: 409, BadGateway: 502,
};
const errors = (...names: string[]) => Object.fromEntries(names.map((name) => [STATUS[name], ref('responses', name)]));
const tags = ['payments'];

export const moneySchemas: Record<string, object> = { PaymentSettings };

export const moneyPaths: Record<string, Json> = {
  '/payment-settings': {
    get: {
      tags, operationId: 'payment_settings_get', summary: 'Which Stripe account is set up',
      description: 'Scope `organizations:read`. `{"provider": null}` when payments are manual.',
      responses: { 200: { description: 'The account, without its keys.', content: json(ref('schemas', 'PaymentSettings')) }, ...errors('Unauthorized', 'Forbidden') },
    },
    put: {
      tags, operationId: 'payment_settings_put', summary: 'Set up Stripe',
      description: 'Stores the keys encrypted (AES-256-GCM with the server\'s STAYKIT_SECRET_KEY); they are never shown again. Scope `organizations:write`. '
        + 'A server without STAYKIT_SECRET_KEY answers 409 (SK678).',
      requestBody: { required: true, content: json(PaymentSettingsInput) },
      responses: { 200: { description: 'Stored.', content: json(ref('schemas', 'PaymentSettings')) }, ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'Conflict') },
    },
    delete: {
      tags, operationId: 'payment_settings_delete', summary: 'Remove the Stripe account (payments become manual)',
      description: 'Scope `organizations:write`.',
      responses: { 204: { description: 'Removed.' }, ...errors('Unauthorized', 'Forbidden') },
    },
  },
  '/payment-link': {
    post: {
      tags, operationId: 'payment_link', summary: 'A Stripe Checkout link for a booking\'s next payment',
      description: 'The next payment still to pay (pending, failed or expired; the earliest due first). Scope `payments:write`. '
        + 'No such payment (or booking): 404 (SK676); Stripe not set up: 409 (SK671).',
      requestBody: { required: true, content: json(PaymentLinkRequest) },
      responses: {
        200: { description: 'The link.', content: json(PaymentLink) },
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'BadGateway'),
      },
    },
  },
  '/stripe/webhook/{organization_id}': {
    post: {
      tags, operationId: 'stripe_webhook', summary: 'Stripe\'s events for an organization', security: [],
      description: 'Verified by the `Stripe-Signature` header with the organization\'s webhook signing secret; each event id is applied once (docs/payments.md#stripe).',
      parameters: [{ name: 'organization_id', in: 'path', required: true, schema: uuid }, { name: 'Stripe-Signature', in: 'header', required: true, schema: { type: 'string' } }],
      requestBody: { required: true, content: json({ type: 'object', description: 'A Stripe event.' }) },
      responses: { 200: { description: 'Received.', content: json(StripeEventReceipt) }, ...errors('BadRequest', 'NotFound') },
    },
  },
  '/invoices/{id}': {
    get: {
      tags: ['invoices'], operationId: 'invoice_pdf', summary: 'An invoice as a PDF',
      description: 'Send `Accept: application/pdf`. Needs the read scope of every table the document shows: invoices, line_items, line_item_taxes, organizations, bookings, contacts, calendar_events, products. The JSON is at `GET /invoices?id=eq.{id}`.',
      parameters: [{ name: 'id', in: 'path', required: true, schema: uuid }],
      responses: {
        200: { description: 'The invoice.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
        ...errors('Unauthorized', 'Forbidden', 'NotFound', 'NotAcceptable'),
      },
    },
  },
};
