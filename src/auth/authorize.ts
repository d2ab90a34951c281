/**
 * A request's authorization: its `Authorization` header authenticated to a principal, then that principal's scopes
 * checked against the resource and the access the request needs.
 */
import type { FastifyRequest } from 'fastify';
import type { Authenticator } from './authenticate.js';
import type { SessionAuthenticator } from './session-authenticate.js';
import { missingScope } from './session-errors.js';
import type { Principal } from './principal.js';
import { hasScope, requiredScope, type Access } from './scopes.js';

/**
 * 403 naming the first of `tables` the principal may not read: what a response derives from a table (an embed, a
 * preview, a document) needs that table's read scope.
 */
export function requireReadScopes(principal: Pick<Principal, 'scopes' | 'userId'>, tables: readonly string[]): void {
  const missing = tables.find((table) => !hasScope(principal.scopes, table, 'read'));
  if (missing !== undefined) throw missingScope(principal, requiredScope(missing, 'read'));
}

export interface AuthorizeOptions {
  /**
   * The request changes something although its method is a read (a GET that syncs calendars): a dashboard session
   * then needs its CSRF token as for a write (session-authenticate.ts). API keys are not affected.
   */
  sideEffects?: boolean;
}

/** Authenticates the request's key and checks it has `access` to `resource`; throws 401/403 ApiErrors. */
export type Authorize = (request: FastifyRequest, resource: string, access: Access, options?: AuthorizeOptions) => Promise<Principal>;

/**
 * The `Authorize` of an app. `request.principal` is set as soon as the key is authenticated, before the scope
 * check, so a request refused for its scope is still logged under its key.
 */
export function authorizer(authenticator: Authenticator, sessions?: SessionAuthenticator): Authorize {
  return async (request, resource, access, options = {}) => {
    // A dashboard session when the request uses one (cookie, no Authorization header); the API key otherwise.
    const principal = (await sessions?.authenticate(request, options)) ?? (await authenticator.authenticate(request.headers.authorization));
    request.principal = principal;
    if (!hasScope(principal.scopes, resource, access)) throw missingScope(principal, requiredScope(resource, access));
    return principal;
  };
}
