/**
 * The change feed operation and the webhook payloads in the OpenAPI document (src/openapi/document.ts adds them to
 * its paths, schemas and the OpenAPI 3.1 `webhooks` section).
 */
import { BOOKING_PAYLOAD_SCHEMA } from './payload-schemas.js';

type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
/** The payload schema without its `$schema`: the OpenAPI 3.1 document sets the dialect for all its schemas. */
const bookingPayload: Json = Object.fromEntries(Object.entries(BOOKING_PAYLOAD_SCHEMA).filter(([key]) => key !== '$schema'));

export const webhookSchemas: Record<string, Json> = {
  BookingEventPayload: bookingPayload,
  BookingEvent: {
    type: 'object',
    description: 'The body POSTed for booking.created|updated|confirmed|cancelled (docs/webhooks.md#booking-events).',
    required: ['id', 'date', 'event_type', 'payload'],
    properties: {
      id: { type: 'string', format: 'uuid', description: 'The notification id, also the webhook-id header.' },
      date: { type: 'integer', description: 'When the change committed, unix seconds.' },
      event_type: { enum: ['booking.created', 'booking.updated', 'booking.confirmed', 'booking.cancelled'] },
      payload: ref('schemas', 'BookingEventPayload'),
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

const bookingWebhook = (event: string, summary: string): Json => ({
  post: {
    operationId: `webhook_${event.replace('.', '_')}`,
    summary,
    description: 'Signed with Standard Webhooks headers (docs/webhooks.md#headers-and-signature).',
    requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', 'BookingEvent') } } },
    responses: { '2XX': { description: 'Received; any other answer is retried.' } },
    'x-event-type': event,
  },
});

/** The OpenAPI 3.1 `webhooks` section. */
export const webhookOperations: Record<string, Json> = {
  'booking.created': bookingWebhook('booking.created', 'A booking was made'),
  'booking.updated': bookingWebhook('booking.updated', 'A booking, its events, lines or contact changed'),
  'booking.confirmed': bookingWebhook('booking.confirmed', 'A booking was confirmed'),
  'booking.cancelled': bookingWebhook('booking.cancelled', 'A booking was cancelled'),
};
