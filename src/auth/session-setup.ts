/**
 * Dashboard sessions on an app: the /auth routes, and the `SessionAuthenticator` that `/v1` authorizes session
 * requests with. One authenticator for both, so both follow the same clock and lifetimes.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/types.js';
import { SessionAuthenticator } from './session-authenticate.js';
import { sessionCookies } from './session-cookie.js';
import { LoginLimits, type SharedCounters } from './session-login-limits.js';
import { sessionRoutes } from './session-routes.js';

export const SESSION_ROUTES_PREFIX = '/auth';

export interface DashboardSessionOptions {
  db: Database;
  config: Pick<Config, 'sessionIdleTimeoutSeconds' | 'sessionMaxAgeSeconds' | 'loginLimitPerEmail' | 'loginLimitPerAddress'>;
  /** The clock expiry follows (default the system clock). */
  now?: (() => Date) | undefined;
  /** Where failed logins are counted when shared by every process (the request limits' Redis); default memory. */
  sharedCounters?: SharedCounters | undefined;
}

export async function dashboardSessions(app: FastifyInstance, options: DashboardSessionOptions): Promise<SessionAuthenticator> {
  const { db, config } = options;
  await sessionCookies(app);
  const sessions = new SessionAuthenticator(db, {
    idleSeconds: config.sessionIdleTimeoutSeconds, maxAgeSeconds: config.sessionMaxAgeSeconds, now: options.now,
  });
  const limits = new LoginLimits({ perEmail: config.loginLimitPerEmail, perAddress: config.loginLimitPerAddress }, options.sharedCounters);
  await app.register(sessionRoutes, { prefix: SESSION_ROUTES_PREFIX, db, sessions, limits });
  return sessions;
}
