/**
 * Login rate limits: failed logins spend two budgets, one of the e-mail address (guessing one user's password from
 * many addresses) and one of the client address (trying many users from one place), each per 15 minutes. Once
 * either is used up, logins for that e-mail address or from that client answer 429 SK429 with `Retry-After` before
 * any password is checked — also a right password. Counted with rate-limiter-flexible (the library behind the request
 * limits of src/limits): in the request limits' Redis when there is one, so every API process shares the budgets
 * (an attacker spreading guesses over processes gains nothing), with memory as insurance while Redis is away;
 * otherwise in memory per process. A successful login spends nothing.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';

const WINDOW_SECONDS = 900;

export interface LoginLimitOptions {
  /** Failed logins per window and e-mail address (0: no limit). */
  perEmail: number;
  /** Failed logins per window and client address (0: no limit). */
  perAddress: number;
}

export interface SharedCounters {
  redis: Redis;
  keyPrefix: string;
}

interface Budget {
  name: string;
  limiter: RateLimiterAbstract;
  key: (address: string, email: string) => string;
}

function loginRateLimited(policy: string, retryAfterSeconds: number): ApiError {
  return apiError('SK429', {
    details: `The "${policy}" rate-limit policy is exhausted; retry in ${retryAfterSeconds} s`,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

export class LoginLimits {
  private readonly budgets: Budget[] = [];

  /** `shared`: the request limits' Redis connection and key namespace, when they count in Redis. */
  constructor(options: LoginLimitOptions, shared?: SharedCounters) {
    const budget = (name: string, points: number, key: Budget['key']) => {
      if (points <= 0) return;
      const base = { points, duration: WINDOW_SECONDS, keyPrefix: `${shared?.keyPrefix ?? 'staykit'}:${name}` };
      const limiter = shared
        ? new RateLimiterRedis({ ...base, storeClient: shared.redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(base) })
        : new RateLimiterMemory(base);
      this.budgets.push({ name, key, limiter });
    };
    budget('login-email', options.perEmail, (_, email) => email.toLowerCase());
    budget('login-address', options.perAddress, (address) => address);
  }

  /** 429 SK429 when a budget of this login is used up. */
  async check(address: string, email: string): Promise<void> {
    for (const { name, limiter, key } of this.budgets) {
      const state = await limiter.get(key(address, email));
      if (state && state.remainingPoints <= 0) throw loginRateLimited(name, Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
    }
  }

  async failed(address: string, email: string): Promise<void> {
    await Promise.all(this.budgets.map(({ limiter, key }) => limiter.penalty(key(address, email), 1)));
  }
}
