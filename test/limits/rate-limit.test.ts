/** Rate limits: policies, headers, the key a request spends, 429, Redis sharing (one and two processes), Redis down. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, startLoggedApp, type TestOrganization } from '../support/app.js';
import { policiesFor } from '../../src/limits/rate-limit.js';
import { rateLimitKey } from '../../src/limits/rate-limit-key.js';
import { policyHeader, stateHeader } from '../../src/limits/rate-limit-headers.js';
import { freshPrefix, needsRedis, REDIS_URL } from './support/redis.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

describe('rate limit policies and headers', () => {
  test('600/min with burst 100: a 60 s default policy and a 10 s burst policy', () => {
    assert.deepEqual(policiesFor(600, 100), [
      { name: 'default', quota: 600, windowSeconds: 60 },
      { name: 'burst', quota: 100, windowSeconds: 10 },
    ]);
    assert.equal(policyHeader(policiesFor(600, 100)), '"default";q=600;w=60, "burst";q=100;w=10');
    assert.deepEqual(policiesFor(60, 60), [{ name: 'default', quota: 60, windowSeconds: 60 }]);
    assert.deepEqual(policiesFor(10, 3)[1], { name: 'burst', quota: 3, windowSeconds: 18 });
    assert.throws(() => policiesFor(0, 1), RangeError);
  });

  test('uneven rate/burst ratios: a client sending steadily at the rate is never refused by the burst policy', () => {
    // 7/min with burst 2: 2 requests per 17 s (2 × 60 / 7 = 17.1 rounded down); rounded up to 18 s, a client sending
    // one request every 60/7 s would send 3 within one window and be refused below the rate.
    assert.deepEqual(policiesFor(7, 2)[1], { name: 'burst', quota: 2, windowSeconds: 17 });
    // A burst below one second's worth of the rate cannot be expressed in whole seconds: one second's worth.
    assert.deepEqual(policiesFor(600, 1)[1], { name: 'burst', quota: 10, windowSeconds: 1 });
    for (let perMinute = 2; perMinute <= 700; perMinute += 1) {
      for (let burst = 1; burst < perMinute; burst += 1) {
        const policy = policiesFor(perMinute, burst)[1]!;
        // Requests a client sending one every 60 / perMinute s has sent within one window of the policy.
        const steady = Math.ceil((policy.windowSeconds * perMinute) / 60);
        assert.ok(steady <= policy.quota, `${perMinute}/min, burst ${burst}: ${JSON.stringify(policy)} refuses a steady client`);
        assert.ok(policy.quota === burst || policy.windowSeconds === 1, `${perMinute}/min, burst ${burst}: ${JSON.stringify(policy)}`);
      }
    }
  });

  test('RateLimit field: remaining and seconds to reset per policy', () => {
    const [policy] = policiesFor(600, 100);
    assert.equal(stateHeader([{ policy: policy!, remaining: 599, resetSeconds: 60 }]), '"default";r=599;t=60');
  });

  test('the key: a Staykit key spends its key_id, anything else the address', () => {
    const ip = '203.0.113.9';
    const keyId = 'abcdefghijk2';
    const token = `sk_${keyId}_${'A'.repeat(43)}`;
    assert.equal(rateLimitKey({ ip, headers: { authorization: `Bearer ${token}` } }), `key:${keyId}`);
    assert.equal(rateLimitKey({ ip, headers: { authorization: `bearer  ${token} ` } }), `key:${keyId}`);
    assert.equal(rateLimitKey({ ip, headers: { authorization: `Bearer ${token.slice(0, -30)}` } }), `ip:${ip}`);
    assert.equal(rateLimitKey({ ip, headers: { authorization: 'Basic abc' } }), `ip:${ip}`);
    assert.equal(rateLimitKey({ ip, headers: {} }), `ip:${ip}`);
  });
});

function assertSk429(response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }): void {
  assert.equal(response.statusCode, 429);
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${String(response.headers['retry-after'])}`);
  const body = response.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
  assert.equal(body.code, 'SK429');
  assert.ok(response.headers['ratelimit-policy']);
  assert.match(String(response.headers['ratelimit']), /"default";r=\d+;t=\d+/);
}

/** A warning (pino level 40) whose message includes `text`. */
function warns(line: Record<string, unknown>, text: string): boolean {
  return line.level === 40 && String(line.msg).includes(text);
}

forEachBackend('rate limit (in memory)', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let other: TestOrganization;
  before(async () => {
    app = await startApp(ctx.db, { rateLimit: { perMinute: 10, burst: 4 } });
    org = await createOrganization(ctx.db, 'Rate A');
    other = await createOrganization(ctx.db, 'Rate B');
  });
  after(() => app.close());

  test('headers on every response; the burst policy refuses the 5th request with 429 SK429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await app.inject({ method: 'GET', url: '/v1/products?select=id', headers: bearer(org.key) });
      statuses.push(response.statusCode);
      assert.equal(response.headers['ratelimit-policy'], '"default";q=10;w=60, "burst";q=4;w=24');
      assert.equal(response.headers['ratelimit'], `"default";r=${9 - i};t=60, "burst";r=${3 - i};t=24`);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200]);
    const refused = await app.inject({ method: 'GET', url: '/v1/products', headers: bearer(org.key) });
    assertSk429(refused);
    assert.match(String(refused.headers['ratelimit']), /"burst";r=0;t=\d+/);
    // Another key is not affected.
    const fine = await app.inject({ method: 'GET', url: '/v1/products', headers: bearer(other.key) });
    assert.equal(fine.statusCode, 200);
    assert.match(String(fine.headers['ratelimit']), /^"default";r=9;t=60, "burst";r=3;t=24$/);
  });

  test('a wrong secret spends the budget of its key_id; unparseable keys spend the address', async () => {
    const victim = await createOrganization(ctx.db, 'Rate C');
    const forged = victim.key.replace(/_[^_]+$/, `_${'Z'.repeat(43)}`);
    for (let i = 0; i < 4; i += 1) {
      const response = await app.inject({ method: 'GET', url: '/v1/products', headers: bearer(forged) });
      assert.equal(response.statusCode, 401);
      assert.ok(response.headers['ratelimit']);
    }
    assertSk429(await app.inject({ method: 'GET', url: '/v1/products', headers: bearer(victim.key) }));

    const fromAddress = { remoteAddress: '198.51.100.7' };
    for (let i = 0; i < 4; i += 1) {
      const response = await app.inject({ method: 'GET', url: '/v1/products', headers: bearer('not-a-key'), ...fromAddress });
      assert.equal(response.statusCode, 401);
    }
    assertSk429(await app.inject({ method: 'GET', url: '/v1/ical/some-feed.ics', ...fromAddress }));
    const otherAddress = await app.inject({ method: 'GET', url: '/v1/products', remoteAddress: '198.51.100.8' });
    assert.equal(otherAddress.statusCode, 401);
    assert.ok(otherAddress.headers['ratelimit']);
  });

  test('/health and /ready are not limited and carry no RateLimit headers; 404s and 400s are', async () => {
    for (let i = 0; i < 12; i += 1) {
      for (const url of ['/health', '/ready']) {
        const response = await app.inject({ method: 'GET', url, remoteAddress: '192.0.2.1' });
        assert.equal(response.statusCode, 200, url);
        assert.equal(response.headers['ratelimit'], undefined);
        assert.equal(response.headers['ratelimit-policy'], undefined);
      }
    }
    const key = (await createOrganization(ctx.db, 'Rate D')).key;
    const notFound = await app.inject({ method: 'GET', url: '/nowhere', headers: bearer(key) });
    assert.equal(notFound.statusCode, 404);
    assert.match(String(notFound.headers['ratelimit']), /"default";r=9;/);
    const badFilter = await app.inject({ method: 'GET', url: '/v1/products?id=nope.1', headers: bearer(key) });
    assert.equal(badFilter.statusCode, 400);
    assert.match(String(badFilter.headers['ratelimit']), /"default";r=8;/);
  });

  test('the default policy: 10 per minute even when spread over burst windows', async () => {
    const limited = await startApp(ctx.db, { rateLimit: { perMinute: 3, burst: 100 } });
    try {
      const key = (await createOrganization(ctx.db, 'Rate E')).key;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await limited.inject({ method: 'GET', url: '/v1/products', headers: bearer(key) })).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      const refused = await limited.inject({ method: 'GET', url: '/v1/products', headers: bearer(key) });
      assertSk429(refused);
      assert.equal(refused.headers['ratelimit-policy'], '"default";q=3;w=60');
      assert.ok(Number(refused.headers['retry-after']) > 50);
    } finally {
      await limited.close();
    }
  });
});

forEachBackend('rate limit (Redis)', (ctx) => {
  test('two apps on one Redis share one limit', needsRedis, async () => {
    const rate = { perMinute: 10, burst: 5, redisUrl: REDIS_URL, keyPrefix: freshPrefix() };
    const first = await startApp(ctx.db, { rateLimit: rate });
    const second = await startApp(ctx.db, { rateLimit: rate });
    try {
      const org = await createOrganization(ctx.db, 'Shared');
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const app = i % 2 === 0 ? first : second;
        const response = await app.inject({ method: 'GET', url: '/v1/products', headers: bearer(org.key) });
        statuses.push(response.statusCode);
        if (i < 5) assert.match(String(response.headers['ratelimit']), new RegExp(`"burst";r=${4 - i};`));
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  test('Redis unreachable: requests still answer (counted in memory), a warning is logged, never a 500', async () => {
    const { app, logs } = await startLoggedApp(ctx.db, {
      rateLimit: { perMinute: 100, burst: 3, redisUrl: 'redis://127.0.0.1:1', keyPrefix: freshPrefix() },
    });
    try {
      const org = await createOrganization(ctx.db, 'No Redis');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const response = await app.inject({ method: 'GET', url: '/v1/products', headers: bearer(org.key) });
        statuses.push(response.statusCode);
        assert.ok(response.headers['ratelimit'], 'headers while Redis is down');
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.ok(
        logs.some((line) => warns(line, 'Redis is unreachable')),
        `a warning in the log:\n${JSON.stringify(logs)}`,
      );
    } finally {
      await app.close();
    }
  });

  test('Redis lost and back while serving: counted in memory meanwhile (warning, never a 500), shared again after', needsRedis, async () => {
    const redisPort = Number(new URL(REDIS_URL).port || 6379);
    const proxy = await startTcpProxy(new URL(REDIS_URL).hostname, redisPort);
    const { app, logs } = await startLoggedApp(ctx.db, {
      rateLimit: { perMinute: 10, burst: 6, redisUrl: `redis://127.0.0.1:${proxy.port}`, keyPrefix: freshPrefix() },
    });
    try {
      const org = await createOrganization(ctx.db, 'Redis outage');
      const get = () => app.inject({ method: 'GET', url: '/v1/products', headers: bearer(org.key) });
      const burstLeft = (response: { headers: Record<string, unknown> }) => /"burst";r=(\d+)/.exec(String(response.headers['ratelimit']))?.[1];
      assert.equal(burstLeft(await get()), '5');
      assert.equal(burstLeft(await get()), '4');
      await proxy.cut();
      const during = [await get(), await get()];
      assert.deepEqual(during.map((r) => r.statusCode), [200, 200]);
      assert.deepEqual(during.map(burstLeft), ['5', '4'], 'counted in this process while Redis is away');
      assert.ok(logs.some((line) => warns(line, 'Redis is unreachable')), 'a warning');
      await proxy.restore();
      const deadline = Date.now() + 10_000;
      while (!logs.some((line) => JSON.stringify(line).includes('Redis is reachable again')) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(burstLeft(await get()), '3', 'back on the shared counter, which kept the two requests before the outage');
    } finally {
      await app.close();
      await proxy.close();
    }
  });

  if (ctx.backend === 'postgres') {
    test('two `staykit serve` processes with REDIS_URL enforce one limit', needsRedis, async () => {
      const org = await createOrganization(ctx.db, 'Two serve processes');
      const env = { DATABASE_URL: ctx.url!, REDIS_URL, STAYKIT_RATE_LIMIT: '20', STAYKIT_RATE_LIMIT_BURST: '0' };
      const servers: ServerProcess[] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 30; i += 1) {
          const response = await fetch(`${servers[i % 2]!.url}/v1/products?select=id`, { headers: bearer(org.key) });
          await response.arrayBuffer();
          if (i === 0) assert.ok(response.headers.get('ratelimit-policy'), 'staykit serve applies the rate limit');
          statuses.push(response.status);
        }
        assert.equal(statuses.filter((s) => s === 200).length, 20, statuses.join(','));
        assert.equal(statuses.filter((s) => s === 429).length, 10, statuses.join(','));
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    });
  }
});
