/**
 * Login tries are counted where the request limits count: with Redis, every API process shares the budgets, so
 * guesses spread over two processes — one after the other or all at once — are refused as soon as their sum reaches
 * the limit (docs/dashboard.md#sessions-api, "Login limits"). Needs Redis (CI starts it; STAYKIT_TEST_REQUIRE_REDIS=1
 * makes its absence a failure, not a skip).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { buildApp } from '../../src/http/app.js';
import { loadConfig } from '../../src/config.js';
import { rateLimitOptions } from '../../src/limits/rate-limit.js';
import { createOrganization } from '../support/app.js';
import { freshPrefix, needsRedis, REDIS_URL } from '../limits/support/redis.js';
import { createUser } from './support.js';

forEachBackend('login limits shared through Redis', (ctx) => {
  const PER_EMAIL = 3;
  let apps: FastifyInstance[];
  let email: string;
  let password: string;

  before(async () => {
    const config = loadConfig({ REDIS_URL, STAYKIT_LOGIN_LIMIT_PER_EMAIL: String(PER_EMAIL) });
    const rateLimit = { ...rateLimitOptions(config), keyPrefix: freshPrefix() };
    apps = [await buildApp({ db: ctx.db, config, rateLimit }), await buildApp({ db: ctx.db, config, rateLimit })];
    const org = await createOrganization(ctx.db, 'Lighthouse');
    ({ email, password } = await createUser(ctx.db, org.id, 'keeper@lighthouse.example'));
  });
  after(async () => {
    for (const app of apps) await app.close();
  });

  const login = (app: FastifyInstance, secret: string, remoteAddress = '198.51.100.21') =>
    app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: secret }, remoteAddress });

  it('wrong passwords on one process use up the budget on the other, the right one included, at that client address', needsRedis, async () => {
    const statuses = [];
    for (let attempt = 0; attempt < PER_EMAIL; attempt += 1) statuses.push((await login(apps[attempt % 2]!, 'wrong guess')).statusCode);
    assert.deepEqual(statuses, [401, 401, 401]);
    const refused = await login(apps[1]!, password);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.equal(refused.json().code, 'SK429');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal((await login(apps[0]!, password)).statusCode, 429);
    assert.equal((await login(apps[0]!, password, '198.51.100.99')).statusCode, 200, 'the user, from their own address');
  });

  it('counts tries sent at once to both processes before any password check: the budget, no more', needsRedis, async () => {
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => login(apps[i % 2]!, 'wrong guess', '198.51.100.22')));
    const checked = burst.filter((response) => response.statusCode === 401).length;
    assert.equal(checked, PER_EMAIL);
    assert.equal(burst.filter((response) => response.statusCode === 429).length, 30 - PER_EMAIL);
  });
});
