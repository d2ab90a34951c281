/**
 * Casts in `select` through the real app: plain data types work; catalog-lookup types (`regclass`, `regrole`, …),
 * which would let a tenant probe the shared cluster's catalog, are refused with 400 PGRST100 before any SQL runs.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';

forEachBackend('select casts', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Casts');
    await fixtures(ctx.db, org.id).contact({ first_name: 'pg_class', address: { n: 1 } });
  });
  after(() => app.close());

  const get = (select: string) =>
    app.inject({ method: 'GET', url: `/v1/contacts?select=${encodeURIComponent(select)}`, headers: bearer(org.key) });

  it('casts to plain types', async () => {
    const ok = await get('first_name::text,n:address->>n::INTEGER,address::json,created:created_at::timestamp with time zone,id::uuid,names:address->>names::text[]');
    assert.equal(ok.statusCode, 200, ok.body);
    const [row] = ok.json() as { first_name: string; n: number; address: unknown }[];
    assert.equal(row!.first_name, 'pg_class');
    assert.equal(row!.n, 1);
    assert.deepEqual(row!.address, { n: 1 });
  });

  it('refuses casts to other types, naming the allowed ones', async () => {
    for (const type of ['regclass', 'regrole', 'regproc', 'regnamespace', 'oid', 'pg_lsn', 'regclass[]', 'RegClass', 'name']) {
      const response = await get(`first_name::${type}`);
      assert.equal(response.statusCode, 400, `${type}: ${response.body}`);
      const body = response.json() as { code: string; message: string; details: string };
      assert.equal(body.code, 'PGRST100');
      assert.match(body.message, /failed to parse select parameter/);
      assert.match(body.details, /casts are limited to the types text, .*jsonb, uuid/);
    }
  });
});
