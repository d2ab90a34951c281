/**
 * The errors of Staykit's request limits, in the API's error shape (`{code, message, details, hint}`). Kept beside
 * the limits so the catalogue in `src/errors/` stays the engine's; the codes are listed in docs/limits.md.
 */
import { ApiError } from '../errors/api-error.js';

/** 429 SK429: the key (or address) used up a rate-limit policy; `Retry-After` says when to try again. */
export function rateLimited(policy: string, retryAfterSeconds: number, headers: Record<string, string>): ApiError {
  return new ApiError(429, 'SK429', 'Too many requests', {
    details: `The "${policy}" rate-limit policy is exhausted; retry in ${retryAfterSeconds} s`,
    hint: 'Slow down: the RateLimit and RateLimit-Policy response headers tell how many requests are left',
    headers: { 'retry-after': String(retryAfterSeconds), ...headers },
  });
}

/** 414 SK414: the request target (path and query string) is longer than allowed. */
export function uriTooLong(maxBytes: number, givenBytes: number): ApiError {
  return new ApiError(414, 'SK414', 'The request URI is too long', {
    details: `The URI has ${givenBytes} bytes; at most ${maxBytes} are accepted`,
    hint: 'Send fewer or shorter filters, or split the request',
  });
}

/** 400 PGRST100 (as the engine's select depth limit): a `select` embeds more resources than allowed. */
export function tooManyEmbeds(max: number, given: number): ApiError {
  return new ApiError(400, 'PGRST100', '"failed to parse select parameter"', {
    details: `a select may embed at most ${max} resources, this one embeds ${given}`,
  });
}
