/**
 * The admin dashboard at /admin: the single-page app in web/dashboard (built by `npm ci`), served by this process,
 * and what it cannot do through /v1 — managing API keys (/admin/api/keys), inviting members to log in
 * (/admin/api/invitations), a member's own e-mail notifications (/admin/api/my-notifications), the widget's catalogue
 * of one unit for its preview (/admin/api/unit-preview). The app reads and writes
 * through /v1 with the dashboard session (docs/dashboard.md).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import type { SessionAuthenticator } from '../auth/session-authenticate.js';
import type { Database } from '../db/types.js';
import { apiKeyRoutes } from './api-key-routes.js';
import { INVITATIONS_PATH, KEYS_PATH, MY_NOTIFICATIONS_PATH, UNIT_PREVIEW_PATH } from './bodies.js';
import { invitationRoutes, type InvitationRouteOptions } from './invitation-routes.js';
import { notificationRoutes } from './notification-routes.js';
import { serveBuiltApp } from './static-app.js';
import { unitPreviewRoutes } from './unit-preview-routes.js';

export interface DashboardOptions {
  db: Database;
  sessions: SessionAuthenticator;
  /** Resource names API key scopes may name (the API's tables). */
  resources: ReadonlySet<string>;
  /** The built app; default web/dashboard/dist of this checkout. */
  distFolder?: string;
  /** Where invitations link to and how they are sent. */
  config: InvitationRouteOptions['config'];
}

const DEFAULT_DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dashboard', 'dist');

export const dashboardRoutes: FastifyPluginAsync<DashboardOptions> = async (app, options) => {
  await app.register(apiKeyRoutes, { prefix: KEYS_PATH, db: options.db, sessions: options.sessions, resources: options.resources });
  await app.register(invitationRoutes, { prefix: INVITATIONS_PATH, db: options.db, sessions: options.sessions, config: options.config });
  await app.register(notificationRoutes, { prefix: MY_NOTIFICATIONS_PATH, db: options.db, sessions: options.sessions });
  await app.register(unitPreviewRoutes, { prefix: UNIT_PREVIEW_PATH, db: options.db, sessions: options.sessions });
  await serveBuiltApp(app, options.distFolder ?? DEFAULT_DIST);
};
