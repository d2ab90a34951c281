/**
 * The Staykit app with the limits plugins registered as `buildApp` is to register them (rate limit, then size
 * limits, before the routes), for tests that cannot wait for the wiring in src/http/app.ts.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Writable } from 'node:stream';
import type { Database } from '../../../src/db/types.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { errorHandler, sendError, toApiError } from '../../../src/http/error-handler.js';
import { healthRoutes } from '../../../src/http/routes/health.js';
import { staykitApi } from '../../../src/http/staykit-api.js';
import { API_ROLE } from '../../../src/http/tenant-transaction.js';
import { rateLimit, requestSizeLimits, type RateLimitOptions, type RequestSizeOptions } from '../../../src/limits/index.js';
import { loadSchemaCache } from '../../../src/schema/index.js';

export interface LimitedAppOptions {
  rate?: RateLimitOptions;
  size?: RequestSizeOptions;
  bodyLimitBytes?: number;
  /** Receives the app's log lines (JSON), e.g. to see a warning. */
  logLines?: string[];
}

export async function buildLimitedApp(db: Database, options: LimitedAppOptions = {}): Promise<FastifyInstance> {
  const lines = options.logLines;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines?.push(...chunk.toString().split('\n').filter((line) => line !== ''));
      done();
    },
  });
  const app = Fastify({
    logger: lines ? { level: 'info', stream } : { level: 'silent' },
    bodyLimit: options.bodyLimitBytes ?? 1024 * 1024,
    requestIdHeader: 'x-request-id',
    // Router errors (bad percent-encoding in the path, …) in the API's error shape; see the wiring in the report.
    frameworkErrors: (error, _request, reply) => {
      void sendError(reply, toApiError(error) ?? new ApiError(400, 'SK400', 'Bad request'));
    },
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError(404, 'SK404', `No route for ${request.method} ${request.url.split('?')[0]}`)),
  );
  healthRoutes(app, db);
  if (options.rate) rateLimit(app, options.rate);
  requestSizeLimits(app, options.size);
  const cache = await loadSchemaCache(db, { schema: 'api', role: API_ROLE });
  await staykitApi(app, { db, cache });
  await app.ready();
  return app;
}
