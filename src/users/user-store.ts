/**
 * Dashboard users (`staykit_internal.users`) and their place in organizations: one `api.user_profiles` row per
 * organization, linked to one `api.members` row whose role and permissions are the user's grants there. Run by the
 * server and the CLI as the tables' owner, never as the API role.
 */
import type { Queryable } from '../db/types.js';

export interface UserRecord {
  id: string;
  email: string;
  password_hash: string | null;
}

export interface Membership {
  id: string;
  name: string;
  role: string;
}

export const MEMBER_ROLES = ['owner', 'admin', 'manager', 'staff', 'cleaner', 'maintenance'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRecord | undefined> {
  const { rows } = await db.query<UserRecord>(
    'SELECT id, email, password_hash FROM staykit_internal.users WHERE lower(email) = lower($1)',
    [email],
  );
  return rows[0];
}

/** The user with this e-mail address, created (without a password) when there is none. */
export async function ensureUser(db: Queryable, email: string): Promise<UserRecord & { created: boolean }> {
  const { rows } = await db.query<UserRecord>(
    `INSERT INTO staykit_internal.users (email) VALUES ($1) ON CONFLICT ((lower(email))) DO NOTHING
     RETURNING id, email, password_hash`,
    [email],
  );
  if (rows[0]) return { ...rows[0], created: true };
  return { ...(await findUserByEmail(db, email))!, created: false };
}

export interface NewMembership {
  userId: string;
  email: string;
  organizationId: string;
  name: string;
  role: MemberRole;
}

/**
 * Makes the user a member of the organization: their profile there and the member row linked to it. A member the
 * organization already added with this e-mail address and no login yet (the dashboard's members page) becomes this
 * user's — not a second member for the same person; otherwise the member row is created, or updated to the given role
 * when the user is a member already. Returns the member's id.
 */
export async function addMembership(db: Queryable, membership: NewMembership): Promise<string> {
  const { userId, email, organizationId, name, role } = membership;
  await db.query(
    `INSERT INTO api.user_profiles (organization_id, user_id, name, email) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, organization_id) DO NOTHING`,
    [organizationId, userId, name, email],
  );
  const linked = await db.query<{ id: string }>(
    `UPDATE api.members SET user_id = $2, role = $3, active = true
     WHERE id = (SELECT m.id FROM api.members AS m
                 WHERE m.organization_id = $1 AND m.user_id IS NULL AND lower(m.email) = lower($4)
                   AND NOT EXISTS (SELECT 1 FROM api.members AS taken WHERE taken.organization_id = $1 AND taken.user_id = $2)
                 ORDER BY m.created_at, m.id LIMIT 1)
       AND organization_id = $1
     RETURNING id`,
    [organizationId, userId, role, email],
  );
  if (linked.rows[0]) return linked.rows[0].id;
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO api.members (organization_id, user_id, name, email, role) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (organization_id, user_id) WHERE user_id IS NOT NULL DO UPDATE SET role = EXCLUDED.role, active = true
     RETURNING id`,
    [organizationId, userId, name, email, role],
  );
  return rows[0]!.id;
}

/** The organizations where the user is an active member, by name. */
export async function memberships(db: Queryable, userId: string): Promise<Membership[]> {
  const { rows } = await db.query<Membership>(
    `SELECT o.id, o.name, m.role FROM api.members AS m JOIN api.organizations AS o ON o.id = m.organization_id
     WHERE m.user_id = $1 AND m.active ORDER BY o.name, o.id`,
    [userId],
  );
  return rows;
}

/** Stores a new password hash; the caller revokes the user's sessions in the same transaction. */
export async function setPasswordHash(db: Queryable, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db.query(
    'UPDATE staykit_internal.users SET password_hash = $2, password_changed_at = $3 WHERE id = $1',
    [userId, passwordHash, now.toISOString()],
  );
}
