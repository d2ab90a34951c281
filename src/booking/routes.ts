/**
 * The booking flow's HTTP routes (docs/booking.md): availability, search, quote, book, cart validate and checkout, and
 * create-product. Each request: authorize (scope) → parse the body into a typed input (400s) → one tenant
 * transaction (RLS as staykit_api) → respond. Writes and their Idempotency-Key share that transaction.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/types.js';
import { ApiError } from '../errors/api-error.js';
import { fromDatabaseError } from '../errors/database-error.js';
import type { Authorize } from '../auth/authorize.js';
import { isPublishableKey } from '../auth/publishable-key-format.js';
import { inTenantTransaction, type TenantTransactionOptions } from '../transaction/tenant-transaction.js';
import { availability, parseAvailabilityQuery, syncRequested } from './availability.js';
import { book, type BookOptions } from './book.js';
import { checkoutCart, parseCart, validateCart } from './cart.js';
import { createProduct, parseProductInput } from './create-product.js';
import { fromBookingWriteError } from './errors.js';
import { parseIdempotencyKey, withIdempotency, type StoredResponse } from './idempotency.js';
import { parseBookingInput, requireObject } from './input.js';
import { prepareBooking, StayRejected } from './prepare.js';
import { parseSearchInput, search } from './search.js';
import { syncProductCalendars } from '../ical/index.js';
import { quoteWithSchedule } from '../money/booking-payments.js';
import { addCartPaymentUrls, bookingPaymentUrl, type CheckedOutCart, type PaymentLinkDeps } from '../money/payment-links.js';

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
 * The tables the booking flow's statements may read as the API role (the database's read-scope policies hide all
 * others), whatever the key's per-resource scopes: the endpoint's own scope — bookings:read, bookings:write or
 * products:write — authorizes the flow, which answers with computed availability, prices and what it created, never
 * with rows of these tables as such. Guests, bookings, organizations, webhooks and the rest stay out of its reach
 * (the booking itself is written by a database function of its own).
 */
export const FLOW_TRANSACTION: TenantTransactionOptions = {
  readable: [
    'products', 'product_configurations', 'product_attribute_options', 'calendar_events', 'capacity_groups',
    'capacity_group_dependencies', 'capacities', 'services', 'service_options', 'product_services', 'taxes',
    'product_taxes', 'coupons', 'coupon_uses', 'coupon_products', 'coupon_services', 'service_payment_moments',
    'price_calendar_entries', 'pricelabs_pricing',
  ],
};

/**
 * What a booking by the public (a publishable key: the widget, the booking site) must carry that a secret key's
 * server need not: the guest's name and e-mail address, and the guest's acceptance of the booking terms.
 */
function publicBookingOptions(keyId: string): BookOptions {
  const publicBooking = isPublishableKey(keyId);
  return { requireGuestContact: publicBooking, requireTermsAcceptance: publicBooking };
}

/** Any error of the booking flow → the ApiError a client sees. */
export function toBookingApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StayRejected) return error.first;
  return fromBookingWriteError(error) ?? fromDatabaseError(error);
}

export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toBookingApiError(error);
  }
}

export function send(reply: FastifyReply, response: StoredResponse): FastifyReply {
  if (response.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(response.status).type('application/json; charset=utf-8').send(JSON.stringify(response.body));
}

/** Registered under the API's `/v1` prefix. */
export const bookingRoutes: FastifyPluginAsync<BookingRouteDeps> = async (app, deps) => {
  const { db, authorize } = deps;
  const now = deps.now ?? (() => new Date());

  app.get('/availability', async (request, reply) => {
    const raw = request.query as Record<string, unknown>;
    const principal = await authorize(request, 'bookings', 'read', { sideEffects: syncRequested(raw) });
    const query = parseAvailabilityQuery(raw);
    const productIds = query.productIds;
    if (query.performSync && productIds) {
      // Before the request's transaction: the sync writes in transactions of its own (PGlite has one connection).
      const options = { timeoutMs: PERFORM_SYNC_TIMEOUT_MS, allowPrivate: deps.outboundAllowPrivate ?? false, organizationId: principal.organizationId };
      await Promise.all(productIds.map((id) => syncProductCalendars(db, id, options)));
    }
    const result = await guarded(() => inTenantTransaction(db, principal, async (tx) => ({
      result: await availability(tx, query, now()), rollback: true,
    }), FLOW_TRANSACTION));
    return reply.send(result);
  });

  app.post('/search', async (request, reply) => {
    const principal = await authorize(request, 'bookings', 'read');
    const input = parseSearchInput(request.body);
    const result = await guarded(() => inTenantTransaction(db, principal, async (tx) => ({
      result: await search(tx, input, now()), rollback: true,
    }), FLOW_TRANSACTION));
    return reply.send(result);
  });

  app.post('/quote', async (request, reply) => {
    const principal = await authorize(request, 'bookings', 'read');
    const input = parseBookingInput(request.body);
    const result = await guarded(() => inTenantTransaction(db, principal, async (tx) => ({
      result: await quoteWithSchedule(tx, await prepareBooking(tx, input, now()), now()), rollback: true,
    }), FLOW_TRANSACTION));
    return reply.send(result);
  });

  app.post('/book', async (request: FastifyRequest, reply) => {
    const principal = await authorize(request, 'bookings', 'write');
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    const input = parseBookingInput(request.body);
    const response = await guarded(() => inTenantTransaction(db, principal, async (tx) => ({
      result: await withIdempotency(tx, principal.organizationId, key, 'book', request.body, async () => ({
        status: 201, body: await book(tx, input, now(), publicBookingOptions(principal.keyId)),
      })),
      rollback: false,
    }), FLOW_TRANSACTION));
    // After the commit: a Stripe link for the first payment (never part of the stored idempotent answer).
    const booked = response.body as { booking_id?: string; payment_url?: string | null };
    if (deps.payments && response.status === 201 && booked.booking_id) {
      booked.payment_url = await bookingPaymentUrl(deps.payments, principal.organizationId, booked.booking_id, (error) => request.log.warn({ err: error }, 'payment link'));
    }
    return send(reply, response);
  });

  app.post('/cart-validate', async (request, reply) => {
    const principal = await authorize(request, 'bookings', 'read');
    const body = requireObject(request.body, 'The request body');
    const items = parseCart(body, body);
    const result = await guarded(() => inTenantTransaction(db, principal, async (tx) => ({
      result: await validateCart(tx, items, now(), toBookingApiError), rollback: true,
    }), FLOW_TRANSACTION));
    return reply.send(result);
  });

  app.post('/cart-checkout', async (request, reply) => {
    const principal = await authorize(request, 'bookings', 'write');
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    const body = requireObject(request.body, 'The request body');
    const items = parseCart(body.cart, body);
    const response = await guarded(() => inTenantTransaction(db, principal, async (tx) => ({
      result: await withIdempotency(tx, principal.organizationId, key, 'cart-checkout', request.body, async () => ({
        status: 201, body: await checkoutCart(tx, items, now(), toBookingApiError, publicBookingOptions(principal.keyId)),
      })),
      rollback: false,
    }), FLOW_TRANSACTION));
    // After the commit, as for /book: Stripe links for the bookings' first payments.
    if (deps.payments && response.status === 201) {
      await addCartPaymentUrls(deps.payments, principal.organizationId, response.body as CheckedOutCart, (error) => request.log.warn({ err: error }, 'payment link'));
    }
    return send(reply, response);
  });

  app.post('/create-product', async (request, reply) => {
    const principal = await authorize(request, 'products', 'write');
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    const fields = parseProductInput(request.body);
    const response = await guarded(() => inTenantTransaction(db, principal, async (tx) => ({
      result: await withIdempotency(tx, principal.organizationId, key, 'create-product', request.body, async () => ({
        status: 201, body: await createProduct(tx, fields),
      })),
      rollback: false,
    }), FLOW_TRANSACTION));
    return send(reply, response);
  });
};
