/**
 * `GET|PUT /admin/api/my-notifications`: the e-mail notifications of the signed-in member (members.notify,
 * migration 0219) — each member chooses their own, whatever their permissions; members:write may set anyone's
 * through the API. GET answers `{notify, chosen, available}` (the notifications they get; `chosen` false while they
 * follow their role's default; every notification there is, from the database). PUT `{"notify": [...]}` sets them (null: back to the role's default), with the session's
 * CSRF token; an unknown notification is a 400 naming the ones there are.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { SessionAuthenticator } from '../auth/session-authenticate.js';
import type { Database } from '../db/types.js';
import { invalidBody } from '../errors/catalogue.js';
import { registerRoute } from '../routing/route-schema.js';
import { myNotificationsGet, myNotificationsPut, type MyNotifications } from './bodies.js';
import { dashboardAuthorization } from '../auth/session-authorize.js';

export interface NotificationRouteOptions {
  db: Database;
  sessions: SessionAuthenticator;
}

const MINE = `
  SELECT staykit_internal.member_notifications(m.role, m.notify) AS notify, m.notify IS NOT NULL AS chosen,
         staykit_internal.host_notification_kinds() AS available
  FROM api.members AS m WHERE m.id = $1 AND m.organization_id = $2`;


export const notificationRoutes: FastifyPluginAsync<NotificationRouteOptions> = async (app, { db, sessions }) => {
  const mine = async (memberId: string, organizationId: string): Promise<MyNotifications | undefined> =>
    (await db.query<MyNotifications>(MINE, [memberId, organizationId])).rows[0];

  const { authorize, sessionOf } = dashboardAuthorization(sessions);

  registerRoute(app, myNotificationsGet, authorize, async (request, reply) => {
    const { session } = sessionOf(request);
    return reply.send(await mine(session.member.id, session.organization.id));
  });

  registerRoute(app, myNotificationsPut, authorize, async (request, reply) => {
    const { session } = sessionOf(request);
    const { notify } = request.body;
    // Checked here for a 400 that names them; the column's CHECK would refuse them too, as a 500 from this connection.
    const { available } = (await mine(session.member.id, session.organization.id))!;
    const unknown = (notify ?? []).filter((name) => !available.includes(name));
    if (unknown.length > 0) {
      throw invalidBody(`Unknown notification ${unknown.map((name) => JSON.stringify(name)).join(', ')}; the notifications are ${available.join(', ')}`);
    }
    await db.query('UPDATE api.members SET notify = $3 WHERE id = $1 AND organization_id = $2',
      [session.member.id, session.organization.id, notify === null ? null : [...new Set(notify)]]);
    return reply.send(await mine(session.member.id, session.organization.id));
  });
};
