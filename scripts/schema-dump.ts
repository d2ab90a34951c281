/**
 * `npm run schema:dump`: migrates a fresh in-memory embedded database and writes what the migrations made —
 * schema/schema.sql (tables, policies, grants, functions, triggers) and schema/triggers.md (what a change to each
 * table sets off) — so the current database can be read without replaying ~60 migration files. Run it after changing
 * a migration; test/schema/dump.test.ts fails until the committed files match. It also writes the dashboard's copy of
 * the API's types (scripts/schema-dump/database-types.ts), which the same migrations make.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { dumpSchema, migratedEmbedded, SCHEMA_DIR } from './schema-dump/dump.js';
import { DATABASE_TYPES_FILE, committedDatabaseTypes } from './schema-dump/database-types.js';

const started = performance.now();
const { db, migrations } = await migratedEmbedded();
try {
  const files = await dumpSchema(db, migrations);
  await mkdir(SCHEMA_DIR, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(SCHEMA_DIR, name), text);
  await writeFile(DATABASE_TYPES_FILE, await committedDatabaseTypes(db));
  console.log(`wrote schema/${Object.keys(files).join(', schema/')}, ${relative(process.cwd(), DATABASE_TYPES_FILE)} (${migrations.length} migrations, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
} finally {
  await db.close();
}
