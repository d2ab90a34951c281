/**
 * The `Authorize` of the dashboard's routes (/auth, /admin/api) (route definitions, src/routing/route-schema.ts): the session cookie,
 * never an API key (a leaked key must not mint others); the CSRF token on writes; the member's role and permissions
 * as the scope (`api_keys:write`, …). Checked before the body is looked at, as every route's scope is. The handler
 * reads the session back with `sessionOf`.
 */
import type { FastifyRequest } from 'fastify';
import type { Authorize } from './authorize.js';
import { hasScope, requiredScope } from './scopes.js';
import { SessionAuthenticator, sessionPrincipal } from './session-authenticate.js';
import { sessionCookie } from './session-cookie.js';
import { sessionErrors } from './session-errors.js';
import type { ActiveSession } from './session-store.js';

/** The scope of a route every member may use on their own behalf (their notifications): a session, nothing more. */
export const OWN_SETTINGS = 'own';

export interface DashboardAuthorization {
  authorize: Authorize;
  /** The session a request was authorized with, and the member's scopes. */
  sessionOf(request: FastifyRequest): { session: ActiveSession; scopes: string[] };
}

export function dashboardAuthorization(sessions: SessionAuthenticator): DashboardAuthorization {
  const authorized = new WeakMap<FastifyRequest, { session: ActiveSession; scopes: string[] }>();
  return {
    authorize: async (request, resource, access) => {
      const session = await sessions.session(sessionCookie(request));
      if (access === 'write') SessionAuthenticator.requireCsrfToken(request, session);
      const principal = sessionPrincipal(session);
      if (resource !== OWN_SETTINGS && !hasScope(principal.scopes, resource, access)) throw sessionErrors.missingPermission(requiredScope(resource, access));
      authorized.set(request, { session, scopes: principal.scopes });
      return principal;
    },
    sessionOf: (request) => {
      const found = authorized.get(request);
      if (!found) throw new Error(`${request.url}: no session after authorization`);
      return found;
    },
  };
}
