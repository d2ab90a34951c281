/** `staykit rest --schema a,b`: PostgREST-style server for any schemas (no keys, no tenancy, no migrations). */
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/open.js';
import { buildRestApp } from '../../http/rest-app.js';
import { UsageError } from '../support/usage-error.js';
import { exitGracefullyOnSignals } from '../support/exit-on-signals.js';

export interface RestFlags {
  schema?: string | undefined;
  role?: string | undefined;
  /** Aggregates in `select` (PostgREST's db-aggregates-enabled). */
  aggregates?: boolean | undefined;
  /** `Accept: application/vnd.pgrst.plan` (PostgREST's db-plan-enabled). */
  plans?: boolean | undefined;
}

export async function rest(config: Config, flags: RestFlags): Promise<void> {
  const schemas = (flags.schema ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (schemas.length === 0) throw new UsageError('--schema is required');
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const { rows } = await db.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname = ANY($1::text[])', [schemas]);
  const missing = schemas.filter((schema) => !rows.some((row) => row.nspname === schema));
  if (missing.length > 0) {
    await db.close();
    throw new UsageError(`no schema "${missing[0]}" in the database`);
  }
  const app = await buildRestApp({ db, schema: schemas, role: flags.role, logLevel: config.logLevel, aggregates: flags.aggregates, plans: flags.plans });
  const address = await app.listen({ port: config.port, host: config.host });
  exitGracefullyOnSignals(async () => {
    await app.close();
    await db.close();
  });
  console.log(`PostgREST-compatible server for schema${schemas.length > 1 ? 's' : ''} ${schemas.map((s) => `"${s}"`).join(', ')} listening on ${address}`);
}
