/**
 * The webhook operations written once each (src/routing/route-schema.ts): method, url, scope, documentation and the
 * TypeBox schemas of their bodies and answers, from which routes.ts registers them (validated, typed) and
 * openapi.ts documents them.
 */
import Type, { type Static } from 'typebox';
import { defineRoute } from '../routing/route-schema.js';
import { component } from '../routing/schema-component.js';
import { invalidBody } from '../errors/catalogue.js';

const uuid = Type.String({ format: 'uuid' });
const MAX_REDELIVER_IDS = 1000;

const WebhookEventType = component('WebhookEventType', Type.Object({
  name: Type.String({ description: 'The event type, as `webhooks.events` and `event_type` name it.' }),
  resource: Type.String({ description: 'What it reports on: a table for `<table>.*` events, `booking`, `availability` or `rates`.' }),
  description: Type.String(),
  read_scopes: Type.Array(Type.String(), { description: 'The tables whose read scope receiving it takes.' }),
  allowed: Type.Boolean({ description: 'Whether this key holds those read scopes, and so may subscribe to it.' }),
}));
export type WebhookEventType = Static<typeof WebhookEventType>;

export const webhookEvents = defineRoute({
  method: 'GET', url: '/webhook-events', scope: { resource: 'webhooks', access: 'read' },
  operationId: 'webhook_events', summary: 'The webhook event catalogue', tags: ['operations'],
  description: 'Every event a webhook may subscribe to, what it reports and the read scopes receiving it takes '
    + '(docs/webhooks.md#the-event-catalogue); `allowed` says whether this key may subscribe to it. Scope `webhooks:read`.',
  responses: { 200: { description: 'The catalogue, in the order events were added.', schema: Type.Array(WebhookEventType) } },
  errors: ['Unauthorized', 'Forbidden'], invalid: invalidBody,
});

const WebhookTestResult = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The webhook-id of the test message; it is in the delivery log (webhook_notifications).' }),
  ok: Type.Boolean({ description: 'The endpoint answered 2xx.' }),
  status: Type.Union([Type.Integer(), Type.Null()], { description: "The endpoint's HTTP status; null when it could not be reached." }),
  response: Type.String({ description: 'What the endpoint answered (or why it could not be reached), as the delivery log keeps it.' }),
});
export type WebhookTestResult = Static<typeof WebhookTestResult>;

export const webhookTest = defineRoute({
  method: 'POST', url: '/webhook-test', scope: { resource: 'webhooks', access: 'write' },
  operationId: 'webhook_test', summary: 'Send a signed test message to a webhook now', tags: ['webhooks'],
  description: 'One `webhook.test` message `{"webhook_id"}`, sent now and recorded in the delivery log; a disabled webhook may be tested. '
    + 'Scope `webhooks:write`.',
  body: Type.Object({ webhook_id: uuid }, { additionalProperties: false }),
  responses: { 200: { description: 'What the endpoint answered (`ok` false when it failed or could not be reached).', schema: WebhookTestResult } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound'], invalid: invalidBody,
});

export const webhookRedeliver = defineRoute({
  method: 'POST', url: '/webhook-redeliver', scope: { resource: 'webhooks', access: 'write' },
  operationId: 'webhook_redeliver', summary: 'Send notifications again', tags: ['webhook_notifications'],
  description: 'The notifications become pending again, due now. Scope `webhooks:write`, and the read scopes of their events\' payloads '
    + '(403 SK742 otherwise: docs/webhooks.md#event-scopes).',
  body: Type.Object({
    ids: Type.Array(uuid, { minItems: 1, maxItems: MAX_REDELIVER_IDS, description: 'webhook_notifications ids; those of other organizations are ignored.' }),
  }, { additionalProperties: false }),
  responses: {
    200: {
      description: 'The notifications requeued.',
      schema: Type.Object({ requeued: Type.Array(uuid, { description: 'The notifications now pending again, due now.' }) }),
    },
  },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden'], invalid: invalidBody,
});

export const WEBHOOK_ROUTES = [webhookEvents, webhookTest, webhookRedeliver];
