/**
 * `POST /admin/api/invitations` `{member_id}`: invite a member the organization added (the members page) to log in
 * — the dashboard's way to give someone a login, besides `staykit user create`. The member gets a user (or their
 * existing one) linked to the member row, a one-time set-password link (which voids older ones), and an e-mail with
 * the link, sent at once through the server's mailer (SMTP_URL, or the outbox folder). The link is a credential: it
 * is e-mailed to the member only, never stored in `api.messages` nor shown to the inviter.
 *
 * Who may: a session whose member may write members, inviting a member of its own rank or below (the role ceiling of
 * migration 0201: 403 SK708), with the session's CSRF token. A member without an e-mail address, a former member, or
 * one whose login already has a password cannot be invited (409 SK709). A mail server that does not take the message
 * is a 502 SK710 (the link stays valid; inviting again sends a new one).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { SessionAuthenticator } from '../auth/session-authenticate.js';
import { mailerFor, type Mailer } from '../automations/mailer.js';
import { fromHeader, namedAddress } from '../automations/runtime.js';
import type { Config } from '../config.js';
import type { Database } from '../db/types.js';
import { notFound } from '../errors/catalogue.js';
import { registerRoute } from '../routing/route-schema.js';
import { invite } from './bodies.js';
import { dashboardAuthorization } from '../auth/session-authorize.js';
import { apiError } from '../errors/registry.js';
import { createPasswordToken, passwordLink } from '../users/password-links.js';
import { addMembership, ensureUser, type MemberRole } from '../users/user-store.js';
import { invitationLabels } from './invitation-labels.js';

export interface InvitationRouteOptions {
  db: Database;
  sessions: SessionAuthenticator;
  config: Pick<Config, 'publicUrl' | 'emailFrom' | 'smtpUrl' | 'dataDir' | 'dkim'>;
}

interface InvitedMember {
  id: string;
  name: string;
  email: string | null;
  role: MemberRole;
  active: boolean;
  has_password: boolean;
  above_inviter: boolean;
  organization_name: string;
  language: string;
}

const MEMBER = `
  SELECT m.id, m.name, m.email, m.role, m.active, o.name AS organization_name, o.language,
         coalesce(u.password_hash IS NOT NULL, false) AS has_password,
         staykit_internal.member_role_rank(m.role) > staykit_internal.member_role_rank($3) AS above_inviter
  FROM api.members AS m
  JOIN api.organizations AS o ON o.id = m.organization_id
  LEFT JOIN staykit_internal.users AS u ON u.id = m.user_id
  WHERE m.id = $1 AND m.organization_id = $2`;

export const invitationRoutes: FastifyPluginAsync<InvitationRouteOptions> = async (app, { db, sessions, config }) => {
  let mailer: Mailer | undefined;
  app.addHook('onClose', async () => mailer?.close());

  const { authorize, sessionOf } = dashboardAuthorization(sessions);

  registerRoute(app, invite, authorize, async (request, reply) => {
    const { session } = sessionOf(request);
    const memberId = request.body.member_id.toLowerCase();
    const member = (await db.query<InvitedMember>(MEMBER, [memberId, session.organization.id, session.member.role])).rows[0];
    if (!member) throw notFound(`No member ${memberId}`);
    if (member.above_inviter) {
      throw apiError('SK708', { params: { message: `Only a member of role ${member.role} or higher may invite ${member.name}` } });
    }
    const refuse = (message: string) => apiError('SK709', { params: { message } });
    if (!member.email) throw refuse(`${member.name} has no e-mail address: add one first`);
    if (!member.active) throw refuse(`${member.name} is a former member`);
    if (member.has_password) throw refuse(`${member.name} has a login already (a forgotten password is reset with staykit user reset-password)`);

    const now = sessions.now();
    const email = member.email;
    const token = await db.transaction(async (tx) => {
      const user = await ensureUser(tx, email);
      await addMembership(tx, { userId: user.id, email, organizationId: session.organization.id, name: member.name, role: member.role });
      return createPasswordToken(tx, user.id, now);
    });
    const t = invitationLabels(member.language);
    const words = { inviter: session.member.name, organization: member.organization_name, name: member.name, email };
    mailer ??= mailerFor(config);
    const outcome = await mailer.send({
      messageId: `<invitation-${randomUUID()}@staykit>`,
      from: fromHeader(config.emailFrom, member.organization_name),
      replyTo: undefined,
      to: namedAddress(member.name, email),
      subject: t('subject', words),
      text: t('body', { ...words, link: passwordLink(config.publicUrl, token) }),
      attachments: [],
    });
    if (outcome.kind !== 'sent') throw apiError('SK710', { params: { message: outcome.response } });
    return reply.code(201).send({ member_id: member.id, email, sent: true });
  });
};
