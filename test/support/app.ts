/** Builds the real Fastify app on a test database, and organizations with API keys to call it with. */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/http/app.js';
import type { Database } from '../../src/db/types.js';
import { createApiKey } from '../../src/auth/api-key-store.js';
import { organization } from './fixtures.js';

/** The real app; `options` only for what a test varies (clock, limits, …). */
export async function startApp(db: Database, options: Omit<AppOptions, 'db'> = {}): Promise<FastifyInstance> {
  return buildApp({ ...options, db });
}

export interface LoggedApp {
  app: FastifyInstance;
  /** The app's log lines (level info and up), parsed; a test may empty it. */
  logs: Record<string, unknown>[];
}

/** The real app with its log lines collected. */
export async function startLoggedApp(db: Database, options: Omit<AppOptions, 'db' | 'logStream' | 'logLevel'> = {}): Promise<LoggedApp> {
  const logs: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = await buildApp({ ...options, db, logLevel: 'info', logStream });
  return { app, logs };
}

export interface TestOrganization {
  id: string;
  key: string;
}

/** An organization with a key of the given scopes (default read,write). */
export async function createOrganization(db: Database, name: string, scopes = ['read', 'write']): Promise<TestOrganization> {
  const id = await organization(db, { name });
  const key = await createApiKey(db, { organizationId: id, name: 'test', scopes, expiresAt: null });
  return { id, key: key.api_key };
}

export async function createKey(db: Database, organizationId: string, scopes: string[], expiresAt: string | null = null): Promise<string> {
  return (await createApiKey(db, { organizationId, name: 'test', scopes, expiresAt })).api_key;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
