/** Builds the real Fastify app on a test database, and organizations with API keys to call it with. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import type { Database } from '../../src/db/types.js';
import { createApiKey } from '../../src/auth/api-key-store.js';

export async function startApp(db: Database): Promise<FastifyInstance> {
  return buildApp({ db });
}

export interface TestOrganization {
  id: string;
  key: string;
}

/** An organization with a key of the given scopes (default read,write). */
export async function createOrganization(db: Database, name: string, scopes = ['read', 'write']): Promise<TestOrganization> {
  const { rows } = await db.query<{ id: string }>('INSERT INTO api.organizations (name) VALUES ($1) RETURNING id', [name]);
  const id = rows[0]!.id;
  const key = await createApiKey(db, { organizationId: id, name: 'test', scopes, expiresAt: null });
  return { id, key: key.api_key };
}

export async function createKey(db: Database, organizationId: string, scopes: string[], expiresAt: string | null = null): Promise<string> {
  return (await createApiKey(db, { organizationId, name: 'test', scopes, expiresAt })).api_key;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
