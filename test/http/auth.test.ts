import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { revokeApiKey } from '../../src/auth/api-key-store.js';
import { parseApiKey } from '../../src/auth/api-key-format.js';

forEachBackend('API key authentication and scopes', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Auth test');
  });
  after(() => app.close());

  const get = (headers: Record<string, string>, url = '/v1/products') => app.inject({ method: 'GET', url, headers });

  it('answers a valid key with 200', async () => {
    const response = await get(bearer(org.key));
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), []);
  });

  it('answers a missing, malformed, unknown or wrong-secret key with 401, WWW-Authenticate and the error shape', async () => {
    const other = parseApiKey(org.key)!;
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      bearer('sk_aaaaaaaaaaaa_0000000000000000000000000000000000000000000'),
      bearer(`sk_${other.keyId}_${'x'.repeat(43)}`),
      bearer('not-a-key'),
    ];
    for (const headers of cases) {
      const response = await get(headers);
      assert.equal(response.statusCode, 401, JSON.stringify(headers));
      assert.match(String(response.headers['www-authenticate']), /^Bearer/);
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
      assert.equal(body.code, 'SK401');
    }
  });

  it('does not tell an unknown key from a wrong secret', async () => {
    const keyId = parseApiKey(org.key)!.keyId;
    const unknown = await get(bearer('sk_aaaaaaaaaaaa_0000000000000000000000000000000000000000000'));
    const wrongSecret = await get(bearer(`sk_${keyId}_0000000000000000000000000000000000000000000`));
    assert.deepEqual(unknown.json(), wrongSecret.json());
    assert.equal(unknown.headers['www-authenticate'], wrongSecret.headers['www-authenticate']);
  });

  it('rejects an expired key', async () => {
    const key = await createKey(ctx.db, org.id, ['read'], new Date(Date.now() + 1500).toISOString());
    assert.equal((await get(bearer(key))).statusCode, 200);
    await new Promise((resolve) => setTimeout(resolve, 3600));
    assert.equal((await get(bearer(key))).statusCode, 401);
  });

  it('rejects a revoked key within the cache lifetime (2 s)', async () => {
    const key = await createKey(ctx.db, org.id, ['read']);
    assert.equal((await get(bearer(key))).statusCode, 200);
    await revokeApiKey(ctx.db, parseApiKey(key)!.keyId);
    const deadline = Date.now() + 5000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await get(bearer(key))).statusCode;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(status, 401);
  });

  it('answers a missing scope with 403 naming the scope', async () => {
    const readOnly = await createKey(ctx.db, org.id, ['read']);
    const response = await app.inject({
      method: 'POST',
      url: '/v1/coupons',
      headers: { ...bearer(readOnly), 'content-type': 'application/json' },
      payload: { code: 'X', definition: { type: 'percentage', value: 5 } },
    });
    assert.equal(response.statusCode, 403);
    assert.equal(response.json().code, 'SK403');
    assert.match(response.json().message, /coupons:write/);

    const bookingsOnly = await createKey(ctx.db, org.id, ['bookings:read']);
    assert.equal((await get(bearer(bookingsOnly), '/v1/bookings')).statusCode, 200);
    const denied = await get(bearer(bookingsOnly), '/v1/products');
    assert.equal(denied.statusCode, 403);
    assert.match(denied.json().message, /products:read/);
  });
});
