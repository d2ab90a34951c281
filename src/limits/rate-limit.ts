/**
 * `rateLimit(app, { perMinute, burst, redisUrl })`: per-API-key (else per-address) request limits with the IETF
 * `RateLimit-Policy` / `RateLimit` headers on every response of a limited route, and 429 `SK429` + `Retry-After`
 * when a policy is used up. Counting is rate-limiter-flexible's fixed windows, two policies per key:
 *   "default": `perMinute` requests per 60 s;
 *   "burst":   `burst` requests per `ceil(burst × 60 / perMinute)` s (600/min, burst 100 → 100 per 10 s),
 * which together approximate a token bucket of `burst` tokens refilled at `perMinute` per minute. In memory per
 * process by default; in Redis (shared by every API process) when `redisUrl` is set. When Redis does not answer,
 * each process counts in memory (rate-limiter-flexible's insurance limiter) and logs a warning: never a 500.
 * See docs/limits.md.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimited } from './errors.js';
import { rateLimitHeaders, type Policy, type PolicyState } from './rate-limit-headers.js';
import { rateLimitKey } from './rate-limit-key.js';

export interface RateLimitOptions {
  /** Requests per minute and key ("default" policy). */
  perMinute: number;
  /** Most requests in a short burst ("burst" policy); ≥ perMinute turns the burst policy off. */
  burst: number;
  /** Shared counters in this Redis; unset = in memory, per process. */
  redisUrl?: string | undefined;
  /** Paths that are never limited (exact, or as a prefix followed by `/`). */
  exclude?: readonly string[];
  /** Namespace of the Redis keys (default `staykit:rl`). */
  keyPrefix?: string;
  /** How long one Redis command may take before the request is counted in memory instead (default 500 ms). */
  redisTimeoutMs?: number;
}

export const DEFAULT_EXCLUDED_PATHS = ['/health', '/ready', '/metrics', '/docs'] as const;

export function policiesFor(perMinute: number, burst: number): Policy[] {
  if (!Number.isSafeInteger(perMinute) || perMinute < 1) throw new RangeError(`perMinute must be a positive integer, got ${perMinute}`);
  const policies: Policy[] = [{ name: 'default', quota: perMinute, windowSeconds: 60 }];
  if (Number.isSafeInteger(burst) && burst >= 1 && burst < perMinute) {
    policies.push({ name: 'burst', quota: burst, windowSeconds: Math.max(1, Math.ceil((burst * 60) / perMinute)) });
  }
  return policies;
}

export interface ConsumeOutcome {
  states: PolicyState[];
  /** The used-up policy with the longest wait, when the request must be refused. */
  exceeded: PolicyState | undefined;
}

type Logger = Pick<FastifyInstance['log'], 'warn' | 'info'>;

const WARN_INTERVAL_MS = 30_000;

/** The counters behind the plugin, usable without Fastify. */
export class RequestLimiter {
  readonly policies: Policy[];
  private readonly limiters: RateLimiterAbstract[];
  private readonly redis: Redis | undefined;
  private lastWarning = 0;
  private redisDown = false;

  constructor(options: RateLimitOptions, private readonly log: Logger) {
    this.policies = policiesFor(options.perMinute, options.burst);
    const prefix = options.keyPrefix ?? 'staykit:rl';
    if (options.redisUrl) {
      this.redis = new Redis(options.redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: options.redisTimeoutMs ?? 500,
        connectTimeout: 2_000,
        retryStrategy: (times) => Math.min(times * 200, 2_000),
      });
      this.redis.on('error', (error: Error) => this.warn(error));
      this.redis.on('ready', () => {
        if (this.redisDown) this.log.info('rate limit: Redis is reachable again; limits are shared again');
        this.redisDown = false;
      });
    }
    this.limiters = this.policies.map((policy) => {
      const base = { points: policy.quota, duration: policy.windowSeconds, keyPrefix: `${prefix}:${policy.name}` };
      if (!this.redis) return new RateLimiterMemory(base);
      return new RateLimiterRedis({
        ...base,
        storeClient: this.redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(base),
      });
    });
  }

  warnUnreachable(): void {
    this.warn(new Error(`Redis connection is ${this.redis?.status ?? 'not configured'}`));
  }

  private warn(error: unknown): void {
    this.redisDown = true;
    const now = Date.now();
    if (now - this.lastWarning < WARN_INTERVAL_MS) return;
    this.lastWarning = now;
    this.log.warn(
      { err: error },
      'rate limit: Redis is unreachable; each process limits in memory until it is back (limits are not shared meanwhile)',
    );
  }

  /** Spends one request of `key` in every policy. */
  async consume(key: string): Promise<ConsumeOutcome> {
    if (this.redis && this.redis.status !== 'ready') this.warnUnreachable();
    const results = await Promise.all(
      this.limiters.map(async (limiter) => {
        try {
          return { res: await limiter.consume(key), ok: true };
        } catch (error) {
          if (error instanceof RateLimiterRes) return { res: error, ok: false };
          throw error;
        }
      }),
    );
    const states = results.map(({ res }, i) => ({
      policy: this.policies[i]!,
      remaining: Math.max(0, res.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    }));
    let exceeded: PolicyState | undefined;
    results.forEach(({ ok }, i) => {
      if (!ok && (!exceeded || states[i]!.resetSeconds > exceeded.resetSeconds)) exceeded = states[i];
    });
    return { states, exceeded };
  }

  /** Resolves when Redis is connected, or after `timeoutMs` (then requests are counted in memory until it is). */
  async connected(timeoutMs: number): Promise<boolean> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return true;
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
    if (!this.redis) return;
    await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}

function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Registers the limit on every route of `app` except `exclude`; returns the limiter (closed with the app). */
export function rateLimit(app: FastifyInstance, options: RateLimitOptions): RequestLimiter {
  const limiter = new RequestLimiter(options, app.log);
  const exclude = options.exclude ?? DEFAULT_EXCLUDED_PATHS;
  const excluded = (path: string) => exclude.some((p) => path === p || path.startsWith(`${p}/`));

  app.addHook('onRequest', async (request, reply) => {
    if (excluded(pathOf(request))) return;
    let outcome: ConsumeOutcome;
    try {
      outcome = await limiter.consume(rateLimitKey(request));
    } catch (error) {
      // Fail open: a broken limiter must never turn into a 500.
      request.log.warn({ err: error }, 'rate limit: counting failed; request let through');
      return;
    }
    const headers = rateLimitHeaders(limiter.policies, outcome.states);
    if (outcome.exceeded) throw rateLimited(outcome.exceeded.policy.name, outcome.exceeded.resetSeconds, headers);
    reply.headers(headers);
  });
  app.addHook('onReady', async () => {
    if (!(await limiter.connected(2_000))) limiter.warnUnreachable();
  });
  app.addHook('onClose', () => limiter.close());
  return limiter;
}
