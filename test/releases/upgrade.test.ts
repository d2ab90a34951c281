/**
 * Upgrades from every recorded release (docs/operations.md#releases): the database each release's own code made
 * (`releases/<version>.sql.gz`, by `npm run release:dump`) is loaded into a new database on each backend and this
 * Staykit's migrations are applied. Then every row of the release is still there with the same values in the
 * columns it had, the migrations that ran are exactly the ones the release did not have, and the release's keys,
 * publishable key, webhook and dashboard login still work through the HTTP API.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { migrate, migrationIds } from '../../src/db/migrate.js';
import type { Database, Queryable } from '../../src/db/types.js';
import { currentTables, fingerprint } from '../../scripts/release-dump/fingerprints.js';
import { RELEASES_DIR, type ReleaseRecord } from '../../scripts/release-dump/record.js';
import { bearer, startApp } from '../support/app.js';
import { BACKENDS, createTestDatabase } from '../support/databases.js';

const releases = readdirSync(RELEASES_DIR).filter((file) => file.endsWith('.json')).sort()
  .map((file) => JSON.parse(readFileSync(join(RELEASES_DIR, file), 'utf8')) as ReleaseRecord);

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const rowText = (columns: readonly string[]) => `(${columns.map(quote).join(', ')})::text`;

/** Copies each table's rows, as text of the release's columns, into the schema `release_rows` (before migrating). */
async function keepReleaseRows(db: Database, release: ReleaseRecord): Promise<void> {
  await db.exec('CREATE SCHEMA release_rows');
  for (const [index, [table, { columns }]] of Object.entries(release.tables).entries()) {
    await db.exec(`CREATE TABLE release_rows.t${index} AS SELECT ${rowText(columns)} AS r FROM ${table.split('.').map(quote).join('.')}`);
  }
}

/**
 * Rows of a release that a later migration rewrites on purpose, by table: the row's text, and the migration and why.
 * Anything else gone or changed fails the test.
 */
const REWRITTEN: Record<string, Array<{ row: RegExp; why: string }>> = {
  'staykit_internal.api_access': [
    { row: /^\(calendar_event_notes,\*,/, why: '0246: booking notes may be posted, so their access rule is no longer read-only' },
    { row: /^\(payments,paid_at,/, why: '0247: a client may give the day a payment arrived, so paid_at is no longer read-only' },
    { row: /^\(refunds,refunded_at,/, why: '0247: a client may give the day a refund went back, so refunded_at is no longer read-only' },
  ],
};

/** The release's rows that are gone or changed after migrating, per table (at most 3 shown each). */
async function lostRows(db: Queryable, release: ReleaseRecord, tables: Map<string, string[]>): Promise<Record<string, string[]>> {
  const lost: Record<string, string[]> = {};
  for (const [index, [table, { columns }]] of Object.entries(release.tables).entries()) {
    const now = tables.get(table);
    if (!now) {
      lost[table] = ['the table is gone'];
      continue;
    }
    const missingColumns = columns.filter((column) => !now.includes(column));
    if (missingColumns.length > 0) {
      lost[table] = [`columns gone: ${missingColumns.join(', ')}`];
      continue;
    }
    const { rows } = await db.query<{ r: string }>(
      `SELECT r FROM release_rows.t${index} EXCEPT ALL SELECT ${rowText(columns)} FROM ${table.split('.').map(quote).join('.')}`);
    const unexplained = rows.map((row) => row.r).filter((row) => !(REWRITTEN[table] ?? []).some((rewrite) => rewrite.row.test(row)));
    if (unexplained.length > 0) lost[table] = unexplained.slice(0, 3);
  }
  return lost;
}

for (const release of releases) {
  for (const backend of BACKENDS) {
    describe(`an upgrade from ${release.version} (last migration ${release.lastMigration}) [${backend}]`, () => {
      it('keeps every row, applies exactly the new migrations, and the release\'s keys, webhook and login work', async () => {
        const testDb = await createTestDatabase(backend, { migrated: false });
        const { db } = testDb;
        try {
          await db.exec(gunzipSync(readFileSync(join(RELEASES_DIR, `${release.version}.sql.gz`))).toString('utf8'));
          // As loaded, the database is the release's: every table's rows equal the record's.
          await db.transaction(async (tx) => {
            await tx.query(`SET LOCAL TimeZone = 'UTC'`);
            for (const [table, recorded] of Object.entries(release.tables)) {
              assert.deepEqual(await fingerprint(tx, table, recorded.columns), recorded, `${table} as the release left it`);
            }
          });
          await keepReleaseRows(db, release);

          const applied = await migrate(db);
          const expected = (await migrationIds()).filter((id) => !release.migrations.includes(id));
          assert.ok(release.migrations.every((id) => !applied.includes(id)), 'no migration of the release runs again');
          assert.deepEqual(applied, expected, 'every migration the release did not have, in order');

          const lost = await db.transaction(async (tx) => {
            await tx.query(`SET LOCAL TimeZone = 'UTC'`);
            return lostRows(tx, release, await currentTables(tx));
          });
          assert.deepEqual(lost, {}, 'no row of the release is gone or changed');
          await db.exec('DROP SCHEMA release_rows CASCADE');

          const app = await startApp(db);
          try {
            const products = await app.inject({ url: '/v1/products?select=id', headers: { ...bearer(release.apiKey), prefer: 'count=exact' } });
            assert.equal(products.statusCode, 200, products.body);
            assert.equal(products.json<unknown[]>().length, release.tables['api.products']!.rows, 'the old key reads every unit');

            const webhook = await app.inject({ url: `/v1/webhooks?id=eq.${release.webhookId}&select=id,endpoint`, headers: bearer(release.apiKey) });
            assert.deepEqual(webhook.json(), [{ id: release.webhookId, endpoint: 'https://hooks.example.com/staykit' }]);

            const read = await app.inject({ url: '/v1/bookings?select=id&limit=1', headers: bearer(release.readKey) });
            assert.equal(read.statusCode, 200, 'the read-only key reads');
            const write = await app.inject({ method: 'POST', url: '/v1/coupons', headers: bearer(release.readKey), payload: { code: 'NOPE' } });
            assert.equal(write.statusCode, 403, 'and still may not write');

            const catalogue = await app.inject({ url: '/v1/widget', headers: { ...bearer(release.publishableKey), origin: 'https://www.example.com' } });
            assert.equal(catalogue.statusCode, 200, catalogue.body);
            assert.equal(catalogue.headers['access-control-allow-origin'], 'https://www.example.com', 'the widget\'s allowed origin survived');

            const login = await app.inject({ method: 'POST', url: '/auth/login', payload: release.dashboardLogin });
            assert.equal(login.statusCode, 200, 'the dashboard login works');
            assert.equal(login.json<{ organizations: Array<{ id: string }> }>().organizations[0]?.id, release.organizationId);
          } finally {
            await app.close();
          }
        } finally {
          await testDb.drop();
        }
      });
    });
  }
}
