/**
 * The request and response bodies of the webhook operations (routes.ts), each written once as a TypeBox schema:
 * JSON Schema for the OpenAPI document (openapi.ts) and, through `Static`, the handlers' TypeScript types.
 */
import Type, { type Static } from 'typebox';

const uuid = Type.String({ format: 'uuid' });
export const MAX_REDELIVER_IDS = 1000;

export const WebhookTestRequest = Type.Object({ webhook_id: uuid });

export const WebhookTestResult = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The webhook-id of the test message; it is in the delivery log (webhook_notifications).' }),
  ok: Type.Boolean({ description: 'The endpoint answered 2xx.' }),
  status: Type.Union([Type.Integer(), Type.Null()], { description: "The endpoint's HTTP status; null when it could not be reached." }),
  response: Type.String({ description: 'What the endpoint answered (or why it could not be reached), as the delivery log keeps it.' }),
});
export type WebhookTestResult = Static<typeof WebhookTestResult>;

export const RedeliverRequest = Type.Object({
  ids: Type.Array(uuid, { minItems: 1, maxItems: MAX_REDELIVER_IDS, description: 'webhook_notifications ids; those of other organizations are ignored.' }),
});

export const Redelivered = Type.Object({
  requeued: Type.Array(uuid, { description: 'The notifications now pending again, due now.' }),
});

export const WebhookEventType = Type.Object({
  name: Type.String({ description: 'The event type, as `webhooks.events` and `event_type` name it.' }),
  resource: Type.String({ description: 'What it reports on: a table for `<table>.*` events, `booking`, `availability` or `rates`.' }),
  description: Type.String(),
  read_scopes: Type.Array(Type.String(), { description: 'The tables whose read scope receiving it takes.' }),
  allowed: Type.Boolean({ description: 'Whether this key holds those read scopes, and so may subscribe to it.' }),
});
export type WebhookEventType = Static<typeof WebhookEventType>;
