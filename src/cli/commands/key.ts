import type { Database, Queryable } from '../../db/types.js';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../../auth/api-key-store.js';
import { parseScopes, ScopeError } from '../../auth/scopes.js';
import { UsageError } from '../usage-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function requireOrganization(db: Queryable, id: string | undefined): Promise<string> {
  if (!id) throw new UsageError('--org is required');
  if (!UUID.test(id)) throw new UsageError(`--org must be an organization id (uuid), got "${id}"`);
  const { rows } = await db.query('SELECT 1 FROM api.organizations WHERE id = $1', [id]);
  if (rows.length === 0) throw new UsageError(`no organization ${id}`);
  return id;
}

async function resourceNames(db: Queryable): Promise<Set<string>> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'api' AND c.relkind IN ('r', 'v', 'p')`,
  );
  return new Set(rows.map((row) => row.name));
}

function parseExpiry(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const time = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(time)) throw new UsageError(`--expires-at must be an ISO 8601 date or timestamp, got "${raw}"`);
  if (time <= Date.now()) throw new UsageError(`--expires-at must be in the future, got "${raw}"`);
  return new Date(time).toISOString();
}

export interface KeyCreateOptions {
  org: string | undefined;
  name: string | undefined;
  scopes: string | undefined;
  expiresAt: string | undefined;
}

export async function createKey(db: Database, options: KeyCreateOptions) {
  const organizationId = await requireOrganization(db, options.org);
  let scopes: string[];
  try {
    scopes = parseScopes(options.scopes ?? 'read,write', await resourceNames(db));
  } catch (error) {
    if (error instanceof ScopeError) throw new UsageError(`--scopes: ${error.message}`);
    throw error;
  }
  const key = await createApiKey(db, {
    organizationId,
    name: options.name ?? 'api key',
    scopes,
    expiresAt: parseExpiry(options.expiresAt),
  });
  return {
    id: key.id,
    key_id: key.key_id,
    api_key: key.api_key,
    organization_id: key.organization_id,
    name: key.name,
    scopes: key.scopes,
    expires_at: key.expires_at,
  };
}

export async function listKeys(db: Database, org: string | undefined): Promise<ApiKeyRecord[]> {
  return listApiKeys(db, await requireOrganization(db, org));
}

export async function revokeKey(db: Database, keyIdOrId: string | undefined): Promise<ApiKeyRecord> {
  if (!keyIdOrId) throw new UsageError('key revoke needs a KEY_ID (or the key\'s id)');
  const key = await revokeApiKey(db, keyIdOrId);
  if (!key) throw new UsageError(`no API key ${keyIdOrId}`);
  return key;
}

export function formatKeyTable(keys: ApiKeyRecord[]): string {
  if (keys.length === 0) return 'no API keys';
  const rows = keys.map((key) => [
    key.key_id,
    key.name,
    key.scopes.join(','),
    key.revoked_at ? `revoked ${key.revoked_at}` : key.expires_at ? `expires ${key.expires_at}` : 'active',
    key.last_used_at ?? 'never used',
  ]);
  return [['KEY_ID', 'NAME', 'SCOPES', 'STATUS', 'LAST USED'], ...rows].map((row) => row.join('\t')).join('\n');
}
