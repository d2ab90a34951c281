/**
 * web/dashboard/src/api/database.types.ts: the `Database` type of the API (`staykit gen types typescript`), which the
 * dashboard's `PostgrestClient<Database>` and its row types are checked against. Committed rather than made in the
 * build, so `tsc` needs no database and `npm ci` no migration; written by `npm run schema:dump` with the schema dump
 * (after every migration change), and test/dashboard/database-types.test.ts fails while it differs from what the
 * migrations make — so a renamed column fails the dashboard's typecheck once the file is regenerated.
 */
import { fileURLToPath } from 'node:url';
import type { Queryable } from '../../src/db/types.js';
import { databaseTypes } from '../../src/typegen/load.js';

/** Where the dashboard's copy is committed. */
export const DASHBOARD_TYPES_FILE = fileURLToPath(new URL('../../web/dashboard/src/api/database.types.ts', import.meta.url));

const HEADER = '// Written by `npm run schema:dump` (scripts/schema-dump/dashboard-types.ts) from the migrated database: do not edit.\n';

/** The text of the dashboard's copy for `db`, a freshly migrated database. */
export async function dashboardTypes(db: Queryable): Promise<string> {
  return HEADER + await databaseTypes(db);
}
