/**
 * The committed API types (schema/database.types.ts), which the server's booking model and the dashboard's
 * `PostgrestClient` and row types are checked against, are what the migrations make: regenerated from the test's freshly migrated database
 * on each backend and compared with the committed file. A migration changed without running `npm run schema:dump`
 * fails here; once it is run, a column still used under its old name fails the server's or the dashboard's typecheck.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { it } from 'node:test';
import { DATABASE_TYPES_FILE, committedDatabaseTypes } from '../../scripts/schema-dump/database-types.js';
import { forEachBackend } from '../support/databases.js';
import { firstDifference } from '../support/first-difference.js';

forEachBackend('the committed API types', (ctx) => {
  it('are what the migrations make', async () => {
    const committed = await readFile(DATABASE_TYPES_FILE, 'utf8').catch(() => '');
    const difference = firstDifference(committed, await committedDatabaseTypes(ctx.db));
    if (difference !== null) {
      assert.fail(`${relative(process.cwd(), DATABASE_TYPES_FILE)} is not what the migrations make: run \`npm run schema:dump\` and commit the result. First difference at ${difference}`);
    }
  });
});
