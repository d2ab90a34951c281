/**
 * The change feed operation and the webhook payloads in the OpenAPI document (src/openapi/document.ts adds them to
 * its paths, schemas and the OpenAPI 3.1 `webhooks` section).
 */
import { AVAILABILITY_PAYLOAD_SCHEMA, BOOKING_PAYLOAD_SCHEMA, CANCELLATION_REQUEST_PAYLOAD_SCHEMA, RATES_PAYLOAD_SCHEMA } from './payload-schemas.js';

type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
/** The payload schema without its `$schema`: the OpenAPI 3.1 document sets the dialect for all its schemas. */
const withoutDialect = (schema: object): Json => Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'));

/** The body POSTed for some event types, with the payload schema of `payloadSchema`. */
const eventBody = (description: string, eventTypes: string[], payloadSchema: string, date: string): Json => ({
  type: 'object',
  description,
  required: ['id', 'date', 'event_type', 'payload'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The notification id, also the webhook-id header.' },
    date: { type: 'integer', description: date },
    event_type: { enum: eventTypes },
    payload: ref('schemas', payloadSchema),
  },
});

export const webhookSchemas: Record<string, Json> = {
  BookingEventPayload: withoutDialect(BOOKING_PAYLOAD_SCHEMA),
  BookingEvent: eventBody(
    'The body POSTed for booking.created|updated|confirmed|cancelled|requested (docs/webhooks.md#booking-events).',
    ['booking.created', 'booking.updated', 'booking.confirmed', 'booking.cancelled', 'booking.requested'], 'BookingEventPayload',
    'When the change committed, unix seconds.',
  ),
  CancellationRequestEventPayload: withoutDialect(CANCELLATION_REQUEST_PAYLOAD_SCHEMA),
  CancellationRequestEvent: eventBody(
    'The body POSTed for booking.cancellation_requested (docs/webhooks.md#booking-events).',
    ['booking.cancellation_requested'], 'CancellationRequestEventPayload', 'When the request was made, unix seconds.',
  ),
  AvailabilityEventPayload: withoutDialect(AVAILABILITY_PAYLOAD_SCHEMA),
  AvailabilityEvent: eventBody(
    'The body POSTed for availability.changed (docs/webhooks.md#availability-and-rate-events).',
    ['availability.changed'], 'AvailabilityEventPayload', 'When the coalesced changes were sent, unix seconds.',
  ),
  RatesEventPayload: withoutDialect(RATES_PAYLOAD_SCHEMA),
  RatesEvent: eventBody(
    'The body POSTed for rates.changed (docs/webhooks.md#availability-and-rate-events).',
    ['rates.changed'], 'RatesEventPayload', 'When the coalesced changes were sent, unix seconds.',
  ),
  WebhookEventType: {
    type: 'object',
    required: ['name', 'resource', 'description', 'read_scopes', 'allowed'],
    properties: {
      name: { type: 'string', description: 'The event type, as `webhooks.events` and `event_type` name it.' },
      resource: { type: 'string', description: 'What it reports on: a table for `<table>.*` events, `booking`, `availability` or `rates`.' },
      description: { type: 'string' },
      read_scopes: { type: 'array', items: { type: 'string' }, description: 'The tables whose read scope receiving it takes.' },
      allowed: { type: 'boolean', description: 'Whether this key holds those read scopes, and so may subscribe to it.' },
    },
  },
  Change: {
    type: 'object',
    required: ['event_id', 'type', 'resource', 'id', 'data', 'changed_at'],
    properties: {
      event_id: { type: 'string', format: 'uuid', description: 'The change id, also `event_id` in its webhook notifications.' },
      type: { type: 'string', description: '<resource>.created|updated|deleted' },
      resource: { type: 'string' },
      id: { type: 'string' },
      data: { type: ['object', 'null'], description: 'The row as this change committed it; null for a deletion.' },
      changed_at: { type: 'string', format: 'date-time' },
    },
  },
  ChangePage: {
    type: 'object',
    required: ['changes', 'next', 'has_more'],
    properties: {
      changes: { type: 'array', items: ref('schemas', 'Change') },
      next: { type: 'string', description: 'Opaque cursor: pass it as `since` for the next page.' },
      has_more: { type: 'boolean' },
    },
  },
};

export const changePaths: Record<string, Json> = {
  '/webhook-events': {
    get: {
      tags: ['operations'],
      operationId: 'webhook_events',
      summary: 'The webhook event catalogue',
      description: 'Every event a webhook may subscribe to, what it reports and the read scopes receiving it takes '
        + '(docs/webhooks.md#the-event-catalogue); `allowed` says whether this key may subscribe to it.',
      responses: {
        200: {
          description: 'The catalogue, in the order events were added.',
          content: { 'application/json': { schema: { type: 'array', items: ref('schemas', 'WebhookEventType') } } },
        },
        401: ref('responses', 'Unauthorized'),
        403: ref('responses', 'Forbidden'),
      },
    },
  },
  '/changes': {
    get: {
      tags: ['operations'],
      operationId: 'changes',
      summary: "The organization's changes since a cursor, in commit order",
      description: 'Every create, update and delete of the webhook catalogue resources the key may read '
        + '(docs/webhooks.md#change-feed). A cursor older than the retention answers 410 (SK741).',
      parameters: [
        { name: 'since', in: 'query', schema: { type: 'string' }, description: 'The `next` of a previous page.' },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
        { name: 'types', in: 'query', schema: { type: 'string' }, description: 'Comma-separated <resource>.created|updated|deleted.' },
      ],
      responses: {
        200: { description: 'A page of changes.', content: { 'application/json': { schema: ref('schemas', 'ChangePage') } } },
        400: ref('responses', 'BadRequest'),
        401: ref('responses', 'Unauthorized'),
        403: ref('responses', 'Forbidden'),
        410: { description: 'The cursor is older than the feed keeps: resynchronize.', content: { 'application/json': { schema: ref('schemas', 'Error') } } },
      },
    },
  },
};

const eventWebhook = (event: string, summary: string, body: string): Json => ({
  post: {
    operationId: `webhook_${event.replace('.', '_')}`,
    summary,
    description: 'Signed with Standard Webhooks headers (docs/webhooks.md#headers-and-signature).',
    requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', body) } } },
    responses: { '2XX': { description: 'Received; any other answer is retried.' } },
    'x-event-type': event,
  },
});

/** The OpenAPI 3.1 `webhooks` section. */
export const webhookOperations: Record<string, Json> = {
  'booking.created': eventWebhook('booking.created', 'A booking was made', 'BookingEvent'),
  'booking.updated': eventWebhook('booking.updated', 'A booking, its events, lines or contact changed', 'BookingEvent'),
  'booking.confirmed': eventWebhook('booking.confirmed', 'A booking was confirmed', 'BookingEvent'),
  'booking.cancelled': eventWebhook('booking.cancelled', 'A booking was cancelled', 'BookingEvent'),
  'booking.requested': eventWebhook('booking.requested', 'A guest asked to book: confirm or decline', 'BookingEvent'),
  'booking.cancellation_requested': eventWebhook('booking.cancellation_requested', 'A guest asked to cancel', 'CancellationRequestEvent'),
  'availability.changed': eventWebhook('availability.changed', "A unit's availability changed on some dates", 'AvailabilityEvent'),
  'rates.changed': eventWebhook('rates.changed', "A unit's prices changed on some dates", 'RatesEvent'),
};
