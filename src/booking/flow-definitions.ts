/**
 * The booking flow's routes, each written once (src/routing/route-schema.ts): method, path, scope, what it does, the
 * request and answer schemas. routes.ts and lifecycle-routes.ts register them; src/openapi/booking.ts serves them.
 */
import Type from 'typebox';
import { defineRoute, type RouteAnswer } from '../routing/route-schema.js';
import { invalidInput } from './errors.js';
import {
  AvailabilityParameters, BookingBody, CancelBody, CartCheckoutBody, CartValidateBody, ChangeBody, CreateProductBody, ImportBody, SearchBody,
} from './request-schemas.js';
import {
  BookResult, CancelResult, CartCheckoutResult, CartValidation, ChangeResult, ImportResult, ProductAvailability, ProductRow, Quote,
  SearchResult,
} from './answer-schemas.js';

const tags = ['booking flow'];
/** The booking flow's malformed input, whatever the field: 400 SK601 naming it. */
const invalid = invalidInput;
const idempotencyKey = [{ $ref: '#/components/parameters/Idempotency-Key' }];
const replayed = {
  'Idempotent-Replayed': { description: '`true` when this is the stored response of an earlier request with the same key.', schema: { type: 'string' } },
};
/** The answer of a write that takes an Idempotency-Key. */
const stored = (answer: RouteAnswer): RouteAnswer => ({ ...answer, headers: replayed });

export const availabilityRoute = defineRoute({
  method: 'GET', url: '/availability', tags, operationId: 'availability', summary: 'Availability of products per date',
  description: 'Scope `read` (or `bookings:read`).',
  // `perform_sync=true` imports calendar feeds: a dashboard session needs its CSRF token for it, as for a write.
  scope: { resource: 'bookings', access: 'read', sideEffects: (request) => syncRequested(request.query) },
  query: AvailabilityParameters, invalid,
  responses: { 200: { description: 'One entry per product.', schema: Type.Array(ProductAvailability) } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound'],
});

/** Whether the raw query asks to sync the units' calendars first (read before the query is checked; the last value counts). */
export function syncRequested(query: unknown): boolean {
  const value = (query as Record<string, unknown> | undefined)?.perform_sync;
  return (Array.isArray(value) ? value.at(-1) : value) === 'true';
}

export const searchRoute = defineRoute({
  method: 'POST', url: '/search', tags, operationId: 'search', summary: 'Search products for a stay',
  description: 'Every product of the organization against an optional stay, occupancy and attribute options. Scope `read`.',
  scope: { resource: 'bookings', access: 'read' },
  body: SearchBody, bodyRequired: false, invalid,
  responses: { 200: { description: 'One entry per product.', schema: Type.Array(SearchResult) } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden'],
});

export const quoteRoute = defineRoute({
  method: 'POST', url: '/quote', tags, operationId: 'quote', summary: 'Price a stay without booking it',
  description: 'The same validation and price as `/book`, nothing written. Scope `read`.',
  scope: { resource: 'bookings', access: 'read' },
  body: BookingBody, invalid,
  responses: { 200: { description: 'The price.', schema: Quote } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'UnprocessableContent'],
});

export const bookRoute = defineRoute({
  method: 'POST', url: '/book', tags, operationId: 'book', summary: 'Book a stay',
  description: 'Validates and prices the stay again and writes the booking, its calendar event, line items and details in one transaction. Scope `bookings:write`. '
    + 'With a publishable key, while the organization has booking terms, the guest must accept them and the unit\'s cancellation policy: `"accept_terms": true`, else 422 SK649 (docs/booking.md#booking-terms).',
  scope: { resource: 'bookings', access: 'write' },
  parameters: idempotencyKey, body: BookingBody, invalid,
  responses: { 201: stored({ description: 'Booked.', schema: BookResult }) },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'UnprocessableContent'],
});

export const cartValidateRoute = defineRoute({
  method: 'POST', url: '/cart-validate', tags, operationId: 'cart_validate', summary: 'Validate several stays',
  description: 'Each item as `/book` would see it (earlier items of the cart count). Scope `read`.',
  scope: { resource: 'bookings', access: 'read' },
  body: CartValidateBody, invalid,
  responses: { 200: { description: 'One entry per item.', schema: Type.Array(CartValidation) } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden'],
});

export const cartCheckoutRoute = defineRoute({
  method: 'POST', url: '/cart-checkout', tags, operationId: 'cart_checkout', summary: 'Book several stays, all or nothing',
  description: 'Scope `bookings:write`. With a publishable key, while the organization has booking terms, `"accept_terms": true` beside the cart, else 422 SK649 (docs/booking.md#booking-terms).',
  scope: { resource: 'bookings', access: 'write' },
  parameters: idempotencyKey, body: CartCheckoutBody, invalid,
  responses: { 201: stored({ description: 'Every item booked.', schema: CartCheckoutResult }) },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'UnprocessableContent'],
});

export const createProductRoute = defineRoute({
  method: 'POST', url: '/create-product', tags, operationId: 'create_product', summary: 'Create a product',
  description: 'The documented way to add a unit (`POST /products` is not offered). Scope `products:write`.',
  scope: { resource: 'products', access: 'write' },
  parameters: idempotencyKey, body: CreateProductBody, invalid,
  responses: { 201: stored({ description: 'The product row.', schema: ProductRow }) },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'Conflict', 'UnprocessableContent'],
});

export const importBookingRoute = defineRoute({
  method: 'POST', url: '/import-booking', tags, operationId: 'import_booking', summary: 'Record a reservation sold on another channel',
  description: 'Stored with the channel\'s own price lines (no re-pricing, no stay rules) but held to the no-overlap rule (409 SK610 names the stay it meets). Idempotent on (channel, external_id): a repeat updates the same booking or, unchanged, does nothing (docs/booking.md#imported-reservations). Scope `booking_imports:write`.',
  // Its own scope: a channel manager's key need not be able to book or change bookings.
  scope: { resource: 'booking_imports', access: 'write' },
  body: ImportBody, invalid,
  responses: {
    201: { description: 'Created.', schema: ImportResult },
    200: { description: 'Updated, or unchanged.', schema: ImportResult },
  },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict'],
});

export const bookingChangeRoute = defineRoute({
  method: 'POST', url: '/booking-change', tags, operationId: 'booking_change', summary: 'Change a booking (dates, unit, occupancy, extras, coupons)',
  description: 'Re-checks every rule of `/book` and re-prices with the code of `/quote`, and re-splits the payments still to pay over the new stay\'s schedule; `dry_run` returns the new quote and the delta without changing anything (docs/booking.md#changing-a-booking). Scope `bookings:write`; `payments` is shown with `payments:read`.',
  scope: { resource: 'bookings', access: 'write' },
  parameters: idempotencyKey, body: ChangeBody, invalid,
  responses: { 200: stored({ description: 'The new quote and what changed (written unless `dry_run`).', schema: ChangeResult }) },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'UnprocessableContent'],
});

export const bookingCancelRoute = defineRoute({
  method: 'POST', url: '/booking-cancel', tags, operationId: 'booking_cancel', summary: 'Cancel a booking, saying why',
  description: 'Moves the booking\'s calendar events to CANCELLED; the database records who cancelled and why, releases the coupon uses, cancels the payments still to pay and settles what was paid: refunds by the unit\'s cancellation policy (or `refund`), and a credit invoice for an issued invoice (docs/booking.md#cancelling, docs/payments.md#cancellations). A cancelled booking is answered as it is. Scope `bookings:write`; `settlement` is shown with `payments:read`.',
  scope: { resource: 'bookings', access: 'write' },
  body: CancelBody, invalid,
  responses: { 200: { description: 'The booking, cancelled.', schema: CancelResult } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound'],
});

/** Every route of the booking flow, in the document's order. */
export const BOOKING_FLOW_ROUTES = [
  availabilityRoute, searchRoute, quoteRoute, bookRoute, cartValidateRoute, cartCheckoutRoute, importBookingRoute, bookingChangeRoute,
  bookingCancelRoute, createProductRoute,
] as const;
