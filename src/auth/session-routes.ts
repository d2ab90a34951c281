/**
 * The dashboard's login API under /auth (docs/dashboard.md#sessions-api): log in and out, read the session, switch
 * organization, and set a password with a one-time link. Answers are JSON in the API's error shape, never cached.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/types.js';
import { consumePasswordToken, passwordTokenUser } from '../users/password-links.js';
import { findUserByEmail, memberships, setPasswordHash } from '../users/user-store.js';
import { hashPassword, passwordMatches } from '../users/password.js';
import { passwordProblem } from '../users/password-rules.js';
import { SessionAuthenticator } from './session-authenticate.js';
import { clearSessionCookie, sessionCookie, setSessionCookie } from './session-cookie.js';
import { sessionErrors } from './session-errors.js';
import { emailAddress } from './session-input.js';
import { loginRoute, logoutRoute, organizationRoute, sessionRoute, setPasswordRoute, type SessionState } from './session-bodies.js';
import { dashboardAuthorization } from './session-authorize.js';
import { registerPublicRoute, registerRoute } from '../routing/route-schema.js';
import type { LoginLimits } from './session-login-limits.js';
import { memberScopes } from './session-permissions.js';
import {
  createSession, forgetEndedSessions, revokeSessionByToken, revokeUserSessions, switchSessionOrganization, type ActiveSession,
} from './session-store.js';

export interface SessionRouteOptions {
  db: Database;
  sessions: SessionAuthenticator;
  limits: LoginLimits;
}

/** GET /auth/session's body: who is logged in, where, with which grants. */
async function sessionBody(db: Database, session: ActiveSession): Promise<SessionState> {
  return {
    user: session.user,
    organization: session.organization,
    member: {
      id: session.member.id,
      name: session.member.name,
      role: session.member.role,
      permissions: session.member.permissions,
      scopes: memberScopes(session.member.role, session.member.permissions),
    },
    organizations: await memberships(db, session.user.id),
    csrf_token: session.csrfToken,
  };
}

export const sessionRoutes: FastifyPluginAsync<SessionRouteOptions> = async (app, { db, sessions, limits }) => {
  const lifetime = sessions.options;
  const { authorize, sessionOf } = dashboardAuthorization(sessions);

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  registerPublicRoute(app, loginRoute, async (request, reply) => {
    const email = emailAddress(request.body.email);
    const { password } = request.body;
    // The try is counted before the password is checked, so tries sent at once cannot overrun the budget.
    const attempt = await limits.attempt(request.ip, email);
    const user = await findUserByEmail(db, email);
    // Unknown address, no password yet, wrong password: the same work and the same answer.
    const matches = await passwordMatches(password, user?.password_hash ?? null);
    if (!user || !matches) throw sessionErrors.loginFailed();
    await attempt.succeeded();
    const organizations = await memberships(db, user.id);
    if (organizations.length === 0) throw sessionErrors.notAMember();
    const now = sessions.now();
    // A new token on every login; the one the browser had (if any) stops working, so a planted cookie is useless.
    const previous = sessionCookie(request);
    if (previous !== undefined) await revokeSessionByToken(db, previous, now);
    await forgetEndedSessions(db, user.id, now, lifetime);
    const session = await createSession(db, user.id, organizations[0]!.id, now, lifetime);
    setSessionCookie(request, reply, session.token, lifetime.maxAgeSeconds);
    return reply.send({ user: { id: user.id, email: user.email }, organizations, csrf_token: session.csrfToken });
  });

  registerPublicRoute(app, logoutRoute, async (request, reply) => {
    const token = sessionCookie(request);
    // Ending a live session is a write like any other: only the dashboard's own pages, which hold the CSRF token,
    // may do it (a forged cross-site logout would otherwise be one form away). A cookie without a live session is
    // just cleared.
    const session = await sessions.validSession(token);
    if (session) {
      SessionAuthenticator.requireCsrfToken(request, session);
      await revokeSessionByToken(db, token!, sessions.now());
    }
    clearSessionCookie(request, reply);
    return reply.code(204).send();
  });

  registerRoute(app, sessionRoute, authorize, async (request, reply) => reply.send(await sessionBody(db, sessionOf(request).session)));

  registerRoute(app, organizationRoute, authorize, async (request, reply) => {
    const { session } = sessionOf(request);
    const organizationId = request.body.organization_id.toLowerCase();
    const member = (await memberships(db, session.user.id)).some((organization) => organization.id === organizationId);
    if (!member) throw sessionErrors.notAMember();
    await switchSessionOrganization(db, session.id, organizationId);
    return reply.send(await sessionBody(db, await sessions.session(sessionCookie(request))));
  });

  registerPublicRoute(app, setPasswordRoute, async (request, reply) => {
    const { token, password } = request.body;
    // The link first: checking and hashing a password costs CPU, which a made-up token must not buy.
    const holder = await passwordTokenUser(db, token, sessions.now());
    if (!holder) throw sessionErrors.passwordLinkUnusable();
    const problem = await passwordProblem(password, [holder.email]);
    if (problem !== undefined) throw sessionErrors.badInput(problem);
    const passwordHash = await hashPassword(password);
    const now = sessions.now();
    const used = await db.transaction(async (tx) => {
      // Used up here, in the transaction that sets the password: a link used twice at once sets it once.
      const userId = await consumePasswordToken(tx, token, now);
      if (userId === undefined) return false;
      await setPasswordHash(tx, userId, passwordHash, now);
      // Whoever was logged in with the old password is not any more.
      await revokeUserSessions(tx, userId, now);
      return true;
    });
    if (!used) throw sessionErrors.passwordLinkUnusable();
    return reply.send({ user: holder });
  });
};
