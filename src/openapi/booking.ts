/**
 * The booking flow (docs/booking.md, src/booking/routes.ts) in OpenAPI: availability, search, quote, book, cart
 * validate and checkout, create-product. `src/booking` parses bodies by hand rather than from JSON schemas, so the
 * request and response shapes are written out here, field for field as its parsers accept them.
 */
import type { JsonSchema } from './json-schema.js';

const ref = (kind: 'schemas' | 'parameters' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });
const date = (description?: string): JsonSchema => ({ type: 'string', format: 'date', ...(description ? { description } : {}) });
const uuid = { type: 'string', format: 'uuid' };
const STATUS = ['available', 'tentative', 'unavailable', 'booked', 'reserved', 'closed'];
const EXAMPLE_PRODUCT = '3f2a6c1e-8b7d-4c55-9a0e-2d4b6f8a1c3e';
const EXAMPLE_GROUP = '0b8c2f9e-2b1a-4f6e-9d41-6a0c1e7b5d23';

const showOptions: Record<string, JsonSchema> = {
  show_booked_as: { type: 'string', enum: ['booked', 'unavailable'], default: 'unavailable' },
  show_closed_as: { type: 'string', enum: ['closed', 'unavailable'], default: 'unavailable' },
  show_pending_as: {
    type: 'string', enum: ['CANCELLED', 'TENTATIVE', 'CONFIRMED'], default: 'TENTATIVE',
    description: 'How dates held by TENTATIVE bookings are shown: free (CANCELLED), `tentative`, or as booked (CONFIRMED).',
  },
};

const stayProperties: Record<string, JsonSchema> = {
  product_id: uuid,
  interval: ref('schemas', 'Interval'),
  occupancy: ref('schemas', 'Occupancy'),
  form_values: {
    type: 'object',
    description: 'Booking-form values and extras: service id → value (string, number, boolean or null).',
    propertyNames: { format: 'uuid' },
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
  },
};

const bookingOptions: Record<string, JsonSchema> = {
  currency: { type: 'string', pattern: '^[A-Z]{3}$', description: "Must be the product's currency when given." },
  language: { type: 'string', default: 'en', examples: ['en', 'nl'] },
  silent: { type: 'boolean', default: false, description: 'Do not send the confirmation email. Not with a publishable key (403 SK646).' },
  accept_terms: {
    type: 'boolean', default: false,
    description: 'The guest accepted the organization\'s booking terms (settings.booking_terms) and the unit\'s cancellation policy: '
      + 'the booking records when (bookings.terms_accepted_at). Required with a publishable key while the organization has booking '
      + 'terms (422 SK649 otherwise, for /book and /cart-checkout; /cart-validate reports it per item); a secret key need not send it.',
  },
  redirect_url: { type: 'string', maxLength: 2048 },
  contact: {
    type: 'object',
    description: 'The guest; creates or reuses a `contacts` row.',
    properties: Object.fromEntries(['first_name', 'last_name', 'email', 'phone'].map((name) => [name, { type: 'string', maxLength: 320 }])),
  },
  site_id: { ...uuid, description: 'The site the booking came through (one of the organization\'s; 404 SK640 otherwise).' },
  widget_id: { ...uuid, description: 'The widget the booking came through (one of the organization\'s; 404 SK641 otherwise).' },
};

const bookingExample = {
  product_id: EXAMPLE_PRODUCT,
  interval: { start: '2025-07-08', end: '2025-07-15' },
  occupancy: { [EXAMPLE_GROUP]: 2 },
  coupon_codes: ['SUMMER10'],
  contact: { first_name: 'Ana', last_name: 'Silva', email: 'ana@example.com' },
};

export const bookingSchemas: Record<string, JsonSchema> = {
  Interval: {
    type: 'object',
    description: 'Dates in the product\'s time zone. Nightly products: `end` is the checkout date (nights `[start, end)`); daily products: `end` is the last rented day, inclusive.',
    properties: { start: date(), end: date() },
    required: ['start', 'end'],
    example: { start: '2025-07-08', end: '2025-07-15' },
  },
  BookingRequest: {
    type: 'object',
    properties: {
      ...stayProperties,
      coupon_codes: { type: 'array', items: { type: 'string', maxLength: 64 }, description: 'Matched case-insensitively.' },
      ...bookingOptions,
    },
    required: ['product_id', 'interval'],
    example: bookingExample,
  },
  LineItem: {
    type: 'object',
    properties: {
      item_type: { type: 'string', enum: ['rent', 'service', 'adjustment', 'coupon', 'tax'] },
      fee_type: { type: 'string', enum: ['fee', 'deposit'] },
      name: { type: 'string' },
      quantity: { type: 'integer' },
      amount: { type: 'integer', description: 'Minor units (cents).' },
      service_id: uuid,
      taxes: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            tax_id: uuid, name: { type: 'string' }, percentage: { type: 'number' }, inclusive: { type: 'boolean' }, amount: { type: 'integer' },
          },
          required: ['tax_id', 'name', 'percentage', 'inclusive', 'amount'],
        },
      },
    },
    required: ['item_type', 'fee_type', 'name', 'quantity', 'amount', 'taxes'],
  },
  Quote: {
    type: 'object',
    properties: {
      currency: { type: 'string' },
      display_currency: { type: 'string' },
      exchange_rate: { type: 'number' },
      total: { type: 'integer', description: 'Sum of the `fee` line items, minor units.' },
      deposit: { type: 'integer', description: 'Sum of the `deposit` line items, minor units.' },
      line_items: { type: 'array', items: ref('schemas', 'LineItem') },
      coupons: {
        type: 'array',
        items: {
          type: 'object',
          properties: { id: uuid, code: { type: 'string' }, scope: { type: 'string', enum: ['global', 'product', 'service', 'rent'] }, amount: { type: 'integer' } },
          required: ['id', 'code', 'scope', 'amount'],
        },
      },
      nights: { type: 'array', items: { type: 'object', properties: { date: date(), rate: { type: 'integer' } }, required: ['date', 'rate'] } },
      valid: { const: true },
      payment_schedule: { type: 'array', items: ref('schemas', 'ScheduledPayment'), description: 'When what is due (docs/payments.md#schedules).' },
      display_total: { type: 'integer', description: '`total` in `display_currency` at `exchange_rate`, minor units (docs/payments.md#display-currency).' },
      display_deposit: { type: 'integer', description: '`deposit` in `display_currency`, minor units.' },
    },
    required: ['currency', 'display_currency', 'exchange_rate', 'total', 'deposit', 'line_items', 'coupons', 'valid'],
    example: {
      currency: 'EUR', display_currency: 'EUR', exchange_rate: 1, total: 84000, deposit: 0,
      line_items: [{ item_type: 'rent', fee_type: 'fee', name: 'Rent', quantity: 7, amount: 84000, taxes: [] }],
      coupons: [], nights: [{ date: '2025-07-08', rate: 12000 }], valid: true,
    },
  },
  ScheduledPayment: {
    type: 'object',
    properties: {
      amount: { type: 'integer', description: 'Minor units of the booking currency.' },
      due_date: date(),
      moment: { type: 'object', properties: { type: { type: 'string', enum: ['check-in', 'checkout', 'confirmation', 'on-site', 'request'] }, offset: { type: 'integer' } }, required: ['type', 'offset'] },
    },
    required: ['amount', 'due_date', 'moment'],
  },
  BookResult: {
    type: 'object',
    properties: {
      reference: { type: 'string', examples: ['K7M-4QX2'] },
      booking_id: uuid,
      payment_url: { type: ['string', 'null'], description: 'A Stripe Checkout link for the first payment; null when the organization takes payments manually.' },
      payment_schedule: { type: 'array', items: ref('schemas', 'ScheduledPayment'), description: 'The pending payments written with the booking.' },
    },
    required: ['reference', 'booking_id', 'payment_url'],
    example: { reference: 'K7M-4QX2', booking_id: '9d2e4a10-6c3b-4f7e-8a51-0b6d2c9e7f14', payment_url: null },
  },
  ProductAvailability: {
    type: 'object',
    properties: {
      product_id: uuid,
      intervals: {
        type: 'array',
        description: 'Consecutive dates with the same status, half-open `[start, end)`.',
        items: {
          type: 'object',
          properties: { start: date(), end: date(), status: { type: 'string', enum: STATUS } },
          required: ['start', 'end', 'status'],
        },
      },
      days: {
        type: 'array',
        description: 'With `include=days`: one entry per date.',
        items: {
          type: 'object',
          properties: {
            date: date(),
            status: { type: 'string', enum: STATUS },
            check_in: { type: 'boolean' },
            checkout: { type: 'boolean' },
            min_duration: { type: ['integer', 'null'] },
            max_duration: { type: ['integer', 'null'] },
            rate: { type: ['integer', 'null'], description: 'Base nightly rate for one guest, minor units.' },
          },
          required: ['date', 'status', 'check_in', 'checkout', 'min_duration', 'max_duration', 'rate'],
        },
      },
    },
    required: ['product_id', 'intervals'],
    example: {
      product_id: EXAMPLE_PRODUCT,
      intervals: [{ start: '2025-07-01', end: '2025-07-08', status: 'available' }, { start: '2025-07-08', end: '2025-07-15', status: 'unavailable' }],
    },
  },
  SearchRequest: {
    type: 'object',
    properties: {
      interval: ref('schemas', 'Interval'),
      occupancy: ref('schemas', 'Occupancy'),
      option_ids: { type: 'array', items: uuid, description: 'attribute_options every matching product must have.' },
      ...showOptions,
    },
    example: { interval: { start: '2025-07-08', end: '2025-07-15' }, occupancy: { [EXAMPLE_GROUP]: 2 } },
  },
  SearchResult: {
    type: 'object',
    properties: {
      productId: uuid,
      match: { type: 'boolean' },
      occupancyMatches: { type: 'boolean' },
      optionsMatch: { type: 'boolean' },
      availability: { type: ['string', 'null'], enum: [...STATUS, null], description: 'Null without an interval.' },
      price: {
        anyOf: [{ type: 'object', properties: { min: { type: 'integer' }, max: { type: 'integer' } }, required: ['min', 'max'] }, { type: 'null' }],
      },
    },
    required: ['productId', 'match', 'occupancyMatches', 'optionsMatch', 'availability', 'price'],
  },
  CartItem: {
    type: 'object',
    properties: { id: { type: ['string', 'integer'], description: 'Your id for the item, unique in the cart.' }, ...stayProperties },
    required: ['id', 'product_id', 'interval'],
  },
  Cart: {
    type: 'object',
    properties: {
      coupon_codes: { type: 'array', items: { type: 'string' } },
      items: { type: 'array', items: ref('schemas', 'CartItem'), minItems: 1, maxItems: 50 },
    },
    required: ['items'],
  },
  CartValidation: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      valid: { type: 'boolean' },
      availabilityMatch: { type: 'boolean' },
      occupancyMatch: { type: 'boolean' },
      errors: {
        type: 'array',
        items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: ['string', 'null'] } } },
      },
    },
    required: ['id', 'valid', 'availabilityMatch', 'occupancyMatch'],
  },
  CreateProductRequest: {
    type: 'object',
    description: 'Any client-settable column of `products`; server-owned or unknown fields are a 400.',
    properties: {
      name: { anyOf: [{ type: 'string' }, ref('schemas', 'MultiLanguageString')] },
      rent_period: { type: 'string', enum: ['nightly', 'daily'] },
      timezone: { type: 'string', description: 'IANA time zone.', examples: ['Europe/Amsterdam'] },
      currency: { type: 'string', pattern: '^[A-Z]{3}$', default: 'EUR' },
      interaction: { type: 'string', enum: ['request', 'book'], default: 'request' },
      description: { anyOf: [{ type: 'string' }, ref('schemas', 'MultiLanguageString')] },
    },
    required: ['name', 'rent_period', 'timezone'],
    additionalProperties: true,
    example: { name: 'Beach house', rent_period: 'nightly', timezone: 'Europe/Lisbon', currency: 'EUR', interaction: 'book' },
  },
};

const errors = (...names: string[]) => Object.fromEntries(names.map((name) => [STATUS_OF[name], ref('responses', name)]));
const STATUS_OF: Record<string, string> = {
  BadRequest: '400', Unauthorized: '401', Forbidden: '403', NotFound: '404', Conflict: '409', UnprocessableContent: '422',
};
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const tags = ['booking flow'];
const idempotent = ref('parameters', 'Idempotency-Key');
const replayed = { 'Idempotent-Replayed': { description: '`true` when this is the stored response of an earlier request with the same key.', schema: { type: 'string' } } };

export const bookingPaths: Record<string, JsonSchema> = {
  '/availability': {
    get: {
      tags, operationId: 'availability', summary: 'Availability of products per date',
      description: 'Scope `read` (or `bookings:read`).',
      parameters: [
        { name: 'product_ids', in: 'query', description: 'Comma-separated product ids (`product_id` is accepted too); all products when absent.', schema: { type: 'string' } },
        { name: 'start', in: 'query', description: 'First date (default today).', schema: date() },
        { name: 'end', in: 'query', description: 'End date, exclusive (default today + 365 days).', schema: date() },
        { name: 'perform_sync', in: 'query', schema: { type: 'boolean', default: false } },
        ...Object.entries(showOptions).map(([name, schema]) => ({ name, in: 'query', schema })),
        { name: 'include', in: 'query', description: '`days` adds the per-date details.', schema: { type: 'string', enum: ['days'] } },
      ],
      responses: {
        200: { description: 'One entry per product.', content: json({ type: 'array', items: ref('schemas', 'ProductAvailability') }) },
        ...errors('BadRequest', 'Unauthorized', 'Forbidden'),
      },
    },
  },
  '/search': {
    post: {
      tags, operationId: 'search', summary: 'Search products for a stay',
      description: 'Every product of the organization against an optional stay, occupancy and attribute options. Scope `read`.',
      requestBody: { required: false, content: json(ref('schemas', 'SearchRequest')) },
      responses: {
        200: { description: 'One entry per product.', content: json({ type: 'array', items: ref('schemas', 'SearchResult') }) },
        ...errors('BadRequest', 'Unauthorized', 'Forbidden'),
      },
    },
  },
  '/quote': {
    post: {
      tags, operationId: 'quote', summary: 'Price a stay without booking it',
      description: 'The same validation and price as `/book`, nothing written. Scope `read`.',
      requestBody: { required: true, content: json(ref('schemas', 'BookingRequest')) },
      responses: {
        200: { description: 'The price.', content: json(ref('schemas', 'Quote')) },
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'UnprocessableContent'),
      },
    },
  },
  '/book': {
    post: {
      tags, operationId: 'book', summary: 'Book a stay',
      description: 'Validates and prices the stay again and writes the booking, its calendar event, line items and details in one transaction. Scope `bookings:write`. '
        + 'With a publishable key, while the organization has booking terms, the guest must accept them and the unit\'s cancellation policy: `"accept_terms": true`, else 422 SK649 (docs/booking.md#booking-terms).',
      parameters: [idempotent],
      requestBody: { required: true, content: json(ref('schemas', 'BookingRequest')) },
      responses: {
        201: { description: 'Booked.', headers: replayed, content: json(ref('schemas', 'BookResult')) },
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'UnprocessableContent'),
      },
    },
  },
  '/cart-validate': {
    post: {
      tags, operationId: 'cart_validate', summary: 'Validate several stays',
      description: 'Each item as `/book` would see it (earlier items of the cart count). Scope `read`.',
      requestBody: {
        required: true,
        content: json({ allOf: [ref('schemas', 'Cart')], properties: bookingOptions }),
      },
      responses: {
        200: { description: 'One entry per item.', content: json({ type: 'array', items: ref('schemas', 'CartValidation') }) },
        ...errors('BadRequest', 'Unauthorized', 'Forbidden'),
      },
    },
  },
  '/cart-checkout': {
    post: {
      tags, operationId: 'cart_checkout', summary: 'Book several stays, all or nothing',
      description: 'Scope `bookings:write`. With a publishable key, while the organization has booking terms, `"accept_terms": true` beside the cart, else 422 SK649 (docs/booking.md#booking-terms).',
      parameters: [idempotent],
      requestBody: {
        required: true,
        content: json({ type: 'object', properties: { cart: ref('schemas', 'Cart'), ...bookingOptions }, required: ['cart'] }),
      },
      responses: {
        201: {
          description: 'Every item booked.',
          headers: replayed,
          content: json({
            type: 'object',
            properties: {
              items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, reference: { type: 'string' }, booking_id: uuid, payment_url: { type: ['string', 'null'], description: 'A Stripe Checkout link for this booking\'s first payment (with Stripe set up).' } }, required: ['id', 'reference', 'booking_id'] } },
              payment_url: { type: ['string', 'null'], description: 'The item\'s link when the cart is one booking; null for several (each item has its own) or manual payments.' },
            },
            required: ['items', 'payment_url'],
          }),
        },
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'UnprocessableContent'),
      },
    },
  },
  '/import-booking': {
    post: {
      tags, operationId: 'import_booking', summary: 'Record a reservation sold on another channel',
      description: 'Stored with the channel\'s own price lines (no re-pricing, no stay rules) but held to the no-overlap rule (409 SK610 names the stay it meets). Idempotent on (channel, external_id): a repeat updates the same booking or, unchanged, does nothing (docs/booking.md#imported-reservations). Scope `booking_imports:write`.',
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          properties: {
            channel: { type: 'string', pattern: '^[a-z0-9][a-z0-9_.-]{0,63}$', examples: ['airbnb'] }, external_id: { type: 'string', maxLength: 255 },
            product_id: uuid, interval: ref('schemas', 'Interval'), status: { type: 'string', enum: ['CONFIRMED', 'TENTATIVE', 'CANCELLED'], default: 'CONFIRMED' },
            occupancy: ref('schemas', 'Occupancy'), currency: { type: 'string', pattern: '^[A-Z]{3}$' }, language: { type: 'string' },
            guest: bookingOptions.contact!,
            price_lines: {
              type: 'array', maxItems: 200,
              items: {
                type: 'object',
                properties: {
                  name: { type: 'string' }, amount: { type: 'integer' }, quantity: { type: 'integer', default: 1 },
                  item_type: { type: 'string', enum: ['rent', 'adjustment', 'service', 'coupon', 'tax'], default: 'rent' },
                  fee_type: { type: 'string', enum: ['fee', 'deposit'], default: 'fee' },
                },
                required: ['name', 'amount'],
                additionalProperties: false,
              },
            },
          },
          required: ['channel', 'external_id', 'product_id', 'interval'],
          additionalProperties: false,
        }),
      },
      responses: {
        ...Object.fromEntries([['201', 'Created.'], ['200', 'Updated, or unchanged.']].map(([status, description]) => [status, {
          description,
          content: json({
            type: 'object',
            properties: { booking_id: uuid, reference: { type: 'string' }, created: { type: 'boolean' }, unchanged: { type: 'boolean' }, total: { type: 'integer' } },
            required: ['booking_id', 'reference', 'created', 'unchanged', 'total'],
          }),
        }])),
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict'),
      },
    },
  },
  '/booking-change': {
    post: {
      tags, operationId: 'booking_change', summary: 'Change a booking (dates, unit, occupancy, extras, coupons)',
      description: 'Re-checks every rule of `/book` and re-prices with the code of `/quote`, and re-splits the payments still to pay over the new stay\'s schedule; `dry_run` returns the new quote and the delta without changing anything (docs/booking.md#changing-a-booking). Scope `bookings:write`.',
      parameters: [idempotent],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          properties: {
            booking_id: uuid, dry_run: { type: 'boolean', default: false }, product_id: uuid, interval: ref('schemas', 'Interval'),
            occupancy: ref('schemas', 'Occupancy'), form_values: stayProperties.form_values!, coupon_codes: { type: 'array', items: { type: 'string' } },
          },
          required: ['booking_id'],
          additionalProperties: false,
        }),
      },
      responses: {
        200: {
          description: 'The new quote and what changed (written unless `dry_run`).',
          headers: replayed,
          content: json({
            type: 'object',
            properties: {
              booking_id: uuid, reference: { type: 'string' }, dry_run: { type: 'boolean' },
              changes: { type: 'object', additionalProperties: { type: 'object', properties: { old: {}, new: {} } } },
              previous_total: { type: 'integer' }, total: { type: 'integer' }, delta: { type: 'integer' }, quote: ref('schemas', 'Quote'),
              payments: {
                type: 'object',
                description: 'After a change (not a dry run), for a caller who may read payments: what was paid (less refunds), what is still to pay over the re-split schedule, and what was paid beyond the new total (docs/payments.md#when-a-stay-changes).',
                properties: { paid: { type: 'integer' }, to_pay: { type: 'integer' }, refund_due: { type: 'integer' } },
                required: ['paid', 'to_pay', 'refund_due'],
              },
            },
            required: ['booking_id', 'reference', 'dry_run', 'changes', 'previous_total', 'total', 'delta', 'quote'],
          }),
        },
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'UnprocessableContent'),
      },
    },
  },
  '/booking-cancel': {
    post: {
      tags, operationId: 'booking_cancel', summary: 'Cancel a booking, saying why',
      description: 'Moves the booking\'s calendar events to CANCELLED; the database records who cancelled and why, releases the coupon uses, cancels the payments still to pay and settles what was paid: refunds by the unit\'s cancellation policy (or `refund`), and a credit invoice for an issued invoice (docs/booking.md#cancelling, docs/payments.md#cancellations). A cancelled booking is answered as it is. Scope `bookings:write`; `settlement` is shown with `payments:read`.',
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          properties: {
            booking_id: uuid, reason: { type: 'string', maxLength: 2000 },
            refund: { type: 'string', enum: ['policy', 'full', 'none'], default: 'policy', description: 'What of what was paid is refunded: as the unit\'s cancellation_policy says, all of it, or nothing.' },
          },
          required: ['booking_id'], additionalProperties: false,
        }),
      },
      responses: {
        200: {
          description: 'The booking, cancelled.',
          content: json({
            type: 'object',
            properties: {
              booking_id: uuid, reference: { type: 'string' }, cancelled_at: { type: 'string', format: 'date-time' },
              cancelled_by: { type: 'string', examples: ['api_key:4k2m9x7q1b3c'] }, cancellation_reason: { type: ['string', 'null'] },
              released_coupon_uses: { type: 'integer' },
              settlement: {
                type: 'object', description: 'How this cancellation settled what was paid (with payments:read).',
                properties: {
                  refund_percentage: { type: 'integer' }, days_before_arrival: { type: 'integer' }, paid: { type: 'integer' },
                  fee: { type: 'integer', description: 'Kept of what was paid.' }, refund: { type: 'integer' },
                  credit_invoice_id: { type: ['string', 'null'], format: 'uuid' },
                },
              },
            },
            required: ['booking_id', 'reference', 'cancelled_at', 'cancelled_by', 'cancellation_reason', 'released_coupon_uses'],
          }),
        },
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'NotFound'),
      },
    },
  },
  '/create-product': {
    post: {
      tags, operationId: 'create_product', summary: 'Create a product',
      description: 'The documented way to add a unit (`POST /products` is not offered). Scope `products:write`.',
      parameters: [idempotent],
      requestBody: { required: true, content: json(ref('schemas', 'CreateProductRequest')) },
      responses: {
        201: { description: 'The product row.', headers: replayed, content: json(ref('schemas', 'products')) },
        ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'Conflict', 'UnprocessableContent'),
      },
    },
  },
};
