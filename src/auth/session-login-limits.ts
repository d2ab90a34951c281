/**
 * Login rate limits (docs/dashboard.md#sessions-api, "Login limits"), built so that nobody can aim them at someone
 * else. Every login spends a try of two budgets, each per 15 minutes:
 * - "login-email": the e-mail address *at this client address* (the pair, as the major identity providers count
 *   it): guessing one person's password from one place. A try from another address spends another budget, so an
 *   attacker who used up theirs for a victim's address has locked out only themselves: the victim, logging in from
 *   their own address, is unaffected.
 * - "login-address": the client address whatever the e-mail address: trying many people, or one person under many
 *   spellings, from one place.
 * There is deliberately no budget of an e-mail address from everywhere: whoever could spend it could lock its owner
 * out. Guessing from many addresses gets each address's tries, and the password rules (src/users/password-rules.ts)
 * leave nothing worth guessing in that many tries. The client address is `request.ip` (STAYKIT_TRUST_PROXY).
 *
 * A try is spent atomically *before* the password is checked (rate-limiter-flexible's `consume`: an increment in
 * memory, or one Redis command), so however many wrong passwords arrive at once, no more than the budget reach the
 * password check; the others answer 429 SK429 with `Retry-After`, a right password included. A login that succeeds
 * clears its pair's budget (it proved the password) and gives the address its try back, without refilling the
 * address's budget beyond that: an attacker logging into an account of their own between guesses gains nothing.
 * Counted in the request limits' Redis when there is one, so every API process shares the budgets (spreading
 * guesses over processes gains nothing), with memory as insurance while Redis is away; otherwise in memory per
 * process. E-mail addresses are counted by their SHA-256 (lower-cased), so Redis holds no address in the clear.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';

const WINDOW_SECONDS = 900;

export interface LoginLimitOptions {
  /** Tries per window of one e-mail address from one client address (0: no limit). */
  perEmail: number;
  /** Tries per window from one client address, whatever the e-mail address (0: no limit). */
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
  /** What a successful login does to it: gives its try back, or clears it. */
  onSuccess: 'reward' | 'clear';
}

/** One login's tries, spent; `succeeded` when the password was right. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
}

function loginRateLimited(policy: string, retryAfterSeconds: number): ApiError {
  return apiError('SK429', {
    details: `The "${policy}" rate-limit policy is exhausted; retry in ${retryAfterSeconds} s`,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

const emailKey = (email: string) => createHash('sha256').update(email.toLowerCase()).digest('base64url');

export class LoginLimits {
  private readonly budgets: Budget[] = [];

  /** `shared`: the request limits' Redis connection and key namespace, when they count in Redis. */
  constructor(options: LoginLimitOptions, shared?: SharedCounters) {
    const budget = (name: string, points: number, key: Budget['key'], onSuccess: Budget['onSuccess']) => {
      if (points <= 0) return;
      // In Redis under the request limits' namespace; in memory each limiter has a store of its own.
      const base = { points, duration: WINDOW_SECONDS, keyPrefix: shared ? `${shared.keyPrefix}:${name}` : name };
      const limiter = shared
        ? new RateLimiterRedis({ ...base, storeClient: shared.redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(base) })
        : new RateLimiterMemory(base);
      this.budgets.push({ name, key, limiter, onSuccess });
    };
    budget('login-email', options.perEmail, (address, email) => `${emailKey(email)}@${address}`, 'clear');
    budget('login-address', options.perAddress, (address) => address, 'reward');
  }

  /**
   * Spends a try of every budget before the password is checked; 429 SK429 (the longest wait) when one is used up,
   * and then every budget gets its try back: a refused login tried nothing (a used-up budget stays used up).
   */
  async attempt(address: string, email: string): Promise<LoginAttempt> {
    const spent = await Promise.allSettled(this.budgets.map(({ limiter, key }) => limiter.consume(key(address, email))));
    let refused: { name: string; res: RateLimiterRes } | undefined;
    spent.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') return;
      if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
      if (!refused || outcome.reason.msBeforeNext > refused.res.msBeforeNext) refused = { name: this.budgets[i]!.name, res: outcome.reason };
    });
    if (refused) {
      await Promise.all(this.budgets.map(({ limiter, key }) => limiter.reward(key(address, email), 1)));
      throw loginRateLimited(refused.name, Math.max(1, Math.ceil(refused.res.msBeforeNext / 1000)));
    }
    return {
      succeeded: async () => {
        await Promise.all(this.budgets.map(({ limiter, key, onSuccess }) =>
          (onSuccess === 'clear' ? limiter.delete(key(address, email)) : limiter.reward(key(address, email), 1))));
      },
    };
  }
}
