/**
 * Staykit's `/v1` resource API: the generic engine behind API-key authentication, scopes, the tenant
 * transaction and the request log (`apiAuthorization`, set up once for every route of the `/v1` scope). A request
 * is authenticated and checked against the scope of its resource first; once planned, every table it reads (embeds
 * at any depth, junctions, returned rows) needs the key's read scope too, and the write hook of the written table
 * runs; only then does the transaction begin.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/types.js';
import { Authenticator } from '../auth/authenticate.js';
import { authorizer, requireReadScopes, type Authorize } from '../auth/authorize.js';
import { isPublishableKey } from '../auth/publishable-key-format.js';
import type { Access } from '../auth/scopes.js';
import type { SessionAuthenticator } from '../auth/session-authenticate.js';
import type { EngineOptions } from '../query/plan/types.js';
import type { WriteHook } from '../query/serve.js';
import type { SchemaCache } from '../schema/types.js';
import { engineRoutes } from './routes/engine-routes.js';
import { RequestLog } from './request-log.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';

export const API_PREFIX = '/v1';
export const MAX_ROWS = 1000;

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function accessFor(method: string): Access {
  return READ_METHODS.has(method) ? 'read' : 'write';
}

export interface ApiAuthorizationOptions {
  db: Database;
  authenticator?: Authenticator;
  /** Where the request log is written (default `db`): background connections, so requests cannot starve it. */
  requestLogDb?: Database;
  /** Dashboard sessions: requests with the session cookie and no Authorization header run as the session's member. */
  sessions?: SessionAuthenticator;
}

export interface StaykitApiOptions {
  db: Database;
  cache: SchemaCache;
  authorize: Authorize;
  /** Per-request statement timeout (10 s unless configured). */
  statementTimeoutMs?: number;
  /** Longest like/ilike/match/imatch pattern or fts query (default 1000 characters). */
  maxPatternLength?: number;
  /** Checks or completions of the rows a write stores, by table (e.g. webhook endpoints and secrets). */
  writeHooks?: ReadonlyMap<string, WriteHook>;
}

/**
 * Decorates `app`'s requests with their principal and records every request that authenticated in the request log
 * (publishable keys' requests too: their principal names the `pk_` key, its row id the publishable key's); returns
 * the `Authorize` of `app`'s routes. Set up on the `/v1` scope, so the booking and webhook operations are
 * logged as the resource API is.
 */
export function apiAuthorization(app: FastifyInstance, options: ApiAuthorizationOptions): Authorize {
  const { db } = options;
  const authenticator = options.authenticator ?? new Authenticator(db);
  const requestLog = new RequestLog(options.requestLogDb ?? db, {
    logger: app.log,
    onDropped: (count) => app.metrics?.requestLogDropped.inc(count),
  });

  app.decorateRequest('principal', undefined);
  app.addHook('onResponse', async (request, reply) => {
    const principal = request.principal;
    if (!principal) return;
    const publishable = isPublishableKey(principal.keyId);
    requestLog.record({
      organization_id: principal.organizationId,
      api_key_id: publishable ? null : principal.keyRowId,
      publishable_key_id: publishable ? principal.keyRowId : null,
      method: request.method,
      path: request.url.split('?')[0]!,
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime),
      request_id: String(request.id),
      created_at: new Date().toISOString(),
    });
  });
  app.addHook('onClose', () => requestLog.close());

  return authorizer(authenticator, options.sessions);
}

export const staykitApi: FastifyPluginAsync<StaykitApiOptions> = async (app, options) => {
  const { db, cache, authorize } = options;

  const engine: EngineOptions = {
    maxRows: MAX_ROWS,
    requireFilterForWrites: true,
    basePath: API_PREFIX,
    maxEmbedDepth: 8,
    maxLogicDepth: 10,
    maxInsertRows: MAX_ROWS,
    maxPatternLength: options.maxPatternLength,
    // The api schema is tables only (no views, no functions in reads), so a read may commit with its statement.
    readsArePure: true,
  };

  await app.register(engineRoutes, {
    cache,
    execute: async (request, path, serve) => {
      const principal = await authorize(request, path.replace(/^rpc\//, ''), accessFor(request.method));
      const tenant = { column: 'organization_id', value: principal.organizationId };
      return serve({
        options: { ...engine, tenant },
        authorize: (access) => requireReadScopes(principal, access.read),
        writeHooks: options.writeHooks,
        transaction: (work) => inTenantTransaction(db, principal, work, { statementTimeoutMs: options.statementTimeoutMs }),
      });
    },
  });
};
