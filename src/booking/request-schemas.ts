/**
 * What the booking flow's requests may hold, once: the bodies and the availability query as TypeBox schemas. They
 * validate (a shape error is a 400 SK601 naming the field, src/routing/route-schema.ts), type the handlers
 * (`Static<typeof BookingBody>`) and are the OpenAPI document's request schemas. What needs the database or more
 * than one field (a capacity group, an end before its start, unique cart ids, an IANA zone) is checked by the code.
 * Optional fields may be sent as null, meaning "not given", as they always could.
 */
import Type, { type Static, type TSchema } from 'typebox';
import { component, orNull, sharedComponent } from '../routing/schema-component.js';
import { FEE_TYPES, ITEM_TYPES } from './answer-schemas.js';

const EXAMPLE_PRODUCT = '3f2a6c1e-8b7d-4c55-9a0e-2d4b6f8a1c3e';
const EXAMPLE_GROUP = '0b8c2f9e-2b1a-4f6e-9d41-6a0c1e7b5d23';
const UUID_TEXT = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

export const uuid = (options: Record<string, unknown> = {}) => Type.String({ format: 'uuid', ...options });
export const date = (options: Record<string, unknown> = {}) => Type.String({ format: 'date', ...options });
/** An optional field that may be null ("not given"). */
const optional = <T extends TSchema>(schema: T) => Type.Optional(orNull(schema));
/** A closed set of strings. */
export const oneOf = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const Interval = component('Interval', Type.Object({ start: date(), end: date() }, {
  additionalProperties: false,
  description: 'Dates in the product\'s time zone. Nightly products: `end` is the checkout date (nights `[start, end)`); daily products: `end` is the last rented day, inclusive.',
  example: { start: '2025-07-08', end: '2025-07-15' },
}));

/** Guests per capacity group; a key that is no capacity group of the organization is a 400 SK603 (checked by the code). */
export const Occupancy = sharedComponent('Occupancy', Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: 10_000 })));

export const FormValues = Type.Unsafe<Record<string, string | number | boolean | null>>({
  type: 'object',
  description: 'Booking-form values and extras: service id → value (string, number, boolean or null).',
  propertyNames: { format: 'uuid' },
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'], expected: 'a string, number, boolean or null' },
});

export const CouponCodes = Type.Array(Type.String({ maxLength: 64, pattern: '\\S', expected: 'a coupon code (at most 64 characters)' }), {
  description: 'Matched case-insensitively.',
});

const contactField = () => optional(Type.String({ maxLength: 320 }));
export const Contact = Type.Object({
  first_name: contactField(), last_name: contactField(),
  email: optional(Type.Union([Type.String({ format: 'email', maxLength: 320 }), Type.Literal('')])),
  phone: contactField(),
}, { additionalProperties: false, description: 'The guest; creates or reuses a `contacts` row.' });

/** The stay of /quote, /book and each cart item. */
const stayFields = {
  product_id: uuid(),
  interval: Interval,
  occupancy: optional(Occupancy),
  form_values: optional(FormValues),
};

export const CURRENCY_PATTERN = '^[A-Z]{3}$';
export const LANGUAGE_PATTERN = '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$';
const currency = (options: Record<string, unknown> = {}) =>
  Type.String({ pattern: CURRENCY_PATTERN, expected: 'an ISO 4217 code like EUR', ...options });
const language = (options: Record<string, unknown> = {}) =>
  Type.String({ pattern: LANGUAGE_PATTERN, maxLength: 2048, expected: 'a language code like en or nl', examples: ['en', 'nl'], ...options });

/** The options of /book, /quote and a cart. */
const optionFields = {
  currency: optional(currency({ description: "Must be the product's currency when given." })),
  language: optional(language({ default: 'en' })),
  silent: optional(Type.Boolean({ default: false, description: 'Do not send the confirmation email. Not with a publishable key (403 SK646).' })),
  accept_terms: optional(Type.Boolean({
    default: false,
    description: 'The guest accepted the organization\'s booking terms (settings.booking_terms) and the unit\'s cancellation policy: '
      + 'the booking records when (bookings.terms_accepted_at). Required with a publishable key while the organization has booking '
      + 'terms (422 SK649 otherwise, for /book and /cart-checkout; /cart-validate reports it per item); a secret key need not send it.',
  })),
  redirect_url: optional(Type.String({ maxLength: 2048 })),
  contact: optional(Contact),
  site_id: optional(uuid({ description: 'The site the booking came through (one of the organization\'s; 404 SK640 otherwise).' })),
  widget_id: optional(uuid({ description: 'The widget the booking came through (one of the organization\'s; 404 SK641 otherwise).' })),
};
export type BookingOptionsBody = Static<Type.TObject<typeof optionFields>>;

export const BookingBody = component('BookingRequest', Type.Object({
  ...stayFields,
  coupon_codes: optional(CouponCodes),
  ...optionFields,
}, {
  additionalProperties: false,
  example: {
    product_id: EXAMPLE_PRODUCT, interval: { start: '2025-07-08', end: '2025-07-15' }, occupancy: { [EXAMPLE_GROUP]: 2 },
    coupon_codes: ['SUMMER10'], contact: { first_name: 'Ana', last_name: 'Silva', email: 'ana@example.com' },
  },
}));
export type BookingBody = Static<typeof BookingBody>;

export const MAX_CART_ITEMS = 50;
export const CartItem = component('CartItem', Type.Object({
  id: Type.Union([Type.String(), Type.Number()], { description: 'Your id for the item, unique in the cart.' }),
  ...stayFields,
}, { additionalProperties: false }));
export type CartItemBody = Static<typeof CartItem>;

const cartFields = {
  items: Type.Array(CartItem, { minItems: 1, maxItems: MAX_CART_ITEMS }),
  coupon_codes: optional(CouponCodes),
};
export const Cart = component('Cart', Type.Object(cartFields, { additionalProperties: false }));

/** /cart-validate: the cart's fields and the booking options side by side. */
export const CartValidateBody = Type.Object({ ...cartFields, ...optionFields }, { additionalProperties: false });
export type CartValidateBody = Static<typeof CartValidateBody>;

/** /cart-checkout: the cart under `cart`, the booking options beside it. */
export const CartCheckoutBody = Type.Object({ cart: Cart, ...optionFields }, { additionalProperties: false });
export type CartCheckoutBody = Static<typeof CartCheckoutBody>;

const showFields = {
  show_booked_as: Type.Optional(oneOf(['booked', 'unavailable'] as const, { default: 'unavailable' })),
  show_closed_as: Type.Optional(oneOf(['closed', 'unavailable'] as const, { default: 'unavailable' })),
  show_pending_as: Type.Optional(oneOf(['CANCELLED', 'TENTATIVE', 'CONFIRMED'] as const, {
    default: 'TENTATIVE',
    description: 'How dates held by TENTATIVE bookings are shown: free (CANCELLED), `tentative`, or as booked (CONFIRMED).',
  })),
};

export const SearchBody = component('SearchRequest', Type.Object({
  interval: optional(Interval),
  occupancy: optional(Occupancy),
  option_ids: optional(Type.Array(uuid(), { description: 'attribute_options every matching product must have.' })),
  ...showFields,
}, {
  additionalProperties: false,
  example: { interval: { start: '2025-07-08', end: '2025-07-15' }, occupancy: { [EXAMPLE_GROUP]: 2 } },
}));
export type SearchBody = Static<typeof SearchBody>;

const productIds = (description: string) => Type.String({
  pattern: `^[\\s,]*(?:${UUID_TEXT}\\s*(?:,[\\s,]*|$))*$`, expected: 'a comma-separated list of uuids', description,
});
export const AvailabilityParameters = Type.Object({
  product_ids: Type.Optional(productIds('Comma-separated product ids; all products when absent.')),
  product_id: Type.Optional(productIds('The same as `product_ids`.')),
  start: Type.Optional(date({ description: 'First date (default today).' })),
  end: Type.Optional(date({ description: 'End date, exclusive (default today + 365 days).' })),
  perform_sync: Type.Optional(Type.Boolean({ default: false, description: 'Sync the units\' external calendars first (a bounded wait; docs/ical.md).' })),
  ...showFields,
  include: Type.Optional(oneOf(['days', ''] as const, { description: '`days` adds the per-date details.' })),
}, { additionalProperties: false });
export type AvailabilityParameters = Static<typeof AvailabilityParameters>;

/** A text in several languages, or one string (stored as `{"default": …}`). */
const multiLanguage = (description: string) => Type.Union([
  Type.String({ minLength: 1, pattern: '\\S', expected: 'a non-empty string' }),
  Type.Object({ default: Type.String({ minLength: 1, pattern: '\\S', expected: 'a non-empty string' }) }, { additionalProperties: Type.String() }),
], { description });
/** An optional text in several languages: may be empty (the columns' default is `{"default": ""}`). */
const multiLanguageText = (description: string) => Type.Union([
  Type.String(), Type.Object({ default: Type.String() }, { additionalProperties: Type.String() }),
], { description });

/** Every client-settable column of `products` (staykit_internal.create_product writes them; the database checks their values). */
const anyColumn = (description?: string) => Type.Unknown(description ? { description } : {});
export const CreateProductBody = component('CreateProductRequest', Type.Object({
  name: multiLanguage('A string, or {"default": "…", "<language>": "…"}.'),
  rent_period: oneOf(['nightly', 'daily'] as const),
  timezone: Type.String({ description: 'IANA time zone.', examples: ['Europe/Amsterdam'] }),
  currency: Type.Optional(currency({ default: 'EUR' })),
  interaction: Type.Optional(oneOf(['request', 'book'] as const, { default: 'request' })),
  description: Type.Optional(multiLanguageText('A string or a multi-language text.')),
  confirmation_message: Type.Optional(multiLanguageText('A string or a multi-language text.')),
}, {
  // The other settable columns are the database's to say (staykit_internal.api_access, migration 0221): a column added
  // to products is settable here with no edit, and create_product refuses any other field, 400 SK601 naming it.
  additionalProperties: anyColumn('Any other column of `products` the API may set on create (docs/schema.md#who-may-read-and-write-what).'),
  description: 'The unit\'s columns: `name`, `rent_period` and `timezone` required, any other settable column of `products` optional; '
    + 'a server-owned or unknown field is a 400 naming it.',
  example: { name: 'Beach house', rent_period: 'nightly', timezone: 'Europe/Lisbon', currency: 'EUR', interaction: 'book' },
}));
export type CreateProductBody = Static<typeof CreateProductBody>;

export const REFUND_MODES = ['policy', 'full', 'none'] as const;
export const MAX_REASON_LENGTH = 2000;
export const CancelBody = Type.Object({
  booking_id: uuid(),
  reason: optional(Type.String({ maxLength: MAX_REASON_LENGTH })),
  refund: optional(oneOf(REFUND_MODES, {
    default: 'policy', description: 'What of what was paid is refunded: as the unit\'s cancellation_policy says, all of it, or nothing.',
  })),
}, { additionalProperties: false });
export type CancelBody = Static<typeof CancelBody>;
export type RefundMode = (typeof REFUND_MODES)[number];

export const ChangeBody = Type.Object({
  booking_id: uuid(),
  dry_run: Type.Optional(Type.Boolean({ default: false })),
  product_id: Type.Optional(uuid()),
  interval: Type.Optional(Interval),
  occupancy: Type.Optional(Occupancy),
  form_values: Type.Optional(FormValues),
  coupon_codes: Type.Optional(CouponCodes),
}, { additionalProperties: false, description: 'What is not sent stays as booked; the options of /book (currency, contact, …) are the booking\'s and do not change.' });
export type ChangeBody = Static<typeof ChangeBody>;

export const IMPORT_STATUSES = ['CONFIRMED', 'TENTATIVE', 'CANCELLED'] as const;
const text = (max: number, options: Record<string, unknown> = {}) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '\\S', expected: `a non-empty string of at most ${max} characters`, ...options });
const importGuestField = () => optional(text(320));
export const PriceLine = Type.Object({
  name: text(200),
  amount: Type.Integer({ description: 'Minor units.', expected: 'an integer (minor units)' }),
  quantity: Type.Optional(Type.Integer({ minimum: 0, default: 1 })),
  item_type: Type.Optional(oneOf(ITEM_TYPES, { default: 'rent' })),
  fee_type: Type.Optional(oneOf(FEE_TYPES, { default: 'fee' })),
}, { additionalProperties: false });
export type PriceLineBody = Static<typeof PriceLine>;

export const ImportBody = Type.Object({
  channel: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$', examples: ['airbnb'],
    expected: 'a name like airbnb or booking.com (letters, digits, _ . -)', description: 'Stored in lower case.',
  }),
  external_id: text(255),
  product_id: uuid(),
  interval: Interval,
  status: Type.Optional(oneOf(IMPORT_STATUSES, { default: 'CONFIRMED' })),
  occupancy: optional(Occupancy),
  currency: optional(currency()),
  language: optional(language({ default: 'en' })),
  guest: optional(Type.Object({
    first_name: importGuestField(), last_name: importGuestField(),
    email: optional(Type.String({ format: 'email', maxLength: 320 })), phone: importGuestField(),
  }, { additionalProperties: false })),
  price_lines: Type.Optional(Type.Array(PriceLine, { maxItems: 200 })),
}, { additionalProperties: false });
export type ImportBody = Static<typeof ImportBody>;
