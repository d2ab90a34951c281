/**
 * Builds the Fastify application. Tests call `buildApp` and drive it with `app.inject()`; `staykit serve`
 * listens on a port. Nothing here knows SQL: routes hand requests to the query engine or the booking flow.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Database } from '../db/types.js';
import { errorHandler, refusedRequest, sendError, toApiError } from './error-handler.js';
import { limitTenantConcurrency } from '../limits/tenant-concurrency.js';
import { rateLimit, type RateLimitOptions } from '../limits/rate-limit.js';
import { requestSizeLimits } from '../limits/request-size.js';
import { healthRoutes } from './routes/health.js';
import { notFound } from '../errors/catalogue.js';
import { loadSchemaCache } from '../schema/load.js';
import { type SchemaCache } from '../schema/types.js';
import { API_SCHEMA } from '../transaction/tenant-transaction.js';
import type { WebhookWorker } from '../webhooks/worker.js';
import { loadConfig, type Config } from '../config.js';
import { loggerOptions, observabilityFastifyOptions } from '../observability/logger.js';
import { observability } from '../observability/plugin.js';
import { referencePage } from '../openapi/reference-page.js';
import { API_PREFIX } from './staykit-api.js';
import { v1Routes } from './v1.js';
import { replicaRouting } from '../replicas/routing.js';
import { dashboardSessions } from '../auth/session-setup.js';
import { guestRoutes } from '../guest/routes.js';
import { widgetPages } from '../widget/pages.js';
import { dashboardRoutes } from '../dashboard/index.js';
import type { ComputePool } from '../compute/pool.js';
import { processComputePool } from '../compute/process-pool.js';
import { mediaServeRoutes } from '../media/serve-routes.js';
import { openMediaStore } from '../media/open-store.js';
import type { MediaStore } from '../media/store.js';
import { securityHeaders, withSecurityHeaders } from './security-headers.js';
import { recordRoutes } from '../routing/route-list.js';
import { compressAnswers } from './compression.js';

export interface AppOptions {
  db: Database;
  /** Defaults to the documented defaults (not the environment), so tests are reproducible. */
  config?: Config;
  logLevel?: string;
  bodyLimitBytes?: number;
  /** Default: the config's statement timeout. */
  statementTimeoutMs?: number;
  /** Connections for background work (the request log); default `db`. `staykit serve` passes a pool of its own. */
  backgroundDb?: Database;
  /** Per-key rate limit (docs/limits.md); `staykit serve` passes it, tests opt in. */
  rateLimit?: RateLimitOptions;
  maxUrlBytes?: number;
  /** Where log lines go (default stdout); tests read them. */
  logStream?: NodeJS.WritableStream;
  /** The webhook worker running in this process, if any (woken after a redelivery). */
  webhookWorker?: () => WebhookWorker | undefined;
  /** The clock behind the booking flow's "today" (default the system clock); tests pin it. */
  now?: () => Date;
  /** The `api` schema's cache when the caller has it (`staykit serve`'s kept copy, src/schema/snapshot.ts); default: read from `db`. */
  schemaCache?: SchemaCache;
  /** Worker threads for rendering and PDFs (default: the process's pool, made from `config`). */
  compute?: ComputePool;
  /** Where uploaded images live (default: the one the config names, src/media/open-store.ts). */
  mediaStore?: MediaStore;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const config = options.config ?? loadConfig({});
  const fastifyOptions = observabilityFastifyOptions(options.logLevel ?? 'silent');
  const app = Fastify({
    ...fastifyOptions,
    logger: options.logStream ? { ...loggerOptions(options.logLevel ?? 'silent'), stream: options.logStream } : fastifyOptions.logger,
    bodyLimit: options.bodyLimitBytes ?? config.bodyLimitBytes,
    // Behind a reverse proxy (STAYKIT_TRUST_PROXY): the client's address (rate and login limits) and protocol (the
    // session cookie's Secure) from the proxy's X-Forwarded-For / -Proto; otherwise those headers are ignored.
    trustProxy: config.trustProxy,
    // Requests Fastify rejects before routing (a bad percent-encoding) still get the API's error shape.
    frameworkErrors: (error, _request, reply) => {
      void sendError(withSecurityHeaders(reply), toApiError(error) ?? refusedRequest(400));
    },
  });
  // Every route's role, for the test that finds API routes without a definition (src/routing/route-list.ts).
  recordRoutes(app);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, notFound(`No route for ${request.method} ${request.url.split('?')[0]}`)),
  );
  // nosniff and no framing on every answer, errors and 404s included (a route with its own policy keeps it).
  securityHeaders(app);
  if (config.compression === 'on') await compressAnswers(app);
  const cache = options.schemaCache ?? await loadSchemaCache(options.db, API_SCHEMA);
  const compute = options.compute ?? processComputePool(config);
  await observability(app, { db: options.db, cache });
  const requestLimits = options.rateLimit ? rateLimit(app, options.rateLimit) : undefined;
  requestSizeLimits(app, { maxUrlBytes: options.maxUrlBytes ?? config.maxUrlBytes });
  limitTenantConcurrency(app, options.db, {
    maxActive: config.tenantConcurrency, maxQueued: config.tenantQueue, maxWaitMs: config.tenantQueueTimeoutSeconds * 1000,
    publicShare: config.tenantPublicShare,
  });
  // With read replicas (DATABASE_READ_URL): which requests may read from them.
  replicaRouting(app, options.db, { readYourWritesMs: config.readYourWritesSeconds * 1000 });
  await app.register(healthRoutes, { db: options.db });
  await app.register(guestRoutes, { db: options.db, publicUrl: config.publicUrl, now: options.now, compute });
  await app.register(widgetPages, { db: options.db });
  const mediaStore = options.mediaStore ?? openMediaStore(config);
  await app.register(mediaServeRoutes, { store: mediaStore });
  referencePage(app, { path: '/docs', specUrl: `${API_PREFIX}/openapi.json` });
  // Failed logins count where the request limits do: in Redis, shared by every process, when they use it.
  const redis = requestLimits?.store.redis;
  const sharedCounters = redis ? { redis: redis.client, keyPrefix: requestLimits.store.keyPrefix } : undefined;
  const sessions = await dashboardSessions(app, { db: options.db, config, now: options.now, sharedCounters });
  await app.register(dashboardRoutes, { db: options.db, sessions, resources: new Set(cache.tables.keys()), config });
  await app.register(v1Routes, {
    prefix: API_PREFIX, db: options.db, cache, config, requestLogDb: options.backgroundDb, sessions, compute, mediaStore,
    statementTimeoutMs: options.statementTimeoutMs ?? config.statementTimeoutSeconds * 1000, now: options.now, webhookWorker: options.webhookWorker,
  });
  await app.ready();
  return app;
}
