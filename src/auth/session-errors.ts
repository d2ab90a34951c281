/** The errors of dashboard logins and sessions (the SK7nn codes, declared in src/errors/registry.ts). */
import type { ApiError } from '../errors/api-error.js';
import { authErrors } from '../errors/auth.js';
import { apiError } from '../errors/registry.js';
import type { Principal } from './principal.js';

export const sessionErrors = {
  /** The one answer to every failed login: unknown e-mail address and wrong password look the same. */
  loginFailed: (): ApiError => apiError('SK700'),
  notLoggedIn: (): ApiError => apiError('SK701'),
  csrfMismatch: (): ApiError => apiError('SK702'),
  missingPermission: (scope: string): ApiError =>
    apiError('SK703', { params: { scope }, details: `The request needs "${scope}" (or the broader "${scope.split(':').pop()}")` }),
  notAMember: (): ApiError => apiError('SK704'),
  badInput: (message: string): ApiError => apiError('SK705', { params: { message } }),
  passwordLinkUnusable: (): ApiError => apiError('SK706'),
};

/** The 403 for a scope the principal lacks, worded for a session's member or for an API key. */
export function missingScope(principal: Pick<Principal, 'userId'>, scope: string): ApiError {
  return principal.userId === undefined ? authErrors.missingScope(scope) : sessionErrors.missingPermission(scope);
}
