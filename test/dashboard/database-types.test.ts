/**
 * The dashboard's copy of the API's types (web/dashboard/src/api/database.types.ts), which its `PostgrestClient` and
 * row types are checked against, is what the migrations make: regenerated from the test's freshly migrated database
 * on each backend and compared with the committed file. A migration changed without running `npm run schema:dump`
 * fails here; once it is run, a column the dashboard still uses under its old name fails the dashboard's typecheck.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { it } from 'node:test';
import { DASHBOARD_TYPES_FILE, dashboardTypes } from '../../scripts/schema-dump/dashboard-types.js';
import { forEachBackend } from '../support/databases.js';
import { firstDifference } from '../support/first-difference.js';

forEachBackend('the dashboard\'s API types', (ctx) => {
  it('are what the migrations make', async () => {
    const committed = await readFile(DASHBOARD_TYPES_FILE, 'utf8').catch(() => '');
    const difference = firstDifference(committed, await dashboardTypes(ctx.db));
    if (difference !== null) {
      assert.fail(`${relative(process.cwd(), DASHBOARD_TYPES_FILE)} is not what the migrations make: run \`npm run schema:dump\` and commit the result. First difference at ${difference}`);
    }
  });
});
