/**
 * Login rate limits: failed logins spend two budgets, one of the e-mail address (guessing one user's password from
 * many addresses) and one of the client address (trying many users from one place), each per 15 minutes. Once
 * either is used up, logins for that e-mail address or from that client answer 429 SK429 with `Retry-After` before
 * any password is checked — also a right password. Counted in memory per process (like the other limits without
 * REDIS_URL); a successful login spends nothing.
 */
import { rateLimited } from '../limits/errors.js';
import { rateLimitHeaders, type Policy } from '../limits/rate-limit-headers.js';
import { RequestLimiter } from '../limits/rate-limit.js';

const WINDOW_SECONDS = 900;

export interface LoginLimitOptions {
  /** Failed logins per window and e-mail address (0: no limit). */
  perEmail: number;
  /** Failed logins per window and client address (0: no limit). */
  perAddress: number;
}

interface Budget {
  limiter: RequestLimiter;
  key: (address: string, email: string) => string;
}

export class LoginLimits {
  private readonly budgets: Budget[] = [];

  constructor(options: LoginLimitOptions) {
    const store = { redis: undefined, keyPrefix: 'staykit:login' };
    const policy = (name: string, quota: number): Policy => ({ name, quota, windowSeconds: WINDOW_SECONDS });
    if (options.perEmail > 0) {
      this.budgets.push({ limiter: new RequestLimiter([policy('login-email', options.perEmail)], store), key: (_, email) => `email:${email.toLowerCase()}` });
    }
    if (options.perAddress > 0) {
      this.budgets.push({ limiter: new RequestLimiter([policy('login-address', options.perAddress)], store), key: (address) => `ip:${address}` });
    }
  }

  /** 429 SK429 when a budget of this login is used up. */
  async check(address: string, email: string): Promise<void> {
    for (const { limiter, key } of this.budgets) {
      const exceeded = await limiter.exceeded(key(address, email));
      if (exceeded) throw rateLimited(exceeded.policy.name, exceeded.resetSeconds, rateLimitHeaders(limiter.policies, [exceeded]));
    }
  }

  async failed(address: string, email: string): Promise<void> {
    await Promise.all(this.budgets.map(({ limiter, key }) => limiter.penalize(key(address, email))));
  }
}
