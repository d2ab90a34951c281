/**
 * `observability(app, { db })`: the `X-Request-Id` response header, one JSON access line per request,
 * Prometheus metrics at `/metrics`, and `Connection: close` on responses sent while the app is closing (drain.ts). Needs the Fastify options of `observabilityFastifyOptions` (request ids
 * accepted only when sane, Fastify's own request lines off, redaction).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/types.js';
import type {} from '../auth/principal.js';
import type { SchemaCache } from '../schema/types.js';
import { closeConnectionsWhenDraining } from './drain.js';
import { createMetrics, type Metrics } from './metrics.js';
import { REQUEST_ID_HEADER } from './request-id.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics, once `observability` is registered (apps built without it have none). */
    metrics?: Metrics;
  }
}

export interface ObservabilityOptions {
  db: Database;
  /** Lets `/v1/:resource` be labelled by resource (`/v1/bookings`) for the names it knows; others stay `:resource`. */
  cache?: SchemaCache;
  /** Default `/metrics`; false: no endpoint (the registry is still returned). */
  metricsPath?: string | false;
}

/** Probes and scrapes that succeed are logged at `debug`: a load balancer polling `/ready` must not flood the log. */
const QUIET_ROUTES = new Set(['/health', '/ready', '/metrics']);

/** The route label: the matched pattern, with known resource and function names filled in; `unmatched` for 404s. */
export function routeLabel(request: FastifyRequest, cache: SchemaCache | undefined): string {
  const pattern = request.routeOptions.url;
  if (!pattern) return 'unmatched';
  const params = (request.params ?? {}) as Record<string, unknown>;
  return pattern
    .replace(':resource', (param) => (cache?.tables.has(String(params.resource)) ? String(params.resource) : param))
    .replace(':fn', (param) => (cache?.routines.has(String(params.fn)) ? String(params.fn) : param));
}

export async function observability(app: FastifyInstance, options: ObservabilityOptions): Promise<Metrics> {
  const metrics = createMetrics(options.db, (error, what) => app.log.warn({ err: error }, `metrics: reading ${what} failed`));
  app.decorate('metrics', metrics);

  closeConnectionsWhenDraining(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, String(request.id));
  });

  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = routeLabel(request, options.cache);
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    const labels = { method: request.method, route, status: String(status) };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, seconds);
    const principal = request.principal;
    // request_id comes from the request's child logger (requestIdLogLabel), once.
    const line = {
      organization_id: principal?.organizationId ?? null,
      key_id: principal?.keyId ?? null,
      method: request.method,
      route,
      // An iCal feed's path is its credential: never log it.
      path: request.url.split('?')[0]!.replace(/^\/v1\/ical\/[^/]+$/, '/v1/ical/[redacted].ics'),
      status,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (status >= 500) request.log.error(line, 'request failed');
    else if (QUIET_ROUTES.has(route) && status < 400) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
  });

  if (options.metricsPath !== false) {
    app.get(options.metricsPath ?? '/metrics', async (_request, reply) => {
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(text);
    });
  }
  return metrics;
}
