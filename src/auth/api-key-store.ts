/** API keys in `staykit_internal.api_keys`: created, listed and revoked by the CLI, looked up per request. */
import type { Queryable } from '../db/types.js';
import { generateApiKey } from './api-key-format.js';

export interface ApiKeyRecord {
  id: string;
  key_id: string;
  organization_id: string;
  name: string;
  scopes: string[];
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

const PUBLIC_COLUMNS = 'id, key_id, organization_id, name, scopes, expires_at, revoked_at, last_used_at, created_at';

export interface NewApiKey {
  organizationId: string;
  name: string;
  scopes: string[];
  expiresAt: string | null;
}

/** Creates a key; the returned `api_key` is the only time the full token exists anywhere. */
export async function createApiKey(db: Queryable, key: NewApiKey): Promise<ApiKeyRecord & { api_key: string }> {
  const generated = generateApiKey();
  const { rows } = await db.query<ApiKeyRecord>(
    `INSERT INTO staykit_internal.api_keys (organization_id, key_id, secret_hash, name, scopes, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${PUBLIC_COLUMNS}`,
    [key.organizationId, generated.keyId, generated.secretHash, key.name, key.scopes, key.expiresAt],
  );
  return { ...rows[0]!, api_key: generated.token };
}

export async function listApiKeys(db: Queryable, organizationId: string): Promise<ApiKeyRecord[]> {
  const { rows } = await db.query<ApiKeyRecord>(
    `SELECT ${PUBLIC_COLUMNS} FROM staykit_internal.api_keys WHERE organization_id = $1 ORDER BY created_at, key_id`,
    [organizationId],
  );
  return rows;
}

/** Revokes by public `key_id` or by row `id`; returns the revoked key, or undefined when none matched. */
export async function revokeApiKey(db: Queryable, keyIdOrId: string): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query<ApiKeyRecord>(
    `UPDATE staykit_internal.api_keys SET revoked_at = coalesce(revoked_at, now())
     WHERE key_id = $1 OR id::text = $1 RETURNING ${PUBLIC_COLUMNS}`,
    [keyIdOrId],
  );
  return rows[0];
}

export interface ActiveKey {
  id: string;
  keyId: string;
  organizationId: string;
  scopes: string[];
  secretHash: string;
}

/** The key with this public id if it is neither revoked nor expired. */
export async function findActiveKey(db: Queryable, keyId: string): Promise<ActiveKey | undefined> {
  const { rows } = await db.query<{ id: string; organization_id: string; scopes: string[]; secret_hash: string }>(
    `SELECT id, organization_id, scopes, secret_hash FROM staykit_internal.api_keys
     WHERE key_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
    [keyId],
  );
  const row = rows[0];
  return row && { id: row.id, keyId, organizationId: row.organization_id, scopes: row.scopes, secretHash: row.secret_hash };
}

/** Marks the key used; callers throttle this to once a minute per key. */
export async function touchApiKey(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE staykit_internal.api_keys SET last_used_at = now() WHERE id = $1', [id]);
}
