/**
 * Builds the Fastify application. Tests call `buildApp` and drive it with `app.inject()`; `staykit serve`
 * listens on a port. Nothing here knows SQL: routes hand requests to the query engine or the booking flow.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Database } from '../db/types.js';
import { errorHandler, sendError } from './error-handler.js';
import { healthRoutes } from './routes/health.js';
import { ApiError } from '../errors/api-error.js';
import { loadSchemaCache } from '../schema/index.js';
import { staykitApi } from './staykit-api.js';
import { API_ROLE } from './tenant-transaction.js';
import { bookingRoutes } from '../booking/routes.js';

export interface AppOptions {
  db: Database;
  logLevel?: string;
  bodyLimitBytes?: number;
  statementTimeoutMs?: number;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'silent' },
    bodyLimit: options.bodyLimitBytes ?? 1024 * 1024,
    requestIdHeader: 'x-request-id',
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError(404, 'SK404', `No route for ${request.method} ${request.url.split('?')[0]}`)),
  );
  healthRoutes(app, options.db);
  const cache = await loadSchemaCache(options.db, { schema: 'api', role: API_ROLE });
  const { authorize } = await staykitApi(app, { db: options.db, cache, statementTimeoutMs: options.statementTimeoutMs });
  await bookingRoutes(app, { db: options.db, authorize });
  await app.ready();
  return app;
}
