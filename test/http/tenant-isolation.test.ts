/**
 * Row-level security is the guard that matters: with the engine's own tenant predicate switched off (a "forgotten
 * WHERE"), requests still see and change only their organization's rows.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { createOrganization, type TestOrganization } from '../support/app.js';
import { Authenticator } from '../../src/auth/authenticate.js';
import type { Principal } from '../../src/auth/principal.js';
import { inTenantTransaction } from '../../src/transaction/tenant-transaction.js';
import { loadSchemaCache } from '../../src/schema/load.js';
import { runRequest } from '../../src/query/run.js';
import type { EngineOptions } from '../../src/query/plan/types.js';
import type { EngineRequest } from '../../src/query/parse/request.js';
import type { SchemaCache } from '../../src/schema/types.js';

const WITHOUT_TENANT_FILTER: EngineOptions = { maxRows: 1000, requireFilterForWrites: false, basePath: '/v1' };

forEachBackend('tenant isolation by row-level security alone', (ctx) => {
  let cache: SchemaCache;
  let alice: TestOrganization;
  let bob: TestOrganization;
  let alicePrincipal: Principal;
  let aliceProduct: string;

  const request = (method: string, path: string, query = '', body?: unknown): EngineRequest => ({
    method,
    path,
    query,
    headers: { 'content-type': 'application/json', prefer: 'return=representation' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  const asBob = async (engineRequest: EngineRequest) => {
    const principal = await new Authenticator(ctx.db).authenticate(`Bearer ${bob.key}`);
    return inTenantTransaction(ctx.db, principal, async (tx) => {
      const response = await runRequest(tx, engineRequest, cache, WITHOUT_TENANT_FILTER);
      return { result: response, rollback: response.rollback };
    });
  };

  before(async () => {
    cache = await loadSchemaCache(ctx.db, { schema: 'api', role: 'staykit_api' });
    alice = await createOrganization(ctx.db, 'Alice rentals');
    bob = await createOrganization(ctx.db, 'Bob rentals');
    alicePrincipal = await new Authenticator(ctx.db).authenticate(`Bearer ${alice.key}`);
    const f = fixtures(ctx.db, alice.id);
    aliceProduct = await f.product({ name: { default: 'Villa' }, timezone: 'UTC' });
    await f.coupon({ code: 'ALICE', definition: { type: 'fixed', value: 100 } });
  });

  it('shows another organization nothing, in lists, embeds and counts', async () => {
    const products = await asBob(request('GET', 'products', 'select=id'));
    assert.equal(products.status, 200);
    assert.equal(String(products.body), '[]');
    const embedded = await asBob(request('GET', 'organizations', 'select=name,products(id),coupons(code)'));
    assert.deepEqual(JSON.parse(String(embedded.body)), [{ name: 'Bob rentals', products: [], coupons: [] }]);
  });

  it('lets no update or delete reach another organization', async () => {
    const update = await asBob(request('PATCH', 'products', `id=eq.${aliceProduct}`, { approximate_address: 'taken' }));
    assert.equal(String(update.body), '[]');
    const remove = await asBob(request('DELETE', 'coupons', 'code=eq.ALICE'));
    assert.equal(String(remove.body), '[]');
    const { rows } = await ctx.db.query<{ approximate_address: string }>('SELECT approximate_address FROM api.products WHERE id = $1', [aliceProduct]);
    assert.equal(rows[0]!.approximate_address, '');
    const coupons = await ctx.db.query('SELECT 1 FROM api.coupons WHERE code = $1 AND deleted_at IS NULL', ['ALICE']);
    assert.equal(coupons.rows.length, 1);
  });

  it('refuses an insert that points into another organization', async () => {
    const response = await asBob(request('POST', 'product_configurations', '', { product_id: aliceProduct, name: { default: 'x' } }));
    assert.equal(response.status, 409, String(response.body));
    const count = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api.product_configurations WHERE product_id = $1', [aliceProduct]);
    assert.equal(count.rows[0]!.n, 0);
  });

  it('keeps the organization setting inside its transaction', async () => {
    await inTenantTransaction(ctx.db, alicePrincipal, async (tx) => {
      const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM api.products');
      assert.equal(rows[0]!.n, 1);
      return { result: undefined, rollback: false };
    });
    const { rows } = await ctx.db.query<{ org: string | null; role: string }>(
      `SELECT nullif(current_setting('staykit.organization_id', true), '') AS org, current_user AS role`,
    );
    assert.equal(rows[0]!.org, null);
    assert.notEqual(rows[0]!.role, 'staykit_api');
  });
});
