import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';

forEachBackend('request log (api_requests)', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let other: TestOrganization;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Logged');
    other = await createOrganization(ctx.db, 'Other');
  });
  after(() => app.close());

  it('records every authenticated request and lets the organization read only its own log', async () => {
    await app.inject({ method: 'GET', url: '/v1/products?select=id', headers: bearer(org.key) });
    await app.inject({ method: 'GET', url: '/v1/nothing_here', headers: bearer(org.key) });
    await app.inject({ method: 'GET', url: '/v1/products', headers: bearer(other.key) });
    await app.inject({ method: 'GET', url: '/v1/products', headers: { authorization: 'Bearer nope' } });

    // Written in batches off the request path: poll until the batch has landed.
    let rows: { method: string; path: string; status: number; duration_ms: number }[] = [];
    for (let attempt = 0; attempt < 50 && rows.length < 2; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const response = await app.inject({ method: 'GET', url: '/v1/api_requests?select=method,path,status,duration_ms&order=created_at', headers: bearer(org.key) });
      assert.equal(response.statusCode, 200);
      rows = response.json();
    }
    assert.deepEqual(rows.slice(0, 2).map((row) => [row.method, row.path, row.status]), [
      ['GET', '/v1/products', 200],
      ['GET', '/v1/nothing_here', 404],
    ]);
    assert.ok(rows.every((row) => row.path !== '/v1/products' || row.status !== 401), 'a request without a valid key is not logged for anyone');
    assert.ok(rows.every((row) => Number.isInteger(row.duration_ms) && row.duration_ms >= 0));
  });

  it('is read-only to clients', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/api_requests',
      headers: { ...bearer(org.key), 'content-type': 'application/json' },
      payload: { method: 'GET', path: '/fake', status: 200 },
    });
    assert.equal(response.statusCode, 405);
    assert.equal(response.headers.allow, 'OPTIONS,GET,HEAD');
  });
});
