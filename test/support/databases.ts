/**
 * Every database test runs on each available backend: PGlite always, PostgreSQL when TEST_DATABASE_URL is set
 * (then it is required) or a server answers on 127.0.0.1:5432. Each suite gets a fresh, migrated database of
 * its own, dropped afterwards: a copy of a migrated one (./migrated-templates.ts) unless it asks for an empty one.
 */
import { after, before, describe } from 'node:test';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPGlite } from '../../src/db/pglite.js';
import { migratedImage, migratedTemplate } from './migrated-templates.js';
import { openPostgres } from '../../src/db/postgres.js';
import { migrate } from '../../src/db/migrate.js';
import { sharedPgBouncer } from '../scale/support/pgbouncer.js';
import type { Backend, Database } from '../../src/db/types.js';

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresAdminUrl(): Promise<string | undefined> {
  const explicit = process.env.TEST_DATABASE_URL;
  if (explicit) return explicit;
  if (process.env.STAYKIT_TEST_BACKENDS === 'pglite') return undefined;
  const client = new pg.Client({ connectionString: LOCAL_POSTGRES, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return LOCAL_POSTGRES;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const adminUrl = await postgresAdminUrl();
if (!adminUrl && process.env.STAYKIT_TEST_BACKENDS !== 'pglite') {
  // Say it loudly: a green run on PGlite alone has not exercised the concurrency and multi-process tests.
  console.log('# PostgreSQL is not reachable (set TEST_DATABASE_URL or start it on 127.0.0.1:5432): running on PGlite ONLY');
}

if (process.env.STAYKIT_TEST_BACKENDS === 'postgres' && !adminUrl) {
  throw new Error('STAYKIT_TEST_BACKENDS=postgres, but PostgreSQL is not reachable (set TEST_DATABASE_URL)');
}

/** `STAYKIT_TEST_BACKENDS=postgres` runs PostgreSQL alone: a quick loop while writing a change, never CI's run. */
export const BACKENDS: Backend[] = process.env.STAYKIT_TEST_BACKENDS === 'postgres'
  ? ['postgres']
  : adminUrl ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase {
  db: Database;
  /** Set only on PostgreSQL: a URL of this test's own database, for tests that start a second process. */
  url: string | undefined;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database, migrated unless `migrated` is false. */
export async function createTestDatabase(backend: Backend, options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  let testDb: TestDatabase;
  if (backend === 'pglite') {
    // A migrated database starts from the migrated image (./migrated-templates.ts); migrate() below finds nothing to do.
    const db = await openPGlite(undefined, options.migrated === false ? {} : { image: await migratedImage() });
    // PGlite is one session: the setting below, for that session.
    await db.query(`SELECT set_config('staykit.unlisted_reads', 'error', false)`);
    testDb = { db, url: undefined, drop: () => db.close() };
  } else {
    if (!adminUrl) throw new Error('PostgreSQL is not available for tests');
    const name = `staykit_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    // A migrated database is a copy of the migrated template (./migrated-templates.ts).
    await adminQuery(options.migrated === false ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(adminUrl)}`);
    await adminQuery(`ALTER DATABASE ${name} SET staykit.unlisted_reads = 'error'`);
    const url = withDatabase(adminUrl, name);
    // STAYKIT_TEST_PGBOUNCER=1: the tests' connections go through PgBouncer in transaction mode (docs/testing.md).
    const bouncer = process.env.STAYKIT_TEST_PGBOUNCER === '1' ? await sharedPgBouncer(adminUrl) : undefined;
    const db = await openPostgres(bouncer
      ? { connectionString: withDatabase(bouncer.url, name), maxConnections: 5, pooled: true }
      : { connectionString: url, maxConnections: 5 });
    testDb = {
      db,
      url,
      async drop() {
        await db.close();
        await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  if (options.migrated !== false) await migrate(testDb.db);
  return testDb;
}

export interface BackendContext {
  backend: Backend;
  /** Valid inside tests (after the suite's `before`). */
  db: Database;
  url: string | undefined;
}

/** Declares `suite` once per backend, each with its own fresh migrated database in `ctx.db`. */
export function forEachBackend(name: string, suite: (ctx: BackendContext) => void): void {
  for (const backend of BACKENDS) {
    describe(`${name} [${backend}]`, () => {
      const ctx = { backend } as BackendContext;
      let testDb: TestDatabase | undefined;
      before(async () => {
        testDb = await createTestDatabase(backend);
        ctx.db = testDb.db;
        ctx.url = testDb.url;
      });
      after(async () => {
        await testDb?.drop();
      });
      suite(ctx);
    });
  }
}
