/**
 * Serves the OpenAPI document at `GET /v1/` (PostgREST's place for it), `GET /v1` and `GET /v1/openapi.json`,
 * without authentication, and the reference page at `/docs`. The document is built once: the schema cache does
 * not change while the process runs.
 */
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/types.js';
import type { SchemaCache } from '../schema/index.js';
import { loadCheckConstraints, type CheckConstraints } from './check-enums.js';
import { buildOpenApiDocument, type OpenApiOptions } from './document.js';
import { referencePage } from './reference-page.js';

export interface OpenApiRouteOptions extends OpenApiOptions {
  cache: SchemaCache;
  /** Read CHECK lists (enums) from this database; ignored when `checks` is given. */
  db?: Queryable;
  /** Default `/v1`. */
  prefix?: string;
  /** Where the reference page lives (default `/docs`); false: no page. */
  docsPath?: string | false;
}

export async function openApiRoutes(app: FastifyInstance, options: OpenApiRouteOptions): Promise<Record<string, unknown>> {
  const prefix = options.prefix ?? '/v1';
  let checks: CheckConstraints | undefined = options.checks;
  if (!checks && options.db) checks = await loadCheckConstraints(options.db, options.cache.schema);
  const document = buildOpenApiDocument(options.cache, { ...options, checks });
  const body = JSON.stringify(document);

  const send = async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('application/openapi+json; charset=utf-8').header('cache-control', 'no-cache').send(body);
  app.get(prefix, send);
  app.get(`${prefix}/`, send);
  app.get(`${prefix}/openapi.json`, send);
  if (options.docsPath !== false) referencePage(app, { path: options.docsPath ?? '/docs', specUrl: `${prefix}/openapi.json` });
  return document;
}
