/**
 * The committed schema dump (schema/schema.sql, schema/triggers.md) is what the migrations make: regenerated from a
 * migrated database and compared with the files, on every backend — the dump is written identically by PGlite
 * (PostgreSQL 18) and PostgreSQL 15, since it prints only what both catalogs print alike. A migration changed
 * without running `npm run schema:dump` fails here, naming the first line that differs.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { it } from 'node:test';
import { loadMigrations } from '../../src/db/migrate.js';
import { dumpSchema, SCHEMA_DIR, type DumpFiles } from '../../scripts/schema-dump/dump.js';
import { forEachBackend } from '../support/databases.js';
import { firstDifference } from '../support/first-difference.js';

forEachBackend('the committed schema dump (schema/)', (ctx) => {
  it('is what the migrations make: schema.sql and triggers.md', async () => {
    const made = await dumpSchema(ctx.db, await loadMigrations());
    for (const name of Object.keys(made) as (keyof DumpFiles)[]) {
      const committed = await readFile(join(SCHEMA_DIR, name), 'utf8').catch(() => '');
      const difference = firstDifference(committed, made[name]);
      if (difference !== null) {
        assert.fail(`schema/${name} is not what the migrations make: run \`npm run schema:dump\` and commit the result. First difference at ${difference}`);
      }
    }
  });
});
