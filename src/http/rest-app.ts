/**
 * `staykit rest`: the generic engine alone, serving any PostgreSQL schema the way PostgREST would — no API keys,
 * no tenancy, `/<table>` and `/rpc/<function>` at the root. For development and for running existing PostgREST
 * clients' test suites against the engine.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Database, Transaction } from '../db/types.js';
import { quoteIdent } from '../query/index.js';
import { loadSchemaCache } from '../schema/index.js';
import { errorHandler } from './error-handler.js';
import { engineRoutes } from './routes/engine-routes.js';
import { inRequestTransaction } from '../transaction/request-transaction.js';

export interface RestAppOptions {
  db: Database;
  schema: string;
  /** Role to run requests as (`SET LOCAL ROLE`); default: the connecting user. */
  role?: string | undefined;
  maxRows?: number;
  logLevel?: string;
}

export async function buildRestApp(options: RestAppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: options.logLevel ?? 'silent' }, bodyLimit: 1024 * 1024 });
  app.setErrorHandler(errorHandler);
  const cache = await loadSchemaCache(options.db, { schema: options.schema, role: options.role });
  const setup = [
    options.role ? `SET LOCAL ROLE ${quoteIdent(options.role)}` : undefined,
    `SET LOCAL search_path TO ${quoteIdent(options.schema)}, public`,
  ].filter((statement): statement is string => statement !== undefined);
  await app.register(engineRoutes, {
    cache,
    execute: async (_request, _path, serve) => {
      const engine = { maxRows: options.maxRows ?? 1000, requireFilterForWrites: false, basePath: '' };
      const prepare = async (tx: Transaction) => {
        for (const statement of setup) await tx.query(statement);
      };
      return serve({ options: engine, transaction: (work) => inRequestTransaction(options.db, prepare, work) });
    },
  });
  await app.ready();
  return app;
}
