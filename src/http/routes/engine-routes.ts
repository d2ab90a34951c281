/**
 * Hands `/<resource>` and `/rpc/<function>` (under the prefix it is registered with) to the query engine. Bodies reach the engine as raw
 * text: content negotiation, JSON parsing and its errors are the engine's, exactly as PostgREST answers them.
 * With several schemas, `Accept-Profile` / `Content-Profile` pick the one a request reads or writes (src/query/profile.ts).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { chooseProfile } from '../../query/profile.js';
import { errorResponse, type EngineResponse } from '../../query/response.js';
import { serveRequest, type EngineSession } from '../../query/serve.js';
import type { SchemaCache } from '../../schema/types.js';

export interface EngineRouteOptions {
  /** The exposed schema, or several (PostgREST's db-schemas): the first is the default profile. */
  cache: SchemaCache | readonly SchemaCache[];
  /**
   * Authenticates the request, then hands `serve` the session for it: engine options, the checks the engine runs
   * once the request is planned (authorization, write hooks), and the transaction (role, tenant) to run it in.
   * `schema` is the profile the request chose (its transaction's search_path); a profile that is not exposed is
   * answered by `serve` itself, with nothing run.
   */
  execute(
    request: FastifyRequest,
    path: string,
    serve: (session: EngineSession) => Promise<EngineResponse>,
    schema: string,
  ): Promise<EngineResponse>;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'] as const;

function lowerCaseHeaders(request: FastifyRequest): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function send(reply: FastifyReply, response: EngineResponse): FastifyReply {
  reply.status(response.status).headers(response.headers);
  return response.body === undefined ? reply.send() : reply.send(response.body);
}

/** An encapsulated plugin: its raw-text body parser applies to the engine's routes only. */
export const engineRoutes: FastifyPluginAsync<EngineRouteOptions> = async (scope, options) => {
  const caches: readonly SchemaCache[] = Array.isArray(options.cache) ? options.cache : [options.cache as SchemaCache];
  const schemas = caches.map((cache) => cache.schema);
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const handle = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const body = typeof request.body === 'string' ? request.body : undefined;
    const headers = lowerCaseHeaders(request);
    const engineRequest = { method: request.method, path, query, headers, body };
    const profile = chooseProfile(request.method, headers, schemas);
    const cache = caches[profile.ok ? schemas.indexOf(profile.schema) : 0] as SchemaCache;
    const serve = async (session: EngineSession): Promise<EngineResponse> => {
      if (!profile.ok) return errorResponse(profile.error);
      const response = await serveRequest(engineRequest, cache, session);
      if (!profile.negotiated || response.status >= 400) return response;
      return { ...response, headers: { ...response.headers, 'Content-Profile': profile.schema } };
    };
    return send(reply, await options.execute(request, path, serve, cache.schema));
  };

  scope.route<{ Params: { resource: string } }>({
    method: [...METHODS],
    url: '/:resource',
    exposeHeadRoute: false,
    config: { staykitRoute: { kind: 'engine' } },
    handler: (request, reply) => handle(request, reply, request.params.resource),
  });
  scope.route<{ Params: { fn: string } }>({
    method: [...METHODS],
    url: '/rpc/:fn',
    exposeHeadRoute: false,
    config: { staykitRoute: { kind: 'engine' } },
    handler: (request, reply) => handle(request, reply, `rpc/${request.params.fn}`),
  });
};
