/**
 * A dashboard session as a request's principal. A request that carries no `Authorization` header but the session
 * cookie runs as the session's member: the member's role and permissions become scopes (session-permissions.ts),
 * checked by the HTTP layer and held by the database exactly like a key's. A write (POST, PATCH, PUT, DELETE) with
 * the cookie — or a read the route says has side effects (a GET that syncs calendars) — also needs the session's CSRF
 * token in `X-CSRF-Token`: the cookie alone is what a forged cross-site request would carry, the token is what only
 * the dashboard's own pages can read. With an `Authorization` header the cookie is ignored and the API key decides,
 * as before.
 *
 * Sessions are looked up on every request (no cache), so a logout or a revoked membership holds at once; the
 * lookup also marks the session used, at most once a minute.
 */
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/types.js';
import type { AuthorizeOptions } from './authorize.js';
import type { Principal } from './principal.js';
import { sessionCookie } from './session-cookie.js';
import { sessionErrors } from './session-errors.js';
import { memberScopes } from './session-permissions.js';
import { findActiveSession, touchSession, type ActiveSession, type SessionLifetime } from './session-store.js';
import { isTokenShaped, tokensEqual } from '../users/secret-token.js';

export const CSRF_HEADER = 'x-csrf-token';
const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionOptions extends SessionLifetime {
  /** The clock that expiry follows (default the system clock). */
  now?: () => Date;
}

export class SessionAuthenticator {
  readonly now: () => Date;

  constructor(private readonly db: Queryable, readonly options: SessionOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** The valid session of a cookie's token, if it has one (an absent, unknown or ended session is undefined). */
  async validSession(token: string | undefined): Promise<ActiveSession | undefined> {
    if (token === undefined || !isTokenShaped(token)) return undefined;
    return findActiveSession(this.db, token, this.now(), this.options);
  }

  /** The valid session of a cookie's token; 401 SK701 otherwise. */
  async session(token: string | undefined): Promise<ActiveSession> {
    if (token === undefined || !isTokenShaped(token)) throw sessionErrors.notLoggedIn();
    const now = this.now();
    const session = await findActiveSession(this.db, token, now, this.options);
    if (!session) throw sessionErrors.notLoggedIn();
    if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) await touchSession(this.db, session.id, now);
    return session;
  }

  /** 403 SK702 unless the request's `X-CSRF-Token` is the session's. */
  static requireCsrfToken(request: FastifyRequest, session: ActiveSession): void {
    const presented = request.headers[CSRF_HEADER];
    if (typeof presented !== 'string' || !tokensEqual(presented, session.csrfToken)) throw sessionErrors.csrfMismatch();
  }

  /**
   * The principal of the request's session, or undefined when the request is not made with one (it carries an
   * `Authorization` header, or no session cookie): the API key path then decides.
   */
  async authenticate(request: FastifyRequest, options: AuthorizeOptions = {}): Promise<Principal | undefined> {
    if (request.headers.authorization !== undefined) return undefined;
    const token = sessionCookie(request);
    if (token === undefined) return undefined;
    const session = await this.session(token);
    const writes = WRITE_METHODS.has(request.method) || options.sideEffects === true;
    if (writes) SessionAuthenticator.requireCsrfToken(request, session);
    return sessionPrincipal(session);
  }
}

export function sessionPrincipal(session: ActiveSession): Principal {
  return {
    keyRowId: null,
    keyId: `session:${session.id.slice(0, 8)}`,
    organizationId: session.organization.id,
    scopes: memberScopes(session.member.role, session.member.permissions),
    userId: session.user.id,
  };
}
