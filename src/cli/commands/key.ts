import type { Database, Queryable } from '../../db/types.js';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../../auth/api-key-store.js';
import { parseScopes, ScopeError } from '../../auth/scopes.js';
import { UUID } from '../../common/patterns.js';
import { UsageError } from '../support/usage-error.js';

/** Checks an `--org` value's form before any database is opened. */
export function organizationArgument(id: string | undefined): string {
  if (!id) throw new UsageError('--org is required');
  if (!UUID.test(id)) throw new UsageError(`--org must be an organization id (uuid), got "${id}"`);
  return id;
}

async function requireOrganization(db: Queryable, id: string): Promise<string> {
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

function scopes(raw: string, resources?: ReadonlySet<string>): string[] {
  try {
    return parseScopes(raw, resources);
  } catch (error) {
    if (error instanceof ScopeError) throw new UsageError(`--scopes: ${error.message}`);
    throw error;
  }
}

function expiry(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const time = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(time)) throw new UsageError(`--expires-at must be an ISO 8601 date or timestamp, got "${raw}"`);
  if (time <= Date.now()) throw new UsageError(`--expires-at must be in the future, got "${raw}"`);
  return new Date(time).toISOString();
}

export interface KeyCreateArguments {
  org: string;
  name: string;
  scopes: string;
  expiresAt: string | null;
}

/** Everything `key create` can check without the database, so bad input fails fast. */
export function keyCreateArguments(values: { org?: string; name?: string; scopes?: string; expiresAt?: string }): KeyCreateArguments {
  const raw = values.scopes ?? 'read,write';
  scopes(raw);
  return { org: organizationArgument(values.org), name: values.name ?? 'api key', scopes: raw, expiresAt: expiry(values.expiresAt) };
}

export async function createKey(db: Database, args: KeyCreateArguments) {
  const organizationId = await requireOrganization(db, args.org);
  const key = await createApiKey(db, {
    organizationId,
    name: args.name,
    scopes: scopes(args.scopes, await resourceNames(db)),
    expiresAt: args.expiresAt,
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

export async function listKeys(db: Database, org: string): Promise<ApiKeyRecord[]> {
  return listApiKeys(db, await requireOrganization(db, org));
}

export async function revokeKey(db: Database, keyIdOrId: string): Promise<ApiKeyRecord> {
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
