/** `/health`: the process is up and which database it runs on; `/ready`: the database answers and is migrated. */
import type { FastifyInstance } from 'fastify';
import { migrationStatus } from '../../db/migrate.js';
import type { Database } from '../../db/types.js';

export function healthRoutes(app: FastifyInstance, db: Database): void {
  app.get('/health', async () => {
    const { rows } = await db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
    const status = await migrationStatus(db);
    return { status: 'ok', backend: db.backend, postgres_version: rows[0]?.version ?? null, migration: status.current };
  });

  app.get('/ready', async (_request, reply) => {
    try {
      const status = await migrationStatus(db);
      const ready = status.pending.length === 0;
      return reply.status(ready ? 200 : 503).send({ ready, migration: status.current, pending: status.pending });
    } catch {
      return reply.status(503).header('retry-after', '1').send({ ready: false, database: 'unreachable' });
    }
  });
}
