/** `staykit rest --schema NAME`: PostgREST-style server for any schema (no keys, no tenancy, no migrations). */
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/open.js';
import { buildRestApp } from '../../http/rest-app.js';
import { UsageError } from '../support/usage-error.js';

export async function rest(config: Config, schema: string | undefined, role: string | undefined): Promise<void> {
  if (!schema) throw new UsageError('--schema is required');
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const { rows } = await db.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (rows.length === 0) {
    await db.close();
    throw new UsageError(`no schema "${schema}" in the database`);
  }
  const app = await buildRestApp({ db, schema, role, logLevel: config.logLevel });
  const address = await app.listen({ port: config.port, host: config.host });
  console.log(`PostgREST-compatible server for schema "${schema}" listening on ${address}`);
  const shutdown = async () => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}
