/**
 * The booking flow's HTTP routes (docs/booking.md): availability, search, quote, book, cart validate and checkout, and
 * create-product. Each is its definition (flow-definitions.ts: scope, schemas, documentation) and its own steps,
 * run by flowRoute: authorize → validate → parse → one tenant transaction (rolled back for reads) → respond. Writes
 * and their Idempotency-Key share that transaction.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/types.js';
import type { Authorize } from '../auth/authorize.js';
import { isPublishableKey } from '../auth/publishable-key-format.js';
import { availability, parseAvailabilityQuery } from './availability.js';
import { book, type BookOptions } from './book.js';
import { checkoutCart, toCartItems, validateCart } from './cart.js';
import { createProduct, toProductFields } from './create-product.js';
import { toBookingApiError } from './flow-errors.js';
import { flowRoute } from './flow-route.js';
import { FLOW_TRANSACTION } from './flow-transaction.js';
import {
  availabilityRoute, bookRoute, cartCheckoutRoute, cartValidateRoute, createProductRoute, quoteRoute, searchRoute,
} from './flow-definitions.js';
import { toBookingInput } from './input.js';
import { prepareBooking } from './prepare.js';
import { parseSearchInput, search } from './search.js';
import type { BookResult, CartCheckoutResult } from './answer-schemas.js';
import { syncProductCalendars } from '../ical/worker.js';
import { quoteWithSchedule } from '../money/booking-payments.js';
import { addCartPaymentUrls, bookingPaymentUrl, type PaymentLinkDeps } from '../money/payment-links.js';

export interface BookingRouteDeps {
  db: Database;
  authorize: Authorize;
  /** The clock behind "today" in each product's time zone; tests pin it. */
  now?: () => Date;
  /** Outbound rules for `perform_sync` (private targets are refused unless allowed). */
  outboundAllowPrivate?: boolean;
  /** Online payments (src/money): the `payment_url` of a new booking; without it payments are manual. */
  payments?: PaymentLinkDeps;
}

/** How long `/availability?perform_sync=true` waits for the calendars' sync at most. */
const PERFORM_SYNC_TIMEOUT_MS = 5_000;

/**
 * What a booking by the public (a publishable key: the widget, the booking site) must carry that a secret key's
 * server need not: the guest's name and e-mail address, and the guest's acceptance of the booking terms.
 */
function publicBookingOptions(keyId: string): BookOptions {
  const publicBooking = isPublishableKey(keyId);
  return { requireGuestContact: publicBooking, requireTermsAcceptance: publicBooking };
}

/** Registered under the API's `/v1` prefix. */
export const bookingRoutes: FastifyPluginAsync<BookingRouteDeps> = async (app, deps) => {
  const flow = { db: deps.db, authorize: deps.authorize, now: deps.now ?? (() => new Date()) };
  const { payments } = deps;

  flowRoute(app, flow, {
    route: availabilityRoute, transaction: FLOW_TRANSACTION, writes: false,
    parse: (request) => parseAvailabilityQuery(request.query),
    before: async (query, { principal }) => {
      if (!query.performSync || !query.productIds) return;
      // Before the request's transaction: the sync writes in transactions of its own (PGlite has one connection).
      const options = { timeoutMs: PERFORM_SYNC_TIMEOUT_MS, allowPrivate: deps.outboundAllowPrivate ?? false, organizationId: principal.organizationId };
      await Promise.all(query.productIds.map((id) => syncProductCalendars(deps.db, id, options)));
    },
    work: (tx, query, { now }) => availability(tx, query, now),
  });

  flowRoute(app, flow, {
    route: searchRoute, transaction: FLOW_TRANSACTION, writes: false,
    parse: (request) => parseSearchInput(request.body),
    work: (tx, input, { now }) => search(tx, input, now),
  });

  flowRoute(app, flow, {
    route: quoteRoute, transaction: FLOW_TRANSACTION, writes: false,
    parse: (request) => toBookingInput(request.body),
    work: async (tx, input, { now }) => quoteWithSchedule(tx, await prepareBooking(tx, input, now), now),
  });

  flowRoute(app, flow, {
    route: bookRoute, transaction: FLOW_TRANSACTION, writes: true, idempotent: 'book',
    parse: (request) => toBookingInput(request.body),
    work: (tx, input, { now, principal }) => book(tx, input, now, publicBookingOptions(principal.keyId)),
    // After the commit: a Stripe link for the first payment (never part of the stored idempotent answer).
    after: async (response, { principal, request }) => {
      const booked = response.body as BookResult;
      if (!payments || response.status !== 201 || !booked.booking_id) return;
      booked.payment_url = await bookingPaymentUrl(payments, principal.organizationId, booked.booking_id, (error) => request.log.warn({ err: error }, 'payment link'));
    },
  });

  flowRoute(app, flow, {
    route: cartValidateRoute, transaction: FLOW_TRANSACTION, writes: false,
    parse: (request) => toCartItems(request.body, request.body, ''),
    work: (tx, items, { now }) => validateCart(tx, items, now, toBookingApiError),
  });

  flowRoute(app, flow, {
    route: cartCheckoutRoute, transaction: FLOW_TRANSACTION, writes: true, idempotent: 'cart-checkout',
    parse: (request) => toCartItems(request.body.cart, request.body, 'cart.'),
    work: (tx, items, { now, principal }) => checkoutCart(tx, items, now, toBookingApiError, publicBookingOptions(principal.keyId)),
    // After the commit, as for /book: Stripe links for the bookings' first payments.
    after: async (response, { principal, request }) => {
      if (!payments || response.status !== 201) return;
      await addCartPaymentUrls(payments, principal.organizationId, response.body as CartCheckoutResult, (error) => request.log.warn({ err: error }, 'payment link'));
    },
  });

  flowRoute(app, flow, {
    route: createProductRoute, transaction: FLOW_TRANSACTION, writes: true, idempotent: 'create-product',
    parse: (request) => toProductFields(request.body),
    work: (tx, fields) => createProduct(tx, fields),
  });
};
