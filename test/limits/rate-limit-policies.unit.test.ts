/**
 * Rate-limit edges limits.unit.test.ts leaves open: a burst below one second's worth of the rate, an uneven
 * rate/burst ratio, the RateLimit field of a failed-authentication refusal, and two policies counted apart in Redis.
 * Run by the mutation run of src/limits (scripts/mutation-modules.js).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { errorHandler } from '../../src/http/error-handler.js';
import { policiesFor, rateLimit, type RateLimitOptions } from '../../src/limits/rate-limit.js';
import { freshPrefix, needsRedis, REDIS_URL } from './support/redis.js';

const apps: FastifyInstance[] = [];
after(() => Promise.all(apps.map((app) => app.close())));

async function limitedApp(options: RateLimitOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  rateLimit(app, options);
  app.get('/v1/private', async (_request, reply) => reply.code(401).send({ code: 'SK401' }));
  app.get('/*', async () => ({ ok: true }));
  await app.ready();
  apps.push(app);
  return app;
}

test('a burst below one second of the rate is one second’s worth; an uneven ratio rounds the window down', () => {
  assert.deepEqual(policiesFor(600, 1)[1], { name: 'burst', quota: 10, windowSeconds: 1 });
  assert.deepEqual(policiesFor(600, 5)[1], { name: 'burst', quota: 10, windowSeconds: 1 });
  assert.deepEqual(policiesFor(7, 2)[1], { name: 'burst', quota: 2, windowSeconds: 17 });
});

test('a failed-authentication refusal carries the state of its policy', async () => {
  const app = await limitedApp({ perMinute: 1000, burst: 1000, authFailuresPerMinute: 1 });
  const headers = { authorization: 'Bearer whatever' };
  assert.equal((await app.inject({ method: 'GET', url: '/v1/private', headers })).statusCode, 401);
  const refused = await app.inject({ method: 'GET', url: '/v1/things', headers });
  assert.equal(refused.statusCode, 429);
  assert.equal(refused.headers.ratelimit, '"auth-failures";r=0;t=60');
});

test('in Redis, each policy counts in keys of its own', needsRedis, async () => {
  const app = await limitedApp({ perMinute: 10, burst: 2, redisUrl: REDIS_URL, keyPrefix: freshPrefix() });
  assert.equal((await app.inject({ method: 'GET', url: '/' })).statusCode, 200);
  const second = await app.inject({ method: 'GET', url: '/' });
  assert.equal(second.headers.ratelimit, '"default";r=8;t=60, "burst";r=0;t=12');
});
