/**
 * `rateLimit(app, { perMinute, burst, redisUrl, authFailuresPerMinute })`: per-API-key (else per-address) request
 * limits with the IETF `RateLimit-Policy` / `RateLimit` headers on every response of a limited route, and 429 `SK429`
 * + `Retry-After` when a policy is used up. Counting is rate-limiter-flexible's fixed windows, two policies per key:
 *   "default": `perMinute` requests per 60 s;
 *   "burst":   `burst` requests per `floor(burst × 60 / perMinute)` s (600/min, burst 100 → 100 per 10 s),
 * which together approximate a token bucket of `burst` tokens refilled at `perMinute` per minute. The burst window
 * is rounded down so that a client sending steadily at the rate never finds it used up (rounded up, 7/min with
 * burst 2 would allow 2 per 18 s, fewer than 7 per minute); a burst below one second's worth of the rate is raised to it. Failed
 * authentications also spend a budget of the client's address (see auth-failures.ts). In memory per process by
 * default; in Redis (shared by every API process) when `redisUrl` is set. When Redis does not answer, each process
 * counts in memory (rate-limiter-flexible's insurance limiter) and logs a warning: never a 500. See docs/limits.md.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import { rateLimited } from './errors.js';
import { rateLimitHeaders, type Policy, type PolicyState } from './rate-limit-headers.js';
import { rateLimitKey } from './rate-limit-key.js';
import { RedisCounters } from './redis-counters.js';
import { authFailurePolicy, limitAuthFailures } from './auth-failures.js';

export interface RateLimitOptions {
  /** Requests per minute and key ("default" policy). */
  perMinute: number;
  /** Most requests in a short burst ("burst" policy); ≥ perMinute turns the burst policy off. */
  burst: number;
  /** Failed authentications per minute and client address before its requests with a key are refused; 0 or unset = no limit. */
  authFailuresPerMinute?: number;
  /** Shared counters in this Redis; unset = in memory, per process. */
  redisUrl?: string | undefined;
  /** Paths that are never limited (exact, or as a prefix followed by `/`). */
  exclude?: readonly string[];
  /** Namespace of the Redis keys (default `staykit:rl`). */
  keyPrefix?: string;
  /** How long one Redis command may take before the request is counted in memory instead (default 500 ms). */
  redisTimeoutMs?: number;
}

/** The limits `staykit serve` applies, from its configuration. */
export function rateLimitOptions(config: Pick<Config, 'rateLimitPerMinute' | 'rateLimitBurst' | 'authFailureLimit' | 'redisUrl'>): RateLimitOptions {
  return {
    perMinute: config.rateLimitPerMinute,
    burst: config.rateLimitBurst,
    authFailuresPerMinute: config.authFailureLimit,
    redisUrl: config.redisUrl,
  };
}

export const DEFAULT_EXCLUDED_PATHS = ['/health', '/ready', '/metrics', '/docs'] as const;

export function policiesFor(perMinute: number, burst: number): Policy[] {
  if (!Number.isSafeInteger(perMinute) || perMinute < 1) throw new RangeError(`perMinute must be a positive integer, got ${perMinute}`);
  const policies: Policy[] = [{ name: 'default', quota: perMinute, windowSeconds: 60 }];
  if (Number.isSafeInteger(burst) && burst >= 1 && burst < perMinute) {
    const windowSeconds = Math.max(1, Math.floor((burst * 60) / perMinute));
    policies.push({ name: 'burst', quota: Math.max(burst, Math.ceil((windowSeconds * perMinute) / 60)), windowSeconds });
  }
  return policies;
}

export interface ConsumeOutcome {
  states: PolicyState[];
  /** The used-up policy with the longest wait, when the request must be refused. */
  exceeded: PolicyState | undefined;
}

/** Where a limiter counts: in memory, or in Redis with memory as insurance. */
export interface CounterStore {
  redis: RedisCounters | undefined;
  keyPrefix: string;
}

function stateOf(policy: Policy, res: RateLimiterRes): PolicyState {
  return { policy, remaining: Math.max(0, res.remainingPoints), resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}

/** The policy state with the longest wait among `states`. */
function longestWait(states: readonly PolicyState[]): PolicyState | undefined {
  let longest: PolicyState | undefined;
  for (const state of states) if (!longest || state.resetSeconds > longest.resetSeconds) longest = state;
  return longest;
}

/** The counters of a set of policies, usable without Fastify. */
export class RequestLimiter {
  private readonly limiters: RateLimiterAbstract[];

  constructor(readonly policies: readonly Policy[], readonly store: CounterStore) {
    this.limiters = policies.map((policy) => {
      const base = { points: policy.quota, duration: policy.windowSeconds, keyPrefix: `${store.keyPrefix}:${policy.name}` };
      if (!store.redis) return new RateLimiterMemory(base);
      return new RateLimiterRedis({
        ...base,
        storeClient: store.redis.client,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(base),
      });
    });
  }

  /** Spends one request of `key` in every policy. */
  async consume(key: string): Promise<ConsumeOutcome> {
    this.store.redis?.checkReady();
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
    const states = results.map(({ res }, i) => stateOf(this.policies[i]!, res));
    return { states, exceeded: longestWait(states.filter((_, i) => !results[i]!.ok)) };
  }

  /** The used-up policy of `key` with the longest wait, if any, without spending anything. */
  async exceeded(key: string): Promise<PolicyState | undefined> {
    this.store.redis?.checkReady();
    const results = await Promise.all(this.limiters.map((limiter) => limiter.get(key)));
    const states = results.flatMap((res, i) => (res && res.remainingPoints <= 0 ? [stateOf(this.policies[i]!, res)] : []));
    return longestWait(states);
  }

  /** Spends one unit of `key` in every policy without refusing anything (for what has already happened). */
  async penalize(key: string): Promise<void> {
    this.store.redis?.checkReady();
    await Promise.all(this.limiters.map((limiter) => limiter.penalty(key, 1)));
  }
}

function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Registers the limits on every route of `app` except `exclude`; returns the per-key limiter (closed with the app). */
export function rateLimit(app: FastifyInstance, options: RateLimitOptions): RequestLimiter {
  const redis = options.redisUrl ? new RedisCounters(options.redisUrl, options.redisTimeoutMs ?? 500, app.log) : undefined;
  const store: CounterStore = { redis, keyPrefix: options.keyPrefix ?? 'staykit:rl' };
  const limiter = new RequestLimiter(policiesFor(options.perMinute, options.burst), store);
  const exclude = options.exclude ?? DEFAULT_EXCLUDED_PATHS;
  const excluded = (request: FastifyRequest) => {
    const path = pathOf(request);
    return exclude.some((p) => path === p || path.startsWith(`${p}/`));
  };

  if (options.authFailuresPerMinute) {
    limitAuthFailures(app, new RequestLimiter([authFailurePolicy(options.authFailuresPerMinute)], store), excluded);
  }
  app.addHook('onRequest', async (request, reply) => {
    if (excluded(request)) return;
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
  if (redis) {
    app.addHook('onReady', async () => {
      if (!(await redis.connected(2_000))) redis.warnUnreachable();
    });
    app.addHook('onClose', () => redis.close());
  }
  return limiter;
}
