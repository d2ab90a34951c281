/**
 * The errors of Staykit's request limits, in the API's error shape (`{code, message, details, hint}`). Kept beside
 * the limits; codes, statuses and messages are declared in src/errors/registry.ts (listed in docs/errors.md).
 */
import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';

/** 429 SK429: the key (or address) used up a rate-limit policy; `Retry-After` says when to try again. */
export function rateLimited(policy: string, retryAfterSeconds: number, headers: Record<string, string>): ApiError {
  return apiError('SK429', {
    details: `The "${policy}" rate-limit policy is exhausted; retry in ${retryAfterSeconds} s`,
    headers: { 'retry-after': String(retryAfterSeconds), ...headers },
  });
}

/** 414 SK414: the request target (path and query string) is longer than allowed. */
export function uriTooLong(maxBytes: number, givenBytes: number): ApiError {
  return apiError('SK414', {
    details: `The URI has ${givenBytes} bytes; at most ${maxBytes} are accepted`,
    hint: 'Send fewer or shorter filters, or split the request',
  });
}

/** 400 PGRST100 (as the engine's select depth limit): a `select` embeds more resources than allowed. */
export function tooManyEmbeds(max: number, given: number): ApiError {
  return apiError('PGRST100', {
    params: { message: '"failed to parse select parameter"' },
    details: `a select may embed at most ${max} resources, this one embeds ${given}`,
  });
}
