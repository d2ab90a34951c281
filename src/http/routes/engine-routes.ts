/**
 * Hands `/<resource>` and `/rpc/<function>` (under the prefix it is registered with) to the query engine. Bodies reach the engine as raw
 * text: content negotiation, JSON parsing and its errors are the engine's, exactly as PostgREST answers them.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { serveRequest, type EngineResponse, type EngineSession } from '../../query/index.js';
import type { SchemaCache } from '../../schema/index.js';

export interface EngineRouteOptions {
  cache: SchemaCache;
  /**
   * Authenticates the request, then hands `serve` the session for it: engine options, the checks the engine runs
   * once the request is planned (authorization, write hooks), and the transaction (role, tenant) to run it in.
   */
  execute(
    request: FastifyRequest,
    path: string,
    serve: (session: EngineSession) => Promise<EngineResponse>,
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
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const handle = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const body = typeof request.body === 'string' ? request.body : undefined;
    const engineRequest = { method: request.method, path, query, headers: lowerCaseHeaders(request), body };
    const response = await options.execute(request, path, (session) => serveRequest(engineRequest, options.cache, session));
    return send(reply, response);
  };

  scope.route<{ Params: { resource: string } }>({
    method: [...METHODS],
    url: '/:resource',
    exposeHeadRoute: false,
    handler: (request, reply) => handle(request, reply, request.params.resource),
  });
  scope.route<{ Params: { fn: string } }>({
    method: [...METHODS],
    url: '/rpc/:fn',
    exposeHeadRoute: false,
    handler: (request, reply) => handle(request, reply, `rpc/${request.params.fn}`),
  });
};
