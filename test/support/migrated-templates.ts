/**
 * Migrated databases to start tests' databases from, made once per set of migrations instead of running initdb and
 * every migration for each test's database:
 * - PGlite: an image of a migrated data folder (an uncompressed tar, PGlite's `dumpDataDir('none')`), kept in the
 *   temporary directory; a test's in-memory database starts from it (`openPGlite(undefined, { image })`). Measured on
 *   the 2-core machine: 5–7 s (8–11 s of CPU) per test database before, ~1.4 s from the image.
 * - PostgreSQL: a template database on the server, which `CREATE DATABASE … TEMPLATE` copies (~1.4 s before, the
 *   migrations; the copy is a fraction of that).
 * Each is named by a hash of the migrations (and PGlite's version for the image), so a changed migration makes a new
 * one. Test processes that find none make one; the image is moved into place whole, the template renamed into place
 * under an advisory lock once migrated, so no test starts from a half-made one.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { openPGlite } from '../../src/db/pglite.js';
import { openPostgres } from '../../src/db/postgres.js';

const PGLITE_PACKAGE = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url);
/** Any fixed number: the lock under which a template is made. */
const TEMPLATE_LOCK_KEY = 7_242_025;
const TEMPLATE_PREFIX = 'staykit_test_template_';
/** Written on a template when it is made, so a cleanup can tell a stale one from another checkout's fresh one. */
const MADE_AT_COMMENT = `made at ${new Date().toISOString()}`;

/** A hash of the migrations, in order, and of whatever else `extra` names. */
async function migrationsKey(...extra: Buffer[]): Promise<string> {
  const hash = createHash('sha256');
  for (const part of extra) hash.update(part);
  for (const { id, sql } of await loadMigrations()) hash.update(id).update(sql);
  return hash.digest('hex').slice(0, 16);
}

/** Made once per process (the arguments are the same for every call of a process); a failure is tried again. */
function once<A extends unknown[], T>(make: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  let made: Promise<T> | undefined;
  return (...args) => {
    made ??= make(...args).catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}

/** The image of a PGlite database with every migration applied. */
export const migratedImage = once(async (): Promise<Uint8Array<ArrayBuffer>> => {
  const file = join(tmpdir(), `staykit-test-pglite-${await migrationsKey(await readFile(PGLITE_PACKAGE))}.tar`);
  const kept = await readFile(file).catch(() => undefined);
  if (kept) return new Uint8Array(kept.buffer.slice(kept.byteOffset, kept.byteOffset + kept.byteLength));
  const dir = await mkdtemp(join(tmpdir(), 'staykit-test-image-'));
  try {
    const dataDir = join(dir, 'data');
    const db = await openPGlite(dataDir);
    await migrate(db);
    await db.close();
    const pglite = await PGlite.create({ dataDir, extensions: { btree_gist } });
    const made = new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
    await pglite.close();
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, made);
    await rename(partial, file);
    return made;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** The name of a template database on `adminUrl`'s server with every migration applied. */
export const migratedTemplate = once(async (adminUrl: string): Promise<string> => {
  const name = `${TEMPLATE_PREFIX}${await migrationsKey()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = async () => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    if (await exists()) return name;
    const building = `${name}_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${building}`);
    await admin.query(`CREATE DATABASE ${building}`);
    const db = await openPostgres({ connectionString: withDatabase(adminUrl, building), maxConnections: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    await admin.query(`COMMENT ON DATABASE ${name} IS '${MADE_AT_COMMENT}'`);
    // Templates of other migrations are left from earlier runs: dropped when no one is using them and they are
    // older than a working day — a younger one may be another checkout's (a branch with other migrations) whose
    // run is about to copy it.
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database
        WHERE datname LIKE $1 AND datname <> $2
          AND coalesce(substring(shobj_description(oid, 'pg_database') FROM '^made at (.*)$')::timestamptz, '-infinity') < now() - interval '12 hours'`,
      [`${TEMPLATE_PREFIX}%`, name]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
    return name;
  } finally {
    await admin.end();
  }
});
