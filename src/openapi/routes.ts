/**
 * Serves the OpenAPI document at `GET /v1/` (PostgREST's place for it), `GET /v1` and `GET /v1/openapi.json`,
 * without authentication, registered under the API's `/v1` prefix (the reference page at `/docs` is registered
 * at the root: see reference-page.ts). The document is built once, on first request: the schema cache does not
 * change while the process runs. The operation is its definition (bodies.ts). `?tag=<tag>` answers that tag's share of it (tag-document.ts), built on first request and kept.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { notFound } from '../errors/catalogue.js';
import type { Queryable } from '../db/types.js';
import type { SchemaCache } from '../schema/types.js';
import { loadCheckConstraints } from './check-enums.js';
import { buildOpenApiDocument, type OpenApiOptions } from './document.js';
import { documentForTag, openApiTags } from './tag-document.js';
import { loadOrderIndexes } from './order-indexes.js';
import { openApiDocumentRoute } from './bodies.js';
import { registerPublicRoute } from '../routing/route-schema.js';

export interface OpenApiRouteOptions extends OpenApiOptions {
  cache: SchemaCache;
  /** Read CHECK lists (enums) from this database; ignored when `checks` is given. */
  db?: Queryable;
}

/** The document as served: its JSON, or a tag's share of it (made on first request and kept). */
interface ServedDocument {
  bodyFor(tag: string | undefined): string;
}

async function serveDocument(options: OpenApiRouteOptions): Promise<ServedDocument> {
  const checks = options.checks ?? (options.db ? await loadCheckConstraints(options.db, options.cache.schema) : undefined);
  const orderIndexes = options.orderIndexes ?? (options.db ? await loadOrderIndexes(options.db, options.cache.schema) : undefined);
  const document = buildOpenApiDocument(options.cache, { ...options, checks, orderIndexes });
  const body = JSON.stringify(document);
  const tags = openApiTags(document);
  const tagBodies = new Map<string, string>();
  return {
    bodyFor(tag) {
      if (tag === undefined) return body;
      if (!tags.includes(tag)) {
        throw notFound(`No OpenAPI tag ${JSON.stringify(tag)}; the tags are ${tags.map((name) => JSON.stringify(name)).join(', ')}`);
      }
      let tagged = tagBodies.get(tag);
      if (tagged === undefined) {
        tagged = JSON.stringify(documentForTag(document, tag));
        tagBodies.set(tag, tagged);
      }
      return tagged;
    },
  };
}

export const openApiRoutes: FastifyPluginAsync<OpenApiRouteOptions> = async (app, options) => {
  // Built when first asked for, not at start: a server's start does not wait for a document most of its clients
  // never read (~0.3 s on the embedded database: two catalog reads, then ~1 MB of JSON). A failed build is tried
  // again by the next request.
  let served: Promise<ServedDocument> | undefined;
  const document = (): Promise<ServedDocument> => {
    served ??= serveDocument(options).catch((error: unknown) => {
      served = undefined;
      throw error;
    });
    return served;
  };
  const send = async (tag: string | undefined, reply: FastifyReply) => {
    const body = (await document()).bodyFor(tag);
    return reply.type('application/openapi+json; charset=utf-8').header('cache-control', 'no-cache').send(body);
  };
  registerPublicRoute(app, openApiDocumentRoute, (request, reply) => send(request.query.tag, reply));
  // Under a prefix, '/' answers both `/v1` and `/v1/`: the same operation at PostgREST's place for it.
  registerPublicRoute(app, { ...openApiDocumentRoute, url: '/' }, (request, reply) => send(request.query.tag, reply));
};
