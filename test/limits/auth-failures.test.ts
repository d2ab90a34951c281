/**
 * Failed authentications spend the client address's budget (30 per minute by default): made-up keys, each with a
 * fresh key id and so a fresh per-key budget, get 429 once it is used up, and cost no key lookup any more. Shared
 * through Redis like the other limits.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';
import { buildApp } from '../../src/http/app.js';
import { loadConfig } from '../../src/config.js';
import { rateLimitOptions } from '../../src/limits/rate-limit.js';
import { generateApiKey } from '../../src/auth/api-key-format.js';
import { freshPrefix, needsRedis, REDIS_URL } from './support/redis.js';

/** The documented default budget. */
const FAILURES_PER_MINUTE = 30;

function assertRefused(response: LightMyRequestResponse): void {
  assert.equal(response.statusCode, 429, response.body);
  const body = response.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
  assert.equal(body.code, 'SK429');
  assert.match(String(body.details), /"auth-failures"/);
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${String(response.headers['retry-after'])}`);
  assert.equal(response.headers['ratelimit-policy'], `"auth-failures";q=${FAILURES_PER_MINUTE};w=60`);
}

forEachBackend('failed authentications per address', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let lookups = 0;

  before(async () => {
    // As `staykit serve` configures it, with the defaults.
    app = await buildApp({ db: ctx.db, rateLimit: rateLimitOptions(loadConfig({})) });
    org = await createOrganization(ctx.db, 'Failures');
    ctx.db.onStatement = (text) => {
      if (/FROM staykit_internal\.api_keys\s+WHERE key_id = \$1/.test(text)) lookups += 1;
    };
  });
  after(async () => {
    ctx.db.onStatement = undefined;
    await app.close();
  });

  const get = (key: string, remoteAddress = '198.51.100.1') =>
    app.inject({ method: 'GET', url: '/v1/products?select=id', headers: bearer(key), remoteAddress });

  it('random keys from one address: 401 up to the budget, then 429 without a key lookup, also for a valid key', async () => {
    for (let i = 0; i < FAILURES_PER_MINUTE; i += 1) {
      const response = await get(generateApiKey().token);
      assert.equal(response.statusCode, 401, `request ${i + 1}: ${response.body}`);
    }
    lookups = 0;
    for (let i = 0; i < 20; i += 1) assertRefused(await get(generateApiKey().token));
    assertRefused(await get(org.key));
    assert.equal(lookups, 0, 'refused requests look no key up');

    // Other addresses are not affected.
    assert.equal((await get(org.key, '198.51.100.2')).statusCode, 200);
    assert.equal((await get(generateApiKey().token, '198.51.100.2')).statusCode, 401);
    // Nor are requests without credentials, which keep to the address's request budget.
    assert.equal((await app.inject({ method: 'GET', url: '/v1/products', remoteAddress: '198.51.100.1' })).statusCode, 401);
  });

  it('successful requests spend nothing of the budget', async () => {
    const address = '198.51.100.3';
    for (let i = 0; i < FAILURES_PER_MINUTE + 5; i += 1) assert.equal((await get(org.key, address)).statusCode, 200);
    assert.equal((await get(generateApiKey().token, address)).statusCode, 401);
  });
});

forEachBackend('failed authentications per address, shared through Redis', (ctx) => {
  let apps: FastifyInstance[];
  before(async () => {
    const rateLimit = { ...rateLimitOptions(loadConfig({ REDIS_URL })), authFailuresPerMinute: 3, keyPrefix: freshPrefix() };
    apps = [await buildApp({ db: ctx.db, rateLimit }), await buildApp({ db: ctx.db, rateLimit })];
  });
  after(async () => {
    for (const app of apps) await app.close();
  });

  it('failures on one process use up the budget on the other', needsRedis, async () => {
    const get = (app: FastifyInstance) =>
      app.inject({ method: 'GET', url: '/v1/products', headers: bearer(generateApiKey().token), remoteAddress: '198.51.100.9' });
    assert.deepEqual([(await get(apps[0]!)).statusCode, (await get(apps[0]!)).statusCode, (await get(apps[1]!)).statusCode], [401, 401, 401]);
    const refused = await get(apps[1]!);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.equal(refused.json().code, 'SK429');
    assert.equal((await get(apps[0]!)).statusCode, 429);
  });
});
