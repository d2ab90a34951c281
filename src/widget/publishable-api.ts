/**
 * Publishable keys on the `/v1` scope (docs/widget.md): CORS for the pages of a widget's or site's allowed origins
 * (@fastify/cors, decided per request), the `Authorize` that lets `Bearer pk_…` reach the booking flow only, the
 * widget's public catalogue (`GET /v1/widget`), the widget analytics of views and quotes, and the management of
 * publishable keys with a secret key (`/v1/publishable-keys`).
 */
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authorize } from '../auth/authorize.js';
import { PublishableKeys } from '../auth/publishable-authenticate.js';
import { publishableToken } from '../auth/publishable-key-format.js';
import type { ActivePublishableKey } from '../auth/publishable-key-store.js';
import { UUID } from '../common/patterns.js';
import { requestOrigin } from '../common/request-origin.js';
import type { Database } from '../db/types.js';
import { authErrors } from '../errors/auth.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';
import { CATALOGUE_TABLES, catalogueQuery, widgetEventQuery } from './catalogue-queries.js';
import { publishableKeyRoutes } from './key-routes.js';
import { widgetCatalogue } from './bodies.js';
import { registerPublicRoute } from '../routing/route-schema.js';
import { refuseOtherMethods } from '../common/other-methods.js';
import { requireAllowedOrigin, routeOf, runAsPublishable, withPublishableKeys } from './publishable-authorize.js';

export interface PublishableApiOptions {
  db: Database;
  /** The `Authorize` of secret keys (src/http/staykit-api.ts). */
  authorize: Authorize;
  keys?: PublishableKeys;
}

const CORS_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'accept-language'];
const EXPOSED_HEADERS = ['content-range', 'ratelimit', 'ratelimit-policy', 'retry-after', 'idempotent-replayed'];

const REFUSALS = new Set([401, 403]);

/** A `Vary` header that names `Origin` too. */
function withOrigin(vary: ReturnType<FastifyReply['getHeader']>): string {
  const names = vary === undefined ? [] : String(vary).split(',').map((name) => name.trim()).filter((name) => name !== '');
  return names.some((name) => name.toLowerCase() === 'origin') ? names.join(', ') : [...names, 'Origin'].join(', ');
}

const presentedToken = (request: FastifyRequest) => publishableToken(request.headers.authorization);

function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/**
 * Registers everything on `v1` itself (not in a child scope, so CORS and the analytics hook cover the booking-flow
 * routes registered next to it) and returns the `Authorize` every `/v1` route should use.
 */
export async function publishableApi(v1: FastifyInstance, options: PublishableApiOptions): Promise<Authorize> {
  const { db } = options;
  const keys = options.keys ?? new PublishableKeys(db);
  const authorize = withPublishableKeys(options.authorize, (token) => keys.authenticate(token), presentedToken);

  // A preflight carries no key: it passes when some widget or site allows the page's origin; the request itself
  // then gets CORS headers only when its key's widget or site allows that origin (and is refused with 403 SK722).
  await v1.register(cors, {
    delegator: async (request: FastifyRequest) => {
      const origin = request.headers.origin;
      let allowed = false;
      if (origin !== undefined) {
        if (isPreflight(request)) allowed = await keys.originAllowedAnywhere(origin);
        else {
          const token = presentedToken(request);
          const key = token === undefined ? undefined : await keys.find(token);
          allowed = key !== undefined && key.allowedOrigins.includes(origin);
        }
      }
      return allowed
        ? { origin: origin!, methods: ['GET', 'POST'], allowedHeaders: CORS_HEADERS, exposedHeaders: EXPOSED_HEADERS, maxAge: 600 }
        : { origin: false };
    },
  });

  // A refusal of a publishable key's request (401: revoked or unknown key; 403: another origin, another route) holds
  // no data, so the page that sent it may read it and the widget can say why instead of "cannot be reached".
  v1.addHook('onSend', async (request, reply, payload) => {
    const origin = request.headers.origin;
    if (origin === undefined || !REFUSALS.has(reply.statusCode) || presentedToken(request) === undefined) return payload;
    if (reply.hasHeader('access-control-allow-origin')) return payload;
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', withOrigin(reply.getHeader('vary')));
    return payload;
  });

  // Quotes are computed in a transaction that is rolled back: they are counted once answered.
  v1.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 200 || routeOf(request) !== 'POST /v1/quote') return;
    const token = presentedToken(request);
    const key = token === undefined ? undefined : await keys.find(token);
    const productId = (request.body as { product_id?: unknown } | undefined)?.product_id;
    if (key) recordWidgetEvent(v1, db, key, 'quote', typeof productId === 'string' ? productId : null);
  });

  // A booking made with a publishable key answers with the guest's page too: the guest who booked may see it.
  v1.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 201 || routeOf(request) !== 'POST /v1/book' || typeof payload !== 'string') return payload;
    // A replay (same Idempotency-Key and body) may come from someone else who knows both: it gets no guest link.
    if (reply.getHeader('idempotent-replayed') !== undefined) return payload;
    const token = presentedToken(request);
    const key = token === undefined ? undefined : await keys.find(token);
    if (!key) return payload;
    const booked = JSON.parse(payload) as { booking_id?: string };
    const { rows } = await db.query<{ secret: string }>(
      'SELECT secret FROM api.bookings WHERE id = $1 AND organization_id = $2', [booked.booking_id, key.organizationId]);
    if (!rows[0]) return payload;
    return JSON.stringify({ ...booked, guest_url: `${requestOrigin(request)}/g/${rows[0].secret}` });
  });

  // The catalogue's key is a publishable one, checked here, never a secret key's scope.
  registerPublicRoute(v1, widgetCatalogue, async (request, reply) => {
    const token = presentedToken(request);
    if (token === undefined) throw authErrors.missingKey();
    const key = await keys.authenticate(token);
    const principal = runAsPublishable(request, key);
    requireAllowedOrigin(request, key);
    // Photos as absolute URLs at the address the widget asked (the page embedding it is elsewhere), like guest_url.
    const { text, values } = catalogueQuery({ widgetId: key.widgetId, siteId: key.siteId }, requestOrigin(request));
    const catalogue = await inTenantTransaction(db, principal, async (tx) => ({
      result: (await tx.query<{ catalogue: unknown }>(text, values)).rows[0]!.catalogue, rollback: true,
    }), { readable: CATALOGUE_TABLES });
    recordWidgetEvent(v1, db, key, 'view', null);
    return reply.header('cache-control', 'no-store').send(catalogue);
  });

  refuseOtherMethods(v1, '/widget', ['GET']);
  await v1.register(publishableKeyRoutes, { db, authorize });
  return authorize;
}

/** Counts a widget event off the request path; a failure is logged, never the request's. */
function recordWidgetEvent(app: FastifyInstance, db: Database, key: ActivePublishableKey, event: 'view' | 'quote', productId: string | null): void {
  if (key.widgetId === null) return;
  const { text, values } = widgetEventQuery(key.organizationId, key.widgetId, event, productId !== null && UUID.test(productId) ? productId : null);
  db.query(text, values).catch((error: unknown) => app.log.warn({ err: error }, 'widget analytics not recorded'));
}
