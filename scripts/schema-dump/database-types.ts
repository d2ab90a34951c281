/**
 * schema/database.types.ts: the `Database` type of the API (`staykit gen types typescript`), the one typed face of the
 * schema that the server's booking model, the dashboard's `PostgrestClient<Database>` and its row types are checked
 * against. Committed rather than made in the build, so `tsc` needs no database and `npm ci` no migration; written by
 * `npm run schema:dump` with the schema dump (after every migration change), and test/schema/database-types.test.ts
 * fails while it differs from what the migrations make — so a renamed column fails the typecheck of whatever still
 * uses its old name once the file is regenerated, and a new column reaches the model with no edit.
 */
import { fileURLToPath } from 'node:url';
import type { Queryable } from '../../src/db/types.js';
import { databaseTypes } from '../../src/typegen/load.js';

/** Where the generated types are committed. */
export const DATABASE_TYPES_FILE = fileURLToPath(new URL('../../schema/database.types.ts', import.meta.url));

const HEADER = '// Written by `npm run schema:dump` (scripts/schema-dump/database-types.ts) from the migrated database: do not edit.\n';

/** The text of the committed types for `db`, a freshly migrated database. */
export async function committedDatabaseTypes(db: Queryable): Promise<string> {
  return HEADER + await databaseTypes(db);
}
