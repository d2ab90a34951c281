/**
 * The webhook operations and the webhook payloads in the OpenAPI document (src/openapi/document.ts adds them to its
 * paths, schemas and the OpenAPI 3.1 `webhooks` section); the operations are those of the route definitions (bodies.ts).
 */
import { openApiPaths } from '../routing/route-schema.js';
import { WEBHOOK_ROUTES } from './bodies.js';
import { AVAILABILITY_PAYLOAD_SCHEMA, BOOKING_PAYLOAD_SCHEMA, CANCELLATION_REQUEST_PAYLOAD_SCHEMA, RATES_PAYLOAD_SCHEMA } from './payload-schemas.js';

type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
/** The payload schema without its `$schema`: the OpenAPI 3.1 document sets the dialect for all its schemas. */
const defined = openApiPaths(WEBHOOK_ROUTES);
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

export const webhookSchemas: Record<string, object> = {
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
  ...defined.schemas,
};

export const webhookPaths: Record<string, Json> = defined.paths;

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
