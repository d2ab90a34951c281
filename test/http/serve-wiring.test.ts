/**
 * What `staykit serve` wires around the routes, checked on the real process an operator runs: the body and URL
 * size limits, router errors in the API's error shape (frameworkErrors), observability (`/metrics`, the request id
 * header) and the rate limit from its settings. A wiring dropped from serve fails here even when `buildApp`'s own
 * tests pass. PostgreSQL only: the process runs on the test database through DATABASE_URL.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

const MIB = 1024 * 1024;
const RATE_LIMIT_PER_MINUTE = 1234;

async function assertApiError(response: Response, status: number, code: string): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  const body = JSON.parse(text) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
  assert.equal(body.code, code, text);
}

describe('staykit serve wiring [postgres]', { skip: !BACKENDS.includes('postgres') && 'needs PostgreSQL' }, () => {
  let testDb: TestDatabase;
  let server: ServerProcess;
  let org: TestOrganization;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    org = await createOrganization(testDb.db, 'serve wiring');
    server = await startServerProcess({
      DATABASE_URL: testDb.url!,
      STAYKIT_RATE_LIMIT: String(RATE_LIMIT_PER_MINUTE),
      STAYKIT_RATE_LIMIT_BURST: '1000',
    });
  });
  after(async () => {
    await server?.stop();
    await testDb?.drop();
  });

  it('refuses a body one byte over the documented 1 MiB with 413 SK413', async () => {
    const response = await fetch(`${server.url}/v1/contacts`, {
      method: 'POST',
      headers: { ...bearer(org.key), 'content-type': 'application/json' },
      body: `[${' '.repeat(MIB - 1)}]`,
    });
    await assertApiError(response, 413, 'SK413');
  });

  it('refuses a request target over 8 KiB with 414 SK414', async () => {
    const response = await fetch(`${server.url}/v1/products?select=id&name=eq.${'x'.repeat(8 * 1024)}`, { headers: bearer(org.key) });
    await assertApiError(response, 414, 'SK414');
  });

  it('answers a path the router cannot decode in the API error shape (400)', async () => {
    const response = await fetch(`${server.url}/v1/%E0%A4%A`, { headers: bearer(org.key) });
    assert.equal(response.status, 400);
    const body = await response.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
  });

  it('serves /metrics and gives every response a request id', async () => {
    const metrics = await fetch(`${server.url}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(await metrics.text(), /^staykit_http_requests_total/m);
    const products = await fetch(`${server.url}/v1/products?select=id`, { headers: { ...bearer(org.key), 'x-request-id': 'wiring-1' } });
    await products.arrayBuffer();
    assert.equal(products.headers.get('x-request-id'), 'wiring-1');
  });

  it('applies the rate limit of its settings', async () => {
    const response = await fetch(`${server.url}/v1/products?select=id`, { headers: bearer(org.key) });
    await response.arrayBuffer();
    assert.equal(response.status, 200);
    assert.match(response.headers.get('ratelimit-policy') ?? '', new RegExp(`q=${RATE_LIMIT_PER_MINUTE}\\b`));
    assert.ok(response.headers.get('ratelimit'), 'the state header');
  });
});
