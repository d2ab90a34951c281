/**
 * `staykit rest`: the generic engine alone, serving any PostgreSQL schemas the way PostgREST would — no API keys,
 * no tenancy, `/<table>` and `/rpc/<function>` at the root. For development and for running existing PostgREST
 * clients' test suites against the engine. Several schemas are profiles (`Accept-Profile` / `Content-Profile`), the
 * first the default.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Database, Transaction } from '../db/types.js';
import { quoteIdent } from '../query/sql/quote.js';
import type { EngineOptions, PostgrestVersion } from '../query/plan/types.js';
import { loadSchemaCache } from '../schema/load.js';
import { errorHandler } from './error-handler.js';
import { engineRoutes } from './routes/engine-routes.js';
import { inRequestTransaction } from '../transaction/request-transaction.js';

export interface RestAppOptions {
  db: Database;
  /** The exposed schemas, the default first (one name, or several). */
  schema: string | readonly string[];
  /** Role to run requests as (`SET LOCAL ROLE`); default: the connecting user. */
  role?: string | undefined;
  /** PostgREST's db-max-rows; absent: no limit, as PostgREST's default. */
  maxRows?: number | undefined;
  logLevel?: string;
  /** Aggregates in `select` (PostgREST's db-aggregates-enabled; off by default, as there). */
  aggregates?: boolean;
  /** `Accept: application/vnd.pgrst.plan` (PostgREST's db-plan-enabled; off by default, as there). */
  plans?: boolean;
  /** The PostgREST version whose answers to give where 12 and 13 differ (default 13). */
  postgrest?: PostgrestVersion | undefined;
}

export async function buildRestApp(options: RestAppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: options.logLevel ?? 'silent' }, bodyLimit: 1024 * 1024 });
  app.setErrorHandler(errorHandler);
  const schemas = typeof options.schema === 'string' ? [options.schema] : [...options.schema];
  const caches = await Promise.all(schemas.map((schema) => loadSchemaCache(options.db, { schema, role: options.role })));
  const engine: EngineOptions = {
    maxRows: options.maxRows ?? null,
    requireFilterForWrites: false,
    basePath: '',
    // PostgREST mode: rows in the order PostgreSQL returns them, ambiguous embeds always 300 PGRST201.
    defaultOrder: 'none',
    strictRelationships: true,
    aggregates: options.aggregates === true,
    plans: options.plans === true,
    postgrest: options.postgrest ?? 13,
  };
  await app.register(engineRoutes, {
    cache: caches,
    execute: async (_request, _path, serve, schema) => {
      const setup = [
        options.role ? `SET LOCAL ROLE ${quoteIdent(options.role)}` : undefined,
        `SET LOCAL search_path TO ${quoteIdent(schema)}, public`,
      ].filter((statement): statement is string => statement !== undefined);
      const prepare = async (tx: Transaction) => {
        for (const statement of setup) await tx.query(statement);
      };
      return serve({ options: engine, transaction: (work) => inRequestTransaction(options.db, prepare, work) });
    },
  });
  await app.ready();
  return app;
}
