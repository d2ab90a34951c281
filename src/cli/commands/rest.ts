/** `staykit rest --schema a,b`: PostgREST-style server for any schemas (no keys, no tenancy, no migrations). */
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/open.js';
import { buildRestApp } from '../../http/rest-app.js';
import { POSTGREST_VERSIONS, type PostgrestVersion } from '../../query/plan/types.js';
import { UsageError } from '../support/usage-error.js';
import { exitGracefullyOnSignals } from '../support/exit-on-signals.js';

export interface RestFlags {
  schema?: string | undefined;
  role?: string | undefined;
  /** Aggregates in `select` (PostgREST's db-aggregates-enabled). */
  aggregates?: boolean | undefined;
  /** `Accept: application/vnd.pgrst.plan` (PostgREST's db-plan-enabled). */
  plans?: boolean | undefined;
  /** The PostgREST version to answer as where 12 and 13 differ (`12` or `13`, the default). */
  postgrest?: string | undefined;
  /** PostgREST's db-max-rows (default: no limit, as PostgREST's). */
  'max-rows'?: string | undefined;
}

function postgrestVersion(flag: string | undefined): PostgrestVersion {
  if (flag === undefined) return 13;
  const version = POSTGREST_VERSIONS.find((v) => String(v) === flag.trim());
  if (version === undefined) throw new UsageError(`--postgrest must be one of ${POSTGREST_VERSIONS.join(', ')}`);
  return version;
}

function maxRows(flag: string | undefined): number | undefined {
  if (flag === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(flag.trim())) throw new UsageError('--max-rows must be a positive whole number');
  return Number(flag);
}

export async function rest(config: Config, flags: RestFlags): Promise<void> {
  const postgrest = postgrestVersion(flags.postgrest);
  const rowLimit = maxRows(flags['max-rows']);
  const schemas = (flags.schema ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (schemas.length === 0) throw new UsageError('--schema is required');
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const { rows } = await db.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname = ANY($1::text[])', [schemas]);
  const missing = schemas.filter((schema) => !rows.some((row) => row.nspname === schema));
  if (missing.length > 0) {
    await db.close();
    throw new UsageError(`no schema "${missing[0]}" in the database`);
  }
  const app = await buildRestApp({
    db, schema: schemas, role: flags.role, logLevel: config.logLevel, aggregates: flags.aggregates, plans: flags.plans, postgrest, maxRows: rowLimit,
  });
  const address = await app.listen({ port: config.port, host: config.host });
  exitGracefullyOnSignals(async () => {
    await app.close();
    await db.close();
  });
  console.log(`PostgREST ${postgrest}-compatible server for schema${schemas.length > 1 ? 's' : ''} ${schemas.map((s) => `"${s}"`).join(', ')} listening on ${address}`);
}
