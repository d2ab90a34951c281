/** The errors of the compute pool (src/compute/pool.ts); codes and messages are declared in src/errors/registry.ts. */
import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';

/** 429 SK683: the organization's heavy work is at its cap and its queue full, or a task waited `waitedMs` in vain. */
export function computeBusy(perOrganization: number, queued: number, waitedMs: number | undefined): ApiError {
  const busy = `${perOrganization} task(s) of this organization are running`;
  return apiError('SK683', {
    details: waitedMs === undefined ? `${busy} and ${queued} are waiting` : `${busy}; no thread was free within ${waitedMs / 1000} s`,
    headers: { 'retry-after': '1' },
  });
}

/** 422 SK684: a task ran past the pool's time limit and was stopped. */
export function computeTooLong(limitMs: number): ApiError {
  return apiError('SK684', { params: { seconds: String(limitMs / 1000) } });
}
