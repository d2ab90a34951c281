/**
 * Serves the OpenAPI document at `GET /v1/` (PostgREST's place for it), `GET /v1` and `GET /v1/openapi.json`,
 * without authentication, registered under the API's `/v1` prefix (the reference page at `/docs` is registered
 * at the root: see reference-page.ts). The document is built once: the schema cache does not change while the
 * process runs. `?tag=<tag>` answers that tag's share of it (tag-document.ts), built on first request and kept.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors/catalogue.js';
import type { Queryable } from '../db/types.js';
import type { SchemaCache } from '../schema/index.js';
import { loadCheckConstraints, type CheckConstraints } from './check-enums.js';
import { buildOpenApiDocument, type OpenApiOptions } from './document.js';
import { documentForTag, openApiTags } from './tag-document.js';
import { loadOrderIndexes } from './order-indexes.js';

export interface OpenApiRouteOptions extends OpenApiOptions {
  cache: SchemaCache;
  /** Read CHECK lists (enums) from this database; ignored when `checks` is given. */
  db?: Queryable;
}

export const openApiRoutes: FastifyPluginAsync<OpenApiRouteOptions> = async (app, options) => {
  let checks: CheckConstraints | undefined = options.checks;
  if (!checks && options.db) checks = await loadCheckConstraints(options.db, options.cache.schema);
  const orderIndexes = options.orderIndexes ?? (options.db ? await loadOrderIndexes(options.db, options.cache.schema) : undefined);
  const document = buildOpenApiDocument(options.cache, { ...options, checks, orderIndexes });
  const body = JSON.stringify(document);
  const tags = openApiTags(document);
  const tagBodies = new Map<string, string>();
  const bodyFor = (tag: unknown): string => {
    if (tag === undefined) return body;
    if (typeof tag !== 'string' || !tags.includes(tag)) {
      throw notFound(`No OpenAPI tag ${JSON.stringify(tag)}; the tags are ${tags.map((name) => JSON.stringify(name)).join(', ')}`);
    }
    let tagged = tagBodies.get(tag);
    if (tagged === undefined) {
      tagged = JSON.stringify(documentForTag(document, tag));
      tagBodies.set(tag, tagged);
    }
    return tagged;
  };

  const send = async (request: FastifyRequest<{ Querystring: { tag?: unknown } }>, reply: FastifyReply) =>
    reply.type('application/openapi+json; charset=utf-8').header('cache-control', 'no-cache').send(bodyFor(request.query.tag));
  // Under a prefix, '/' answers both `/v1` and `/v1/`.
  app.get('/', send);
  app.get('/openapi.json', send);
};
