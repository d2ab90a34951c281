import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startLoggedApp, type TestOrganization } from '../support/app.js';
import { isSaneRequestId } from '../../src/observability/request-id.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The value of one sample line of the Prometheus text format, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return undefined;
}

it('accepts only sane client request ids', () => {
  assert.equal(isSaneRequestId('abc-123_x.y:z'), true);
  assert.equal(isSaneRequestId('a'.repeat(128)), true);
  assert.equal(isSaneRequestId('a'.repeat(129)), false);
  assert.equal(isSaneRequestId('has space'), false);
  assert.equal(isSaneRequestId('line\nbreak'), false);
  assert.equal(isSaneRequestId(''), false);
  assert.equal(isSaneRequestId(['a', 'b']), false);
});

forEachBackend('observability', (ctx) => {
  let app: FastifyInstance;
  let logs: Record<string, unknown>[];
  let org: TestOrganization;
  before(async () => {
    ({ app, logs } = await startLoggedApp(ctx.db));
    org = await createOrganization(ctx.db, 'observability');
  });
  after(() => app.close());

  it('puts a request id on every response, the client\'s when sane', async () => {
    for (const [url, headers] of [['/health', {}], ['/nope', {}], ['/v1/bookings', {}], ['/v1/bookings', bearer(org.key)]] as const) {
      const response = await app.inject({ method: 'GET', url, headers });
      assert.match(String(response.headers['x-request-id']), UUID, `${url} ${response.statusCode}`);
    }
    const kept = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'lb-7f3a.42' } });
    assert.equal(kept.headers['x-request-id'], 'lb-7f3a.42');
    const replaced = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'evil"\u0001id with spaces' } });
    assert.match(String(replaced.headers['x-request-id']), UUID);
    const error = await app.inject({ method: 'GET', url: '/v1/bookings?id=zz.1', headers: { ...bearer(org.key), 'x-request-id': 'req-400' } });
    assert.equal(error.statusCode, 400);
    assert.equal(error.headers['x-request-id'], 'req-400');
  });

  it('logs one JSON line per request with ids, route, status and duration — never the key, headers, query or body', async () => {
    logs.length = 0;
    const secretEmail = 'guest.private@example.com';
    const response = await app.inject({
      method: 'GET', url: `/v1/contacts?email=eq.${secretEmail}`, headers: { ...bearer(org.key), 'x-request-id': 'log-test-1', cookie: 'session=abc' },
    });
    assert.equal(response.statusCode, 200, response.body);
    const write = await app.inject({
      method: 'POST', url: '/v1/contacts', headers: { ...bearer(org.key), 'content-type': 'application/json', 'x-request-id': 'log-test-2' },
      payload: { first_name: 'Ana', email: secretEmail },
    });
    assert.ok(write.statusCode < 300, write.body);
    const lines = logs.filter((line) => line.request_id === 'log-test-1');
    assert.equal(lines.length, 1, JSON.stringify(logs));
    const line = lines[0]!;
    const keyId = org.key.split('_')[1];
    assert.equal(line.organization_id, org.id);
    assert.equal(line.key_id, keyId);
    assert.equal(line.method, 'GET');
    assert.equal(line.route, '/v1/contacts');
    assert.equal(line.path, '/v1/contacts');
    assert.equal(line.status, 200);
    assert.equal(typeof line.duration_ms, 'number');
    assert.equal(line.level, 30);
    if (process.env.STAYKIT_PRINT_LOG_LINE) console.log(JSON.stringify(line));
    assert.equal(logs.filter((entry) => entry.request_id === 'log-test-2').length, 1);
    const everything = JSON.stringify(logs);
    assert.ok(!everything.includes(org.key), 'the API key is never logged');
    assert.ok(!everything.includes(org.key.split('_').at(-1)!), 'nor its secret');
    assert.ok(!everything.includes(secretEmail), 'nor guest data from the query or body');
    assert.ok(!everything.toLowerCase().includes('bearer'), 'nor the Authorization header');
    assert.ok(!everything.includes('session=abc'), 'nor cookies');
  });

  it('successful probes and scrapes are not logged at info', async () => {
    logs.length = 0;
    await app.inject({ method: 'GET', url: '/ready', headers: { 'x-request-id': 'probe-1' } });
    await app.inject({ method: 'GET', url: '/metrics', headers: { 'x-request-id': 'probe-2' } });
    assert.deepEqual(logs.filter((entry) => String(entry.request_id).startsWith('probe-')), []);
  });

  it('an unauthenticated request is logged without organization or key', async () => {
    logs.length = 0;
    await app.inject({ method: 'GET', url: '/v1/bookings', headers: { authorization: 'Bearer sk_aaaaaaaaaaaa_notarealsecret', 'x-request-id': 'anon-1' } });
    const line = logs.find((entry) => entry.request_id === 'anon-1')!;
    assert.equal(line.status, 401);
    assert.equal(line.organization_id, null);
    assert.equal(line.key_id, null);
    assert.ok(!JSON.stringify(logs).includes('notarealsecret'));
  });

  it('/metrics counts requests by method, route pattern and status, and times them', async () => {
    const before = await app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(before.statusCode, 200);
    assert.match(String(before.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const labels = { method: 'GET', route: '/v1/coupons', status: '200' };
    const start = sample(before.body, 'staykit_http_requests_total', labels) ?? 0;
    const unknownStart = sample(before.body, 'staykit_http_requests_total', { route: '/v1/:resource', status: '404' }) ?? 0;
    const unmatchedStart = sample(before.body, 'staykit_http_requests_total', { route: 'unmatched', status: '404' }) ?? 0;
    for (let i = 0; i < 3; i++) {
      const response = await app.inject({ method: 'GET', url: `/v1/coupons?limit=${i + 1}`, headers: bearer(org.key) });
      assert.equal(response.statusCode, 200);
    }
    await app.inject({ method: 'GET', url: '/v1/not_a_table_xyz', headers: bearer(org.key) });
    await app.inject({ method: 'GET', url: '/definitely/not/here' });
    const afterText = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.equal(sample(afterText, 'staykit_http_requests_total', labels), start + 3);
    assert.equal(sample(afterText, 'staykit_http_request_duration_seconds_count', labels), start + 3);
    assert.ok((sample(afterText, 'staykit_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }) ?? 0) >= 3);
    // Unknown names stay in the pattern (bounded label values), unmatched paths are one label.
    assert.equal(sample(afterText, 'staykit_http_requests_total', { route: '/v1/:resource', status: '404' }), unknownStart + 1);
    assert.equal(sample(afterText, 'staykit_http_requests_total', { route: 'unmatched', status: '404' }), unmatchedStart + 1);
    assert.ok(!afterText.includes('not_a_table_xyz'));
    assert.ok(!afterText.includes('definitely'));
    assert.ok(sample(afterText, 'process_cpu_user_seconds_total') !== undefined);
  });

  it('/metrics shows the webhook queue depth', async () => {
    const read = async () => sample((await app.inject({ method: 'GET', url: '/metrics' })).body, 'staykit_webhook_queue_depth');
    const start = await read();
    assert.equal(typeof start, 'number');
    const webhook = await app.inject({
      method: 'POST', url: '/v1/webhooks', headers: { ...bearer(org.key), 'content-type': 'application/json' },
      payload: { endpoint: 'https://hooks.example.com/staykit', events: ['coupons.created'] },
    });
    assert.equal(webhook.statusCode, 201, webhook.body);
    const coupon = await app.inject({
      method: 'POST', url: '/v1/coupons', headers: { ...bearer(org.key), 'content-type': 'application/json' },
      payload: { code: 'QUEUE1', definition: { type: 'fixed', value: 500 }, scope: 'global' },
    });
    assert.equal(coupon.statusCode, 201, coupon.body);
    assert.equal(await read(), start! + 1);
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.equal(sample(text, 'staykit_webhook_queue_due'), start! + 1);
    assert.ok((sample(text, 'staykit_webhook_queue_oldest_seconds') ?? -1) >= 0);
  });
});

it('reports the database pool when the Database exposes poolStats()', async () => {
  const { createMetrics } = await import('../../src/observability/metrics.js');
  const db = {
    backend: 'postgres' as const,
    query: async () => ({ rows: [{ queued: 3, due: 1, oldest_seconds: 12.5 }], rowCount: 1 }),
    exec: async () => undefined,
    transaction: async () => { throw new Error('unused'); },
    close: async () => undefined,
    poolStats: () => ({ total: 7, idle: 2, waiting: 4, max: 10 }),
  };
  const metrics = createMetrics(db as never, (error) => { throw error; });
  const text = await metrics.registry.metrics();
  assert.equal(sample(text, 'staykit_db_pool_connections'), 7);
  assert.equal(sample(text, 'staykit_db_pool_idle'), 2);
  assert.equal(sample(text, 'staykit_db_pool_waiting'), 4);
  assert.equal(sample(text, 'staykit_db_pool_max'), 10);
  assert.equal(sample(text, 'staykit_webhook_queue_depth'), 3);
  assert.equal(sample(text, 'staykit_webhook_queue_due'), 1);
  assert.equal(sample(text, 'staykit_webhook_queue_oldest_seconds'), 12.5);
});

it('a failing queue query reports NaN instead of failing the scrape', async () => {
  const { createMetrics } = await import('../../src/observability/metrics.js');
  const failures: string[] = [];
  const db = { backend: 'postgres' as const, query: async () => { throw new Error('database is down'); } };
  const metrics = createMetrics(db as never, (_error, what) => failures.push(what));
  const text = await metrics.registry.metrics();
  assert.ok(text.includes('staykit_http_requests_total'));
  assert.ok(Number.isNaN(sample(text, 'staykit_webhook_queue_depth')));
  assert.ok(failures.length >= 1);
});
