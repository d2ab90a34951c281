/**
 * What a publishable key may do (docs/widget.md#what-a-publishable-key-can-do): the booking-flow routes below, for
 * the products its widget or site lists, from a page of an allowed origin (or from Staykit's own pages), never
 * silently (403 SK646: a visitor cannot stop the guest's e-mail). Every other route answers 403 SK720 — the resource
 * API, webhooks, create-product — whatever the resource. The database holds the same lines independently
 * (migrations 0150, 0212): products not listed are invisible to the key's transactions, and its bookings are never
 * silent.
 */
import type { FastifyRequest } from 'fastify';
import type { Authorize } from '../auth/authorize.js';
import type { Principal } from '../auth/principal.js';
import type { ActivePublishableKey } from '../auth/publishable-key-store.js';
import { widgetErrors } from './errors.js';
import { requestOrigin } from '../common/request-origin.js';

/** Route → where in the request the product ids are. */
const FLOW_ROUTES: Readonly<Record<string, (request: FastifyRequest) => unknown[]>> = {
  'GET /v1/availability': (request) => {
    const query = request.query as Record<string, unknown>;
    return [query.product_ids, query.product_id].flat().flatMap((value) => (typeof value === 'string' ? value.split(',') : []));
  },
  'POST /v1/search': () => [],
  'POST /v1/quote': (request) => [field(request.body, 'product_id')],
  'POST /v1/book': (request) => [field(request.body, 'product_id')],
  'POST /v1/cart-validate': (request) => cartProducts(field(request.body, 'items')),
  'POST /v1/cart-checkout': (request) => cartProducts(field(field(request.body, 'cart'), 'items')),
};

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

function cartProducts(items: unknown): unknown[] {
  return Array.isArray(items) ? items.map((item) => field(item, 'product_id')) : [];
}

export function routeOf(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
}

/** 403 SK722 unless the request comes from an allowed page, Staykit's own, or no browser page at all (no Origin). */
export function requireAllowedOrigin(request: FastifyRequest, key: ActivePublishableKey): void {
  const origin = request.headers.origin;
  if (origin === undefined || origin === requestOrigin(request) || key.allowedOrigins.includes(origin)) return;
  throw widgetErrors.originNotAllowed(origin);
}

/**
 * The principal a publishable key's request runs as — its organization, no scopes, its token as `staykit.key_id` —
 * set on the request as soon as the key is known, so the request log records the request even when a check refuses
 * it (as it does a secret key's refused for its scope).
 */
export function runAsPublishable(request: FastifyRequest, key: ActivePublishableKey): Principal {
  request.principal = { keyRowId: key.id, keyId: key.key, organizationId: key.organizationId, scopes: [] };
  return request.principal;
}

/**
 * Checks a publishable key's request against its route, origin and listed products; throws 403s. Product ids that
 * are not strings are left to the route's own validation (400).
 */
export function authorizePublishable(request: FastifyRequest, key: ActivePublishableKey): void {
  const route = routeOf(request);
  const products = FLOW_ROUTES[route];
  if (!products) throw widgetErrors.operationNotAllowed(route);
  requireAllowedOrigin(request, key);
  // A sync fetches the units' external calendars: not something anonymous visitors may set off.
  if (route === 'GET /v1/availability' && [(request.query as Record<string, unknown>).perform_sync].flat().includes('true')) {
    throw widgetErrors.operationNotAllowed('perform_sync');
  }
  // Whether the guest is sent e-mail is the organization's choice (migration 0212 holds the same in the database).
  if (field(request.body, 'silent') === true) throw widgetErrors.silentNotAllowed();
  for (const product of products(request)) {
    if (typeof product === 'string' && product.trim() !== '' && !key.productIds.includes(product.trim().toLowerCase())) {
      throw widgetErrors.productNotListed(product);
    }
  }
}

/** `authorize` for secret keys, publishable keys' own rules for `Bearer pk_…` (looked up by `find`). */
export function withPublishableKeys(
  authorize: Authorize,
  authenticate: (token: string) => Promise<ActivePublishableKey>,
  token: (request: FastifyRequest) => string | undefined,
): Authorize {
  return async (request, resource, access, options) => {
    const presented = token(request);
    if (presented === undefined) return authorize(request, resource, access, options);
    const key = await authenticate(presented);
    const principal = runAsPublishable(request, key);
    authorizePublishable(request, key);
    return principal;
  };
}
