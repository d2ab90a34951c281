/**
 * Extending the schema has no hidden duties (migration 0221, docs/schema.md#who-may-read-and-write-what): a migration
 * that adds a column or a tenant table, and nothing else, gives API keys read and write access to it through /v1 —
 * no grant by hand — while a column its migration marks not writable stays refused, a new products column is
 * settable by /v1/create-product, and a table without row-level security or a rule for a column that does not exist
 * fails the run instead of opening or hiding something silently. docs/schema.md's list of columns clients cannot
 * write names every such rule.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { migrate, migrationIds, migrationStatus, MIGRATIONS_DIR } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/types.js';

/** What a later migration would add: columns, a column the server owns, a tenant table with its policies. */
const EXTENSION = `
ALTER TABLE api.contacts ADD COLUMN loyalty_tier text;
ALTER TABLE api.contacts ADD COLUMN loyalty_points integer NOT NULL DEFAULT 0;
INSERT INTO staykit_internal.api_access (table_name, column_name, insertable, updatable, why)
  VALUES ('contacts', 'loyalty_points', false, false, 'counted by the server');
ALTER TABLE api.products ADD COLUMN pets_allowed boolean NOT NULL DEFAULT false;

CREATE TABLE api.parking_spots (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  label text NOT NULL,
  PRIMARY KEY (organization_id, id)
);
ALTER TABLE api.parking_spots ENABLE ROW LEVEL SECURITY;
ALTER TABLE api.parking_spots FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON api.parking_spots TO staykit_api
  USING (organization_id = (SELECT staykit_internal.current_organization_id()))
  WITH CHECK (organization_id = (SELECT staykit_internal.current_organization_id()));
SELECT staykit_internal.enforce_read_scope('api.parking_spots');
`;

/**
 * Runs `sql` as the next migration of `db` through the real runner, as a deploy would: in a folder that also holds
 * every migration the database has applied (the runner refuses a database with migrations it does not know — one a
 * newer Staykit made), the earlier test migrations as placeholders since the runner skips what is applied.
 */
async function migrateWith(db: Database, id: string, sql: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'staykit-grants-'));
  try {
    const shipped = new Set(await migrationIds());
    for (const applied of (await migrationStatus(db)).applied) {
      if (shipped.has(applied)) await copyFile(join(MIGRATIONS_DIR, `${applied}.sql`), join(dir, `${applied}.sql`));
      else await writeFile(join(dir, `${applied}.sql`), '-- applied earlier in this test\n');
    }
    await writeFile(join(dir, `${id}.sql`), sql);
    return await migrate(db, `${dir}/`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

forEachBackend('schema: grants follow the schema', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let other: TestOrganization;

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
    app.inject({ method, url, payload, headers: { ...bearer(org.key), ...headers } });

  before(async () => {
    assert.deepEqual(await migrateWith(ctx.db, '9001_extension', EXTENSION), ['9001_extension']);
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Extended');
    other = await createOrganization(ctx.db, 'Other');
  });
  after(() => app.close());

  it('lets an API key write and read a column added by a migration, without any other step', async () => {
    const created = await call('POST', '/v1/contacts?select=id,loyalty_tier', { first_name: 'Ada', loyalty_tier: 'gold' },
      { prefer: 'return=representation' });
    assert.equal(created.statusCode, 201, created.body);
    const [{ id, loyalty_tier: tier }] = created.json() as [{ id: string; loyalty_tier: string }];
    assert.equal(tier, 'gold');
    const patched = await call('PATCH', `/v1/contacts?id=eq.${id}`, { loyalty_tier: 'platinum' });
    assert.equal(patched.statusCode, 204, patched.body);
    const read = await call('GET', `/v1/contacts?id=eq.${id}&select=loyalty_tier,loyalty_points`);
    assert.deepEqual(read.json(), [{ loyalty_tier: 'platinum', loyalty_points: 0 }]);
  });

  it('keeps refusing a column its migration marked not writable', async () => {
    const strict = { prefer: 'handling=strict' };
    const inserted = await call('POST', '/v1/contacts', { first_name: 'Bo', loyalty_points: 500 }, strict);
    assert.equal(inserted.statusCode, 400, inserted.body);
    assert.equal(inserted.json().code, 'SK407');
    const updated = await call('PATCH', '/v1/contacts?first_name=eq.Ada', { loyalty_points: 500 }, strict);
    assert.equal(updated.statusCode, 400, updated.body);
    assert.equal(updated.json().code, 'SK407');
    // Without handling=strict the value is left out, as for every server-owned column (PostgREST's behaviour).
    await call('PATCH', '/v1/contacts?first_name=eq.Ada', { loyalty_points: 500 });
    assert.deepEqual((await call('GET', '/v1/contacts?first_name=eq.Ada&select=loyalty_points')).json(), [{ loyalty_points: 0 }]);
    const { rows } = await ctx.db.query<{ insert: boolean; update: boolean }>(`
      SELECT has_column_privilege('staykit_api', 'api.contacts', 'loyalty_points', 'INSERT') AS insert,
             has_column_privilege('staykit_api', 'api.contacts', 'loyalty_points', 'UPDATE') AS update`);
    assert.deepEqual(rows, [{ insert: false, update: false }]);
  });

  it('offers a table added by a migration on /v1, for the key\'s own organization only', async () => {
    const created = await call('POST', '/v1/parking_spots', { label: 'P1' }, { prefer: 'return=representation' });
    assert.equal(created.statusCode, 201, created.body);
    const [spot] = created.json() as { id: string; organization_id: string }[];
    assert.equal(spot!.organization_id, org.id);
    assert.equal((await call('PATCH', `/v1/parking_spots?id=eq.${spot!.id}`, { label: 'P2' })).statusCode, 204);
    assert.deepEqual((await call('GET', '/v1/parking_spots?select=label')).json(), [{ label: 'P2' }]);
    const theirs = await app.inject({ method: 'GET', url: '/v1/parking_spots', headers: bearer(other.key) });
    assert.deepEqual(theirs.json(), []);
    const strict = await call('POST', '/v1/parking_spots', { label: 'P3', created_at: '2020-01-01T00:00:00Z' },
      { prefer: 'handling=strict' });
    assert.equal(strict.statusCode, 400, strict.body);
    assert.equal((await call('DELETE', `/v1/parking_spots?id=eq.${spot!.id}`)).statusCode, 204);
  });

  it('reads a new products column (products are granted per column) and sets it on /v1/create-product', async () => {
    const created = await call('POST', '/v1/create-product',
      { name: 'Dog-friendly cabin', rent_period: 'nightly', timezone: 'Europe/Amsterdam', pets_allowed: true });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().pets_allowed, true);
    const read = await call('GET', `/v1/products?id=eq.${created.json().id as string}&select=pets_allowed`);
    assert.deepEqual(read.json(), [{ pets_allowed: true }]);
  });

  it('refuses a field /v1/create-product does not take, listing the ones it does', async () => {
    const response = await call('POST', '/v1/create-product',
      { name: 'X', rent_period: 'nightly', timezone: 'UTC', deleted_at: '2027-01-01T00:00:00Z', colour: 'red' });
    assert.equal(response.statusCode, 400, response.body);
    const body = response.json() as { code: string; message: string; details: string };
    assert.equal(body.code, 'SK601');
    assert.equal(body.message, 'Unknown or server-owned fields: colour, deleted_at');
    assert.match(body.details, /^create-product takes: .*\bpets_allowed\b/);
    assert.doesNotMatch(body.details, /\b(organization_id|created_at|deleted_at|ical_export_secret|fts)\b/);
  });

  it('fails the run, changing nothing, when a table would be granted without row-level security', async () => {
    await assert.rejects(
      migrateWith(ctx.db, '9002_open_table', 'CREATE TABLE api.open_table (id uuid PRIMARY KEY, organization_id uuid);'),
      /api\.open_table has no row-level security/);
    const { rows } = await ctx.db.query<{ present: boolean }>(`SELECT to_regclass('api.open_table') IS NOT NULL AS present`);
    assert.deepEqual(rows, [{ present: false }]);
  });

  it('docs/schema.md names every column the rules keep from clients', async () => {
    const { rows } = await ctx.db.query<{ name: string }>(`
      SELECT table_name || '.' || column_name AS name FROM staykit_internal.api_access
      WHERE table_name <> '*' AND column_name <> '*' AND (insertable = false OR updatable = false)
        AND (table_name, column_name) <> ('contacts', 'loyalty_points')
      ORDER BY 1`);
    const section = readFileSync('docs/schema.md', 'utf8').split('### Columns you cannot write')[1]!.split('\n### ')[0]!;
    assert.deepEqual(rows.map((row) => row.name).filter((name) => !section.includes(`\`${name}\``)), []);
  });

  it('fails the run when a rule names a column that does not exist', async () => {
    await assert.rejects(migrateWith(ctx.db, '9003_typo', `
      INSERT INTO staykit_internal.api_access (table_name, column_name, updatable, why)
        VALUES ('contacts', 'loyalty_tierr', false, 'a typo');`), /rules for tables or columns that do not exist: \(contacts, loyalty_tierr\)/);
  });
});
