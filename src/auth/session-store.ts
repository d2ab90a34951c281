/**
 * Dashboard sessions in `staykit_internal.sessions`. Every statement takes the time from the caller (the app's
 * clock), so idle and absolute expiry follow one clock that tests can set. A session is valid while it is not
 * revoked, `now < expires_at` (absolute expiry, fixed at login) and `now < last_seen_at + idle timeout`.
 */
import type { Queryable } from '../db/types.js';
import { generateToken, hashToken } from '../users/secret-token.js';
import type { MemberPermission } from './session-permissions.js';

export interface SessionLifetime {
  idleSeconds: number;
  maxAgeSeconds: number;
}

export interface NewSession {
  id: string;
  /** The cookie's value: exists only in the response that sets it. */
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

export async function createSession(
  db: Queryable, userId: string, organizationId: string, now: Date, lifetime: SessionLifetime,
): Promise<NewSession> {
  const token = generateToken();
  const csrfToken = generateToken();
  const expiresAt = new Date(now.getTime() + lifetime.maxAgeSeconds * 1000);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO staykit_internal.sessions (token_hash, user_id, organization_id, csrf_token, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $5, $6) RETURNING id`,
    [hashToken(token), userId, organizationId, csrfToken, now.toISOString(), expiresAt.toISOString()],
  );
  return { id: rows[0]!.id, token, csrfToken, expiresAt };
}

/** A valid session with its user, organization and the member the user is there. */
export interface ActiveSession {
  id: string;
  csrfToken: string;
  lastSeenAt: Date;
  user: { id: string; email: string };
  organization: { id: string; name: string; timezone: string; currency: string; language: string };
  member: { id: string; name: string; role: string; permissions: MemberPermission[] };
}

interface SessionRow {
  id: string;
  csrf_token: string;
  last_seen_ms: number;
  user_id: string;
  email: string;
  organization_id: string;
  organization_name: string;
  timezone: string;
  currency: string;
  language: string;
  member_id: string;
  member_name: string;
  role: string;
  permissions: MemberPermission[];
}

/**
 * The session of a cookie's token if it is valid now and its user is still an active member of its organization
 * (a member deactivated or removed loses their sessions there at once). Role and permissions are read with it, so
 * a change of grants applies to the next request.
 */
export async function findActiveSession(
  db: Queryable, token: string, now: Date, lifetime: SessionLifetime,
): Promise<ActiveSession | undefined> {
  const { rows } = await db.query<SessionRow>(
    `SELECT s.id, s.csrf_token, (extract(epoch FROM s.last_seen_at) * 1000)::float8 AS last_seen_ms, u.id AS user_id, u.email,
            o.id AS organization_id, o.name AS organization_name, o.timezone, o.currency, o.language,
            m.id AS member_id, m.name AS member_name, m.role,
            coalesce((SELECT jsonb_agg(jsonb_build_object('resource', p.resource, 'access', p.access) ORDER BY p.resource, p.access)
                      FROM api.permissions AS p WHERE p.member_id = m.id AND p.organization_id = m.organization_id), '[]') AS permissions
     FROM staykit_internal.sessions AS s
     JOIN staykit_internal.users AS u ON u.id = s.user_id
     JOIN api.organizations AS o ON o.id = s.organization_id
     JOIN api.members AS m ON m.organization_id = s.organization_id AND m.user_id = s.user_id AND m.active
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2::timestamptz
       AND s.last_seen_at > $2::timestamptz - make_interval(secs => $3::float8)`,
    [hashToken(token), now.toISOString(), lifetime.idleSeconds],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    csrfToken: row.csrf_token,
    lastSeenAt: new Date(row.last_seen_ms),
    user: { id: row.user_id, email: row.email },
    organization: { id: row.organization_id, name: row.organization_name, timezone: row.timezone, currency: row.currency, language: row.language },
    member: { id: row.member_id, name: row.member_name, role: row.role, permissions: row.permissions },
  };
}

/** Marks the session used now (what idle expiry counts from). */
export async function touchSession(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query('UPDATE staykit_internal.sessions SET last_seen_at = greatest(last_seen_at, $2::timestamptz) WHERE id = $1', [id, now.toISOString()]);
}

/** Revokes the session of a cookie's token (whatever its state); true when there was one to revoke. */
export async function revokeSessionByToken(db: Queryable, token: string, now: Date): Promise<boolean> {
  const { rows } = await db.query(
    'UPDATE staykit_internal.sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL RETURNING id',
    [hashToken(token), now.toISOString()],
  );
  return rows.length > 0;
}

/** Revokes every session of a user (a new password). */
export async function revokeUserSessions(db: Queryable, userId: string, now: Date): Promise<void> {
  await db.query('UPDATE staykit_internal.sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now.toISOString()]);
}

export async function switchSessionOrganization(db: Queryable, sessionId: string, organizationId: string): Promise<void> {
  await db.query('UPDATE staykit_internal.sessions SET organization_id = $2 WHERE id = $1', [sessionId, organizationId]);
}

/** Deletes the user's sessions that can never be used again (revoked, or past either expiry), so they do not pile up. */
export async function forgetEndedSessions(db: Queryable, userId: string, now: Date, lifetime: SessionLifetime): Promise<void> {
  await db.query(
    `DELETE FROM staykit_internal.sessions
     WHERE user_id = $1 AND (revoked_at IS NOT NULL OR expires_at <= $2::timestamptz
                             OR last_seen_at <= $2::timestamptz - make_interval(secs => $3::float8))`,
    [userId, now.toISOString(), lifetime.idleSeconds],
  );
}
