/**
 * The Redis connection the rate limits count in when `REDIS_URL` is set, one per app, shared by every policy. A
 * command that takes longer than `timeoutMs` fails, and the limits count in memory instead (each limiter's
 * insurance); while Redis is away a warning is logged at most every 30 s, and counting is shared again once it is
 * back. Never a reason to refuse or fail a request.
 */
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * ioredis is loaded by the first RedisCounters, not with this module: only a server with REDIS_URL uses it, and
 * loading it took ~0.1 s and ~0.2 s of CPU of every start (measured with the compiled server).
 */
const require = createRequire(import.meta.url);
const loadRedis = (): typeof Redis => (require('ioredis') as typeof import('ioredis')).Redis;

export type LimitsLogger = Pick<FastifyBaseLogger, 'warn' | 'info'>;

const WARN_INTERVAL_MS = 30_000;

export class RedisCounters {
  readonly client: Redis;
  private lastWarning = 0;
  private down = false;

  constructor(url: string, timeoutMs: number, private readonly log: LimitsLogger) {
    const RedisClient = loadRedis();
    this.client = new RedisClient(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: timeoutMs,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    this.client.on('error', (error: Error) => this.warn(error));
    this.client.on('ready', () => {
      if (this.down) this.log.info('rate limit: Redis is reachable again; limits are shared again');
      this.down = false;
    });
  }

  /** Called before counting: warns when the counts go to memory because Redis is not connected. */
  checkReady(): void {
    if (this.client.status !== 'ready') this.warnUnreachable();
  }

  warnUnreachable(): void {
    this.warn(new Error(`Redis connection is ${this.client.status}`));
  }

  private warn(error: unknown): void {
    this.down = true;
    const now = Date.now();
    if (now - this.lastWarning < WARN_INTERVAL_MS) return;
    this.lastWarning = now;
    this.log.warn(
      { err: error },
      'rate limit: Redis is unreachable; each process limits in memory until it is back (limits are not shared meanwhile)',
    );
  }

  /** Resolves when Redis is connected, or after `timeoutMs` (then requests are counted in memory until it is). */
  async connected(timeoutMs: number): Promise<boolean> {
    const redis = this.client;
    if (redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (ready: boolean) => {
        clearTimeout(timer);
        redis.off('ready', onReady);
        resolve(ready);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      redis.on('ready', onReady);
    });
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
