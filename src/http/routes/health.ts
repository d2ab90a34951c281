/**
 * `/health`: liveness — the process is up, which database it runs on; `/ready`: the database answers and is
 * migrated. `/health` does not touch the database: a liveness probe must not fail, or wait, because the database is
 * slow or unreachable (on the embedded database a long statement holds its one connection). Its Postgres version
 * and migration are read once, when the app is built. Each is its definition in health-bodies.ts.
 */
import type { FastifyPluginAsync } from 'fastify';
import { migrationStatus } from '../../db/migrate.js';
import type { Database } from '../../db/types.js';
import { healthRoute, readyRoute, type Health, type Readiness } from './health-bodies.js';
import { registerPublicRoute } from '../../routing/route-schema.js';

export interface HealthRouteOptions {
  db: Database;
}

export const healthRoutes: FastifyPluginAsync<HealthRouteOptions> = async (app, { db }) => {
  const { rows } = await db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
  const status = await migrationStatus(db);
  const health: Health = { status: 'ok', backend: db.backend, postgres_version: rows[0]?.version ?? null, migration: status.current };
  registerPublicRoute(app, healthRoute, async (_request, reply) => reply.send(health));

  registerPublicRoute(app, readyRoute, async (_request, reply) => {
    try {
      const status = await migrationStatus(db);
      const ready = status.pending.length === 0;
      const answer: Readiness = { ready, migration: status.current, pending: status.pending };
      return reply.status(ready ? 200 : 503).send(answer);
    } catch {
      const answer: Readiness = { ready: false, database: 'unreachable' };
      return reply.status(503).header('retry-after', '1').send(answer);
    }
  });
};
