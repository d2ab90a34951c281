/**
 * The login budgets counted in Redis (shared by every API process) and the errors of /auth: what a client sees when
 * another process spent the budget, that tries sent at once to two processes never overrun it, that two namespaces
 * never share one, and the status and code of each session error. Run by the mutation run of src/auth (scripts/mutation-modules.js) beside auth.unit.test.ts.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { LoginLimits } from '../../src/auth/session-login-limits.js';
import { sessionErrors } from '../../src/auth/session-errors.js';
import { ApiError } from '../../src/errors/api-error.js';
import { freshPrefix, needsRedis, REDIS_URL } from '../limits/support/redis.js';

describe('login budgets in Redis', () => {
  const clients: Redis[] = [];
  after(() => Promise.all(clients.map((client) => client.quit())));
  /** A connected client, as the request limits' is once the app is ready (before that, counts go to memory). */
  const redis = async () => {
    const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    clients.push(client);
    await client.ping();
    return client;
  };
  const limited = (error: unknown) => error instanceof ApiError && error.code === 'SK429' && /"login-email" rate-limit policy is exhausted; retry in 900 s/.test(error.details ?? '');

  test('a try in one process counts in every process of the same namespace, and only there', needsRedis, async () => {
    const keyPrefix = freshPrefix();
    const one = new LoginLimits({ perEmail: 1, perAddress: 0 }, { redis: await redis(), keyPrefix });
    const two = new LoginLimits({ perEmail: 1, perAddress: 0 }, { redis: await redis(), keyPrefix });
    const elsewhere = new LoginLimits({ perEmail: 1, perAddress: 0 }, { redis: await redis(), keyPrefix: freshPrefix() });
    await one.attempt('198.51.100.1', 'Ana@Example.org');
    await assert.rejects(two.attempt('198.51.100.1', 'ana@example.org'), limited);
    await elsewhere.attempt('198.51.100.1', 'ana@example.org');
    await two.attempt('198.51.100.2', 'ana@example.org');
    await one.attempt('198.51.100.1', 'bob@example.org');
  });

  test('tries sent at once to two processes are counted atomically: the budget, no more', needsRedis, async () => {
    const keyPrefix = freshPrefix();
    const processes = [
      new LoginLimits({ perEmail: 4, perAddress: 0 }, { redis: await redis(), keyPrefix }),
      new LoginLimits({ perEmail: 4, perAddress: 0 }, { redis: await redis(), keyPrefix }),
    ];
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => processes[i % 2]!.attempt('198.51.100.1', 'ana@example.org')));
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 4);
  });

  test('the e-mail and the address budgets are counted apart', needsRedis, async () => {
    const limits = new LoginLimits({ perEmail: 2, perAddress: 2 }, { redis: await redis(), keyPrefix: freshPrefix() });
    // The address of one login is the e-mail address of the other: each budget has one try, neither is used up.
    await limits.attempt('same', 'a@example.org');
    await limits.attempt('b@example.org', 'same');
    await limits.attempt('same', 'same');
  });

  test('Redis holds the e-mail address as the SHA-256 of its lower case, never in the clear', needsRedis, async () => {
    const keyPrefix = freshPrefix();
    const client = await redis();
    const limits = new LoginLimits({ perEmail: 2, perAddress: 2 }, { redis: client, keyPrefix });
    await limits.attempt('198.51.100.1', 'Ana@Example.org');
    const hash = createHash('sha256').update('ana@example.org').digest('base64url');
    assert.deepEqual((await client.keys(`${keyPrefix}:*`)).sort(), [`${keyPrefix}:login-address:198.51.100.1`, `${keyPrefix}:login-email:${hash}@198.51.100.1`]);
  });

  test('a success clears the e-mail address\'s budget in Redis', needsRedis, async () => {
    const limits = new LoginLimits({ perEmail: 2, perAddress: 0 }, { redis: await redis(), keyPrefix: freshPrefix() });
    await limits.attempt('198.51.100.1', 'ana@example.org');
    await (await limits.attempt('198.51.100.1', 'ana@example.org')).succeeded();
    await limits.attempt('198.51.100.1', 'ana@example.org');
    await limits.attempt('198.51.100.1', 'ana@example.org');
    await assert.rejects(limits.attempt('198.51.100.1', 'ana@example.org'), limited);
  });
});

describe('session errors', () => {
  test('each with its status and code', () => {
    const cases: [ApiError, number, string][] = [
      [sessionErrors.loginFailed(), 401, 'SK700'],
      [sessionErrors.notLoggedIn(), 401, 'SK701'],
      [sessionErrors.csrfMismatch(), 403, 'SK702'],
      [sessionErrors.notAMember(), 403, 'SK704'],
      [sessionErrors.badInput('"email" is required'), 400, 'SK705'],
      [sessionErrors.passwordLinkUnusable(), 400, 'SK706'],
    ];
    for (const [error, status, code] of cases) assert.deepEqual([error.status, error.code], [status, code]);
    assert.equal(sessionErrors.loginFailed().message, 'The e-mail address or password is wrong');
    assert.equal(sessionErrors.badInput('"email" is required').message, '"email" is required');
  });
});
