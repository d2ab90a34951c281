/**
 * The app as `buildApp` builds it once the OpenAPI routes and observability are wired in (see the wiring in the
 * issue-8 report). Until then, the same construction is made here, so these tests run either way; when `buildApp`
 * already serves `/v1/openapi.json` and `/metrics`, the real one is used.
 */
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Database } from '../../src/db/types.js';
import { buildApp } from '../../src/http/app.js';
import { errorHandler, sendError } from '../../src/http/error-handler.js';
import { healthRoutes } from '../../src/http/routes/health.js';
import { staykitApi } from '../../src/http/staykit-api.js';
import { API_ROLE } from '../../src/http/tenant-transaction.js';
import { ApiError } from '../../src/errors/api-error.js';
import { loadSchemaCache } from '../../src/schema/index.js';
import { openApiRoutes } from '../../src/openapi/index.js';
import { bookingRoutes } from '../../src/booking/routes.js';
import { loggerOptions, observability, observabilityFastifyOptions } from '../../src/observability/index.js';

export interface WiredApp {
  app: FastifyInstance;
  /** Log lines written so far (only when built here with `captureLogs`). */
  logs: Record<string, unknown>[];
  /** True when this is `buildApp` itself. */
  real: boolean;
}

export async function startWiredApp(db: Database, options: { captureLogs?: boolean } = {}): Promise<WiredApp> {
  if (!options.captureLogs) {
    const real = await buildApp({ db });
    if (real.hasRoute({ method: 'GET', url: '/v1/openapi.json' }) && real.hasRoute({ method: 'GET', url: '/metrics' })) {
      return { app: real, logs: [], real: true };
    }
    await real.close();
  }
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const fastifyOptions = observabilityFastifyOptions('info');
  const app = Fastify({
    ...fastifyOptions,
    logger: undefined,
    loggerInstance: pino(loggerOptions(options.captureLogs ? 'info' : 'silent'), sink) as unknown as FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError(404, 'SK404', `No route for ${request.method} ${request.url.split('?')[0]}`)),
  );
  const cache = await loadSchemaCache(db, { schema: 'api', role: API_ROLE });
  await observability(app, { db, cache });
  healthRoutes(app, db);
  await openApiRoutes(app, { cache, db });
  const { authorize } = await staykitApi(app, { db, cache });
  await bookingRoutes(app, { db, authorize });
  await app.ready();
  return { app, logs, real: false };
}
