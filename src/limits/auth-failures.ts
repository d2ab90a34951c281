/**
 * Failed authentications spend a budget of the client's address, "auth-failures": `perMinute` per 60 s window. A
 * failure is any 401 to a request that carried an `Authorization` header (unknown, revoked or expired key, wrong
 * secret, malformed header); it is counted before the 401 goes out, so a client that waits for its answers never
 * gets one more than the budget. Once the budget is used up, every request from that address that carries an
 * `Authorization` header is refused with 429 `SK429` and `Retry-After` until the window ends, before its key is
 * looked up: made-up keys (each with a fresh key id, so each with a fresh per-key budget) cannot make the server look
 * up keys without bound. Requests without a header keep to the per-address budget of rate-limit.ts.
 *
 * The address is `request.ip` (which follows STAYKIT_TRUST_PROXY): behind a proxy that is not trusted, every
 * client shares the proxy's budget. Requests sent at once are all checked before any of them fails, so a client
 * sending N at a time may get up to N − 1 failures past the budget.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rateLimited } from './errors.js';
import { rateLimitHeaders, type Policy } from './rate-limit-headers.js';
import { addressKey } from './rate-limit-key.js';
import type { RequestLimiter } from './rate-limit.js';

export function authFailurePolicy(perMinute: number): Policy {
  return { name: 'auth-failures', quota: perMinute, windowSeconds: 60 };
}

const carriesCredentials = (request: FastifyRequest) => request.headers.authorization !== undefined;

export function limitAuthFailures(app: FastifyInstance, limiter: RequestLimiter, excluded: (request: FastifyRequest) => boolean): void {
  app.addHook('onRequest', async (request) => {
    if (!carriesCredentials(request) || excluded(request)) return;
    // Fail open like the other limits: a broken counter never refuses or fails a request.
    const exceeded = await limiter.exceeded(addressKey(request)).catch((error: unknown) => {
      request.log.warn({ err: error }, 'rate limit: reading the failed-authentication count failed; request let through');
      return undefined;
    });
    if (exceeded) {
      throw rateLimited(exceeded.policy.name, exceeded.resetSeconds, rateLimitHeaders(limiter.policies, [exceeded]));
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 401 || !carriesCredentials(request)) return payload;
    await limiter.penalize(addressKey(request)).catch((error: unknown) => {
      request.log.warn({ err: error }, 'rate limit: counting a failed authentication failed');
    });
    return payload;
  });
}
