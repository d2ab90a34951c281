/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses) of the webhook payloads whose shape Staykit promises beyond "the
 * row": the booking.* events (docs/webhooks.md#booking-events), availability.changed and rates.changed
 * (docs/webhooks.md#availability-and-rate-events). Tests validate real payloads against them.
 */
const nullableString = { type: ['string', 'null'] } as const;
const multiLanguage = { type: 'object', additionalProperties: { type: 'string' }, description: 'text per language, "default" always present' } as const;

export const BOOKING_PAYLOAD_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'booking.created | booking.updated | booking.confirmed | booking.cancelled | booking.requested payload',
  type: 'object',
  required: ['booking'],
  additionalProperties: false,
  properties: {
    booking: {
      type: 'object',
      description: 'The bookings row (without its secret) as the transaction committed it, with the fields below.',
      required: ['id', 'organization_id', 'reference', 'currency', 'occupancy', 'calendar_events', 'product', 'contact', 'total', 'deposit', 'line_items'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        organization_id: { type: 'string', format: 'uuid' },
        reference: { type: 'string' },
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
        occupancy: { type: 'object', additionalProperties: { type: 'integer' }, description: 'guests per occupancy type' },
        calendar_events: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'product_id', 'start_date', 'end_date', 'status', 'type'],
            additionalProperties: false,
            properties: {
              id: { type: 'string', format: 'uuid' },
              product_id: { type: 'string', format: 'uuid' },
              start_date: { type: 'string', format: 'date' },
              end_date: { type: 'string', format: 'date', description: 'exclusive: the departure day' },
              status: { enum: ['TENTATIVE', 'CONFIRMED', 'CANCELLED'] },
              type: { enum: ['booking', 'blocked period', 'note'] },
            },
          },
        },
        product: {
          description: 'The booked unit (of its first event that is not cancelled, else its first event); null without events.',
          oneOf: [
            { type: 'null' },
            { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: { type: 'string', format: 'uuid' }, name: multiLanguage } },
          ],
        },
        contact: {
          description: 'The guest: the contacts row of the booking (the first, if several), or null.',
          oneOf: [
            { type: 'null' },
            { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' }, first_name: nullableString, last_name: nullableString, email: nullableString } },
          ],
        },
        total: { type: 'integer', description: 'sum of the fee lines, in cents of currency' },
        deposit: { type: 'integer', description: 'sum of the deposit lines (refundable), in cents' },
        line_items: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'item_type', 'fee_type', 'name', 'amount', 'quantity', 'service_id'],
            additionalProperties: false,
            properties: {
              id: { type: 'string', format: 'uuid' },
              item_type: { enum: ['rent', 'fee', 'service', 'adjustment', 'discount', 'coupon', 'tax', 'other'] },
              fee_type: { enum: ['fee', 'deposit'] },
              name: multiLanguage,
              amount: { type: 'integer', description: 'the line total in cents' },
              quantity: { type: 'integer', minimum: 1 },
              service_id: { type: ['string', 'null'], format: 'uuid' },
            },
          },
        },
      },
    },
  },
} as const;

const dateRange = {
  product_id: { type: 'string', format: 'uuid' },
  from: { type: ['string', 'null'], format: 'date', description: 'first changed date; null: unbounded' },
  to: { type: ['string', 'null'], format: 'date', description: 'exclusive end of the changed dates; null: unbounded' },
} as const;

export const AVAILABILITY_PAYLOAD_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'availability.changed payload',
  description: 'The dates of a unit whose availability may have changed: all changes of up to a second, merged.',
  type: 'object',
  required: ['product_id', 'from', 'to'],
  additionalProperties: false,
  properties: dateRange,
} as const;

export const RATES_PAYLOAD_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'rates.changed payload',
  description: 'The dates of a unit whose prices may have changed, and where: all changes of up to a second, merged.',
  type: 'object',
  required: ['product_id', 'from', 'to', 'source'],
  additionalProperties: false,
  properties: {
    ...dateRange,
    source: {
      enum: ['configuration', 'per_date', 'pricelabs'],
      description: 'product_configurations (rates, adjustments), price_calendar_entries, or pricelabs_pricing',
    },
  },
} as const;

/** booking.cancellation_requested: the booking, and the guest's message asking to cancel. */
export const CANCELLATION_REQUEST_PAYLOAD_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'booking.cancellation_requested payload',
  type: 'object',
  required: ['booking', 'message'],
  additionalProperties: false,
  properties: {
    booking: BOOKING_PAYLOAD_SCHEMA.properties.booking,
    message: {
      type: 'object',
      description: 'The inbound message on the booking that holds the request.',
      required: ['id', 'from_address', 'subject', 'body', 'created_at'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', format: 'uuid' },
        from_address: { ...nullableString, description: "the guest's e-mail address, when the booking has a contact with one" },
        subject: { type: 'string' },
        body: { type: 'string', description: 'what the guest wrote (may be empty)' },
        created_at: { type: 'string', format: 'date-time' },
      },
    },
  },
} as const;

/** The payload schema of each event type that has one. */
export const PAYLOAD_SCHEMAS: Readonly<Record<string, object>> = {
  'booking.created': BOOKING_PAYLOAD_SCHEMA,
  'booking.updated': BOOKING_PAYLOAD_SCHEMA,
  'booking.confirmed': BOOKING_PAYLOAD_SCHEMA,
  'booking.cancelled': BOOKING_PAYLOAD_SCHEMA,
  'booking.requested': BOOKING_PAYLOAD_SCHEMA,
  'booking.cancellation_requested': CANCELLATION_REQUEST_PAYLOAD_SCHEMA,
  'availability.changed': AVAILABILITY_PAYLOAD_SCHEMA,
  'rates.changed': RATES_PAYLOAD_SCHEMA,
};
