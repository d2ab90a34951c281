/**
 * Tests build their rows with test/support/fixtures.ts, so that a new NOT NULL column is one edit there and not one
 * in every test that writes that table. A test file writes its own INSERT into an api table only where that statement
 * is what it tests; those files are listed below, each with how many such statements it holds and why. A file with
 * more fails (build the rows with fixtures()), and so does one with fewer (lower its count), so the count cannot creep
 * back.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ALLOWED: Record<string, { count: number; why: string }> = {
  'test/support/fixtures.ts': { count: 1, why: 'the builder itself' },
  'test/migrations/tenancy.test.ts': { count: 10, why: "foreign keys across organizations, and the API role's grants and policies, statement by statement" },
  'test/migrations/states.test.ts': { count: 2, why: 'webhooks written as the API role, which may neither name organization_id nor read signing_secret back' },
  'test/migrations/date-ranges.test.ts': { count: 1, why: 'dates only SQL writes (infinity, BC, year 10000), into the schema before migration 0093' },
  'test/webhooks/outbox.test.ts': { count: 2, why: 'changes written as the API role, which may not name organization_id' },
  'test/users/permissions.test.ts': { count: 1, why: "a cleaner's own INSERT, refused by row-level security" },
  'test/widget/booking-terms.test.ts': { count: 1, why: "the trigger's answer to a plain INSERT in a publishable key's transaction" },
  'test/booking/search-index-property.test.ts': { count: 3, why: 'an insert only when nothing overlaps, and upserts, of generated cases' },
  'test/changes/concurrent.test.ts': { count: 3, why: 'node-postgres clients holding their transactions open, outside the Database interface' },
  'test/limits/public-traffic.test.ts': { count: 1, why: 'a node-postgres client holding its transaction open, outside the Database interface' },
  'test/db/pglite-slow-request.test.ts': { count: 1, why: '300 MB of rows made by the database, not sent as parameters' },
  'test/webhooks/bench.ts': { count: 1, why: 'a benchmark: any number of rows in one statement, made by the database' },
};

const RAW_INSERT = /INSERT\s+INTO\s+api\./gi;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.(?:ts|tsx|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

test('test files build their rows with fixtures(); only the listed ones write INSERT statements into api tables', () => {
  const found = new Map(sourceFiles('test')
    .map((file) => [file, readFileSync(file, 'utf8').match(RAW_INSERT)?.length ?? 0] as const)
    .filter(([, count]) => count > 0));
  const problems: string[] = [];
  for (const [file, count] of found) {
    const allowed = ALLOWED[file]?.count ?? 0;
    if (count > allowed) {
      problems.push(`${file} writes ${count} INSERT statements into api tables, ${allowed} allowed: build the rows with fixtures() `
        + 'from test/support/fixtures.ts, or, where the statement itself is what the test is about, list it here with why');
    }
  }
  for (const [file, { count }] of Object.entries(ALLOWED)) {
    const now = found.get(file) ?? 0;
    if (now < count) problems.push(`${file} is allowed ${count} INSERT statements and holds ${now}: lower its count here (or drop the entry)`);
  }
  assert.deepEqual(problems, []);
});
