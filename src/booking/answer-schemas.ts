/**
 * What the booking flow answers, once: TypeBox schemas that are the OpenAPI document's response schemas (a test
 * validates every real answer against the served document: test/openapi/booking-answers.test.ts) and, through
 * `Static<>`, the TypeScript types of the code that builds the answers and of the widget that reads them
 * (web/widget/src/types.ts). Depends on TypeBox only, so browser code can import its types.
 */
import Type, { type Static } from 'typebox';
import { component, documentRef } from '../routing/schema-component.js';

const uuid = () => Type.String({ format: 'uuid' });
const date = () => Type.String({ format: 'date' });
const minor = (description = 'Minor units (cents).') => Type.Integer({ description });
/** An answer object: every field it may carry is listed, so an undocumented field fails the answers test. */
const answer = <P extends Type.TProperties>(properties: P, options: Record<string, unknown> = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

export const DAY_STATUSES = ['available', 'tentative', 'unavailable', 'booked', 'reserved', 'closed'] as const;
const dayStatus = () => Type.Unsafe<(typeof DAY_STATUSES)[number]>({ type: 'string', enum: [...DAY_STATUSES] });

export const ITEM_TYPES = ['rent', 'service', 'adjustment', 'coupon', 'tax'] as const;
export const FEE_TYPES = ['fee', 'deposit'] as const;
export const COUPON_SCOPES = ['global', 'product', 'service', 'rent'] as const;
export const MOMENT_TYPES = ['check-in', 'checkout', 'confirmation', 'on-site', 'request'] as const;
const closed = <const T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

export const LineTax = answer({
  tax_id: uuid(), name: Type.String(), percentage: Type.Number(), inclusive: Type.Boolean(), amount: minor(),
});
export type LineTax = Static<typeof LineTax>;

export const LineItem = component('LineItem', answer({
  item_type: closed(ITEM_TYPES),
  fee_type: closed(FEE_TYPES),
  name: Type.String(),
  quantity: Type.Integer(),
  amount: minor(),
  service_id: Type.Optional(uuid()),
  taxes: Type.Array(LineTax),
}));
export type LineItem = Static<typeof LineItem>;

export const QuoteCoupon = answer({ id: uuid(), code: Type.String(), scope: closed(COUPON_SCOPES), amount: minor() });
export type QuoteCoupon = Static<typeof QuoteCoupon>;

export const ScheduledPayment = component('ScheduledPayment', answer({
  amount: minor('Minor units of the booking currency.'),
  due_date: date(),
  moment: answer({ type: closed(MOMENT_TYPES), offset: Type.Integer({ description: 'Days relative to the moment (negative = before).' }) }),
}));
export type ScheduledPayment = Static<typeof ScheduledPayment>;

/** The price as the pricing function makes it (src/booking/pricing.ts). */
const pricedFields = {
  currency: Type.String(),
  display_currency: Type.String(),
  exchange_rate: Type.Number(),
  total: minor('Sum of the `fee` line items, minor units.'),
  deposit: minor('Sum of the `deposit` line items, minor units.'),
  line_items: Type.Array(LineItem),
  coupons: Type.Array(QuoteCoupon),
  nights: Type.Array(answer({ date: date(), rate: Type.Integer() })),
  valid: Type.Literal(true),
};
export const PricedStay = Type.Object(pricedFields);
export type PricedStay = Static<typeof PricedStay>;

/** A stay's price as /quote and /booking-change answer it: in the display currency too, with its payment schedule. */
export const Quote = component('Quote', answer({
  ...pricedFields,
  display_total: minor('`total` in `display_currency` at `exchange_rate`, minor units (docs/payments.md#display-currency).'),
  display_deposit: minor('`deposit` in `display_currency`, minor units.'),
  payment_schedule: Type.Optional(Type.Array(ScheduledPayment, { description: 'When what is due (docs/payments.md#schedules).' })),
}, {
  example: {
    currency: 'EUR', display_currency: 'EUR', exchange_rate: 1, total: 84000, deposit: 0, display_total: 84000, display_deposit: 0,
    line_items: [{ item_type: 'rent', fee_type: 'fee', name: 'Rent', quantity: 7, amount: 84000, taxes: [] }],
    coupons: [], nights: [{ date: '2025-07-08', rate: 12000 }], valid: true, payment_schedule: [],
  },
}));
export type Quote = Static<typeof Quote>;

const paymentUrl = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const BookResult = component('BookResult', answer({
  reference: Type.String({ examples: ['K7M-4QX2'] }),
  booking_id: uuid(),
  payment_url: paymentUrl('A Stripe Checkout link for the first payment; null when the organization takes payments manually.'),
  payment_schedule: Type.Array(ScheduledPayment, { description: 'The pending payments written with the booking.' }),
  guest_url: Type.Optional(Type.String({ description: 'With a publishable key (not on a replay): the guest\'s own page of the booking.' })),
}, { example: { reference: 'K7M-4QX2', booking_id: '9d2e4a10-6c3b-4f7e-8a51-0b6d2c9e7f14', payment_url: null, payment_schedule: [] } }));
export type BookResult = Static<typeof BookResult>;

export const Day = answer({
  date: date(),
  status: dayStatus(),
  check_in: Type.Boolean(),
  checkout: Type.Boolean(),
  min_duration: Type.Union([Type.Integer(), Type.Null()]),
  max_duration: Type.Union([Type.Integer(), Type.Null()]),
  rate: Type.Union([Type.Integer(), Type.Null()], { description: 'Base nightly rate for one guest, minor units.' }),
});
export type Day = Static<typeof Day>;

export const StatusInterval = answer({ start: date(), end: date(), status: dayStatus() });
export type StatusInterval = Static<typeof StatusInterval>;

export const ProductAvailability = component('ProductAvailability', answer({
  product_id: uuid(),
  intervals: Type.Array(StatusInterval, { description: 'Consecutive dates with the same status, half-open `[start, end)`.' }),
  days: Type.Optional(Type.Array(Day, { description: 'With `include=days`: one entry per date.' })),
}, {
  example: {
    product_id: '3f2a6c1e-8b7d-4c55-9a0e-2d4b6f8a1c3e',
    intervals: [{ start: '2025-07-01', end: '2025-07-08', status: 'available' }, { start: '2025-07-08', end: '2025-07-15', status: 'unavailable' }],
  },
}));
export type ProductAvailability = Static<typeof ProductAvailability>;

export const SearchResult = component('SearchResult', answer({
  productId: uuid(),
  match: Type.Boolean(),
  occupancyMatches: Type.Boolean(),
  optionsMatch: Type.Boolean(),
  availability: Type.Union([dayStatus(), Type.Null()], { description: 'Null without an interval.' }),
  price: Type.Union([answer({ min: Type.Integer(), max: Type.Integer() }), Type.Null()]),
}));
export type SearchResult = Static<typeof SearchResult>;

export const ItemError = answer({ code: Type.String(), message: Type.String(), details: Type.Union([Type.String(), Type.Null()]) });
export const CartValidation = component('CartValidation', answer({
  id: Type.String(),
  valid: Type.Boolean(),
  availabilityMatch: Type.Boolean(),
  occupancyMatch: Type.Boolean(),
  errors: Type.Optional(Type.Array(ItemError)),
}));
export type CartValidation = Static<typeof CartValidation>;

export const CheckedOutItem = answer({
  id: Type.String(), reference: Type.String(), booking_id: uuid(),
  payment_url: Type.Optional(paymentUrl('A Stripe Checkout link for this booking\'s first payment (with Stripe set up).')),
});
export const CartCheckoutResult = answer({
  items: Type.Array(CheckedOutItem),
  payment_url: paymentUrl('The item\'s link when the cart is one booking; null for several (each item has its own) or manual payments.'),
});
export type CartCheckoutResult = Static<typeof CartCheckoutResult>;

/** /create-product answers with the product's row, as `GET /products` would. */
export const ProductRow = documentRef('products');

export const ImportResult = answer({
  booking_id: uuid(), reference: Type.String(), created: Type.Boolean(), unchanged: Type.Boolean(), total: minor(),
});
export type ImportResult = Static<typeof ImportResult>;

export const ChangedPayments = answer({ paid: minor(), to_pay: minor(), refund_due: minor() }, {
  description: 'After a change (not a dry run), for a caller who may read payments: what was paid (less refunds), what is still to pay over the re-split schedule, and what was paid beyond the new total (docs/payments.md#when-a-stay-changes).',
});
export type ChangedPayments = Static<typeof ChangedPayments>;

export const ChangeResult = answer({
  booking_id: uuid(),
  reference: Type.String(),
  dry_run: Type.Boolean(),
  changes: Type.Record(Type.String(), answer({ old: Type.Unknown(), new: Type.Unknown() }), { description: 'What differs from the booking as it was: `{field: {old, new}}`.' }),
  previous_total: minor(),
  total: minor(),
  delta: minor(),
  quote: Quote,
  payments: Type.Optional(ChangedPayments),
});
export type ChangeResult = Static<typeof ChangeResult>;

export const Settlement = answer({
  refund_percentage: Type.Integer(), days_before_arrival: Type.Integer(), paid: minor(),
  fee: minor('Kept of what was paid.'), refund: minor(), credit_invoice_id: Type.Union([uuid(), Type.Null()]),
}, { description: 'How this cancellation settled what was paid (with payments:read).' });

export const CancelResult = answer({
  booking_id: uuid(),
  reference: Type.String(),
  cancelled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  cancelled_by: Type.Union([Type.String({ examples: ['api_key:4k2m9x7q1b3c'] }), Type.Null()]),
  cancellation_reason: Type.Union([Type.String(), Type.Null()]),
  released_coupon_uses: Type.Integer(),
  settlement: Type.Optional(Settlement),
});
export type CancelResult = Static<typeof CancelResult>;
