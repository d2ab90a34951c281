/**
 * The payment and invoice operations in the OpenAPI document (src/openapi/document.ts adds them to its paths and
 * schemas): those of the route definitions (bodies.ts), and the two routes registered by hand (a PDF, Stripe's raw events).
 */
import { openApiPaths } from '../routing/route-schema.js';
import { MONEY_ROUTES, StripeEventReceipt } from './bodies.js';

type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
const uuid = { type: 'string', format: 'uuid' };
const json = (schema: object) => ({ 'application/json': { schema } });
const STATUS: Record<string, number> = { BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, NotAcceptable: 406 };
const errors = (...names: string[]) => Object.fromEntries(names.map((name) => [STATUS[name], ref('responses', name)]));
const defined = openApiPaths(MONEY_ROUTES);

export const moneySchemas: Record<string, object> = defined.schemas;

export const moneyPaths: Record<string, Json> = {
  ...defined.paths,
  '/stripe/webhook/{organization_id}': {
    post: {
      tags: ['payments'], operationId: 'stripe_webhook', summary: 'Stripe\'s events for an organization', security: [],
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
