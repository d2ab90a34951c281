/** The local Redis for the shared-limit tests: reachable or not, and a fresh key namespace per test. */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function ping(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export const redisAvailable = await ping(REDIS_URL);

// CI (.ci/run) sets this after starting Redis, so a Redis-less run cannot pass by skipping.
if (!redisAvailable && process.env.STAYKIT_TEST_REQUIRE_REDIS === '1') {
  throw new Error(`STAYKIT_TEST_REQUIRE_REDIS=1 but Redis is not reachable at ${REDIS_URL}`);
}

/** `{ skip: reason }` for tests that need Redis when it is not there (CI starts it: see .ci/run). */
export const needsRedis = redisAvailable
  ? {}
  : { skip: `Redis is not reachable at ${REDIS_URL} (start redis-server, or set TEST_REDIS_URL)` };

export function freshPrefix(): string {
  return `staykit-test:${randomBytes(6).toString('hex')}`;
}
