/**
 * One-time links to set a password (`/admin/set-password?token=…`), printed by `staykit user create` and
 * `staykit user reset-password`: the token is shown once, only its SHA-256 is stored, it works once and expires. A
 * user has one usable link at most: a new link voids the older ones, and a new password voids them all (triggers of
 * migration 0200, so every way of making a link or setting a password is covered).
 */
import type { Queryable } from '../db/types.js';
import { generateToken, hashToken, isTokenShaped } from './secret-token.js';

/** How long a set-password link works. */
export const PASSWORD_LINK_TTL_MS = 72 * 3600_000;

export const SET_PASSWORD_PATH = '/admin/set-password';

export async function createPasswordToken(db: Queryable, userId: string, now: Date): Promise<string> {
  const token = generateToken();
  await db.query(
    `INSERT INTO staykit_internal.password_tokens (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
    [hashToken(token), userId, now.toISOString(), new Date(now.getTime() + PASSWORD_LINK_TTL_MS).toISOString()],
  );
  return token;
}

/** The link a user opens to set their password, on the server at `baseUrl`. */
export function passwordLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${SET_PASSWORD_PATH}?token=${token}`;
}

/**
 * The user a usable token (known, unused, unexpired) sets the password of, without using it up: looked up before the
 * new password is checked and hashed, so a made-up token costs the server no more than this lookup.
 */
export async function passwordTokenUser(db: Queryable, token: string, now: Date): Promise<{ id: string; email: string } | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const { rows } = await db.query<{ id: string; email: string }>(
    `SELECT u.id, u.email FROM staykit_internal.password_tokens AS t JOIN staykit_internal.users AS u ON u.id = t.user_id
     WHERE t.token_hash = $1 AND t.used_at IS NULL AND t.expires_at > $2`,
    [hashToken(token), now.toISOString()],
  );
  return rows[0];
}

/** Uses the token up; returns its user, or undefined when it is unknown, used or expired. */
export async function consumePasswordToken(db: Queryable, token: string, now: Date): Promise<string | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const { rows } = await db.query<{ user_id: string }>(
    `UPDATE staykit_internal.password_tokens SET used_at = $2
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id`,
    [hashToken(token), now.toISOString()],
  );
  return rows[0]?.user_id;
}
