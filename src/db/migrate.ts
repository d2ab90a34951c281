import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { STAYKIT_VERSION } from '../common/version.js';
import type { Database, Queryable } from './types.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** Any fixed number: every process that migrates takes this transaction-level advisory lock first. */
const MIGRATION_LOCK_KEY = 7_242_024;

const MIGRATION_FILE = /^(\d{4})_[a-z0-9_]+\.sql$/;

export interface Migration {
  id: string;
  sql: string;
}

/** The ids of the migrations in `dir`, in the order they apply (their files are not read). */
export async function migrationIds(dir: string = MIGRATIONS_DIR): Promise<string[]> {
  return (await readdir(dir)).filter((name) => MIGRATION_FILE.test(name)).sort().map((name) => name.replace(/\.sql$/, ''));
}

export async function loadMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  return Promise.all((await migrationIds(dir)).map(async (id) => ({ id, sql: await readFile(`${dir}${id}.sql`, 'utf8') })));
}

async function appliedIds(db: Queryable): Promise<string[]> {
  const exists = await db.query<{ present: boolean }>(
    `SELECT to_regclass('staykit_internal.migrations') IS NOT NULL AS present`,
  );
  if (!exists.rows[0]?.present) return [];
  const { rows } = await db.query<{ id: string }>('SELECT id FROM staykit_internal.migrations ORDER BY id');
  return rows.map((row) => row.id);
}

export interface MigrationStatus {
  applied: string[];
  pending: string[];
  /** Applied migrations this Staykit does not have: a newer Staykit migrated the database. */
  unknown: string[];
  /** The newest applied migration, or null on an empty database. */
  current: string | null;
}

export async function migrationStatus(db: Queryable, dir?: string): Promise<MigrationStatus> {
  const [all, applied] = await Promise.all([migrationIds(dir), appliedIds(db)]);
  const done = new Set(applied);
  const known = new Set(all);
  return {
    applied,
    pending: all.filter((id) => !done.has(id)),
    unknown: applied.filter((id) => !known.has(id)),
    current: applied.at(-1) ?? null,
  };
}

/**
 * The API role's privileges follow the schema (migrations/0221, docs/schema.md#who-may-read-and-write-what): after the
 * migrations of a run, whatever tables and columns they added get their grants by the rules, so no migration re-grants
 * by hand. Done here rather than by an event trigger, which would take a superuser on PostgreSQL. A database migrated
 * only to before 0221 (a test of an old migration) has no such function yet.
 */
async function applyApiGrants(tx: Queryable): Promise<void> {
  const { rows } = await tx.query<{ present: boolean }>(
    `SELECT to_regprocedure('staykit_internal.apply_api_grants()') IS NOT NULL AS present`,
  );
  if (rows[0]?.present) await tx.query('SELECT staykit_internal.apply_api_grants()');
}

/**
 * The database was migrated by a newer Staykit. This one refuses to run on it: it would be half-compatible (its SQL
 * and the schema disagree) and could write what the newer one cannot read.
 */
export class NewerDatabaseError extends Error {
  constructor(readonly migration: string) {
    super(`the database was upgraded by a newer Staykit: it has migration ${migration}, which this Staykit (${STAYKIT_VERSION}) `
      + 'does not know. Run the newer Staykit, or restore a backup made with this version into a new database '
      + '(docs/operations.md#upgrade)');
  }
}

/**
 * Applies every pending migration in one transaction, in file order, recording each. Concurrent callers
 * serialise on an advisory lock, so the second one finds nothing left to do; a failing file rolls back all. Then the
 * API role's grants are recomputed (applyApiGrants).
 * A database with nothing pending — every start but the first after an upgrade — is told so by two catalog reads,
 * without reading the files or taking the lock (on the embedded database the transaction alone took ~0.2 s).
 */
export async function migrate(db: Database, dir?: string): Promise<string[]> {
  const status = await migrationStatus(db, dir);
  if (status.unknown.length > 0) throw new NewerDatabaseError(status.unknown.at(-1)!);
  if (status.pending.length === 0) return [];
  const migrations = await loadMigrations(dir);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`
      CREATE SCHEMA IF NOT EXISTS staykit_internal;
      CREATE TABLE IF NOT EXISTS staykit_internal.migrations (
        id text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      );`);
    const done = new Set(await appliedIds(tx));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      try {
        await tx.exec(migration.sql);
      } catch (error) {
        throw new Error(`migration ${migration.id} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx.query('INSERT INTO staykit_internal.migrations (id) VALUES ($1)', [migration.id]);
      applied.push(migration.id);
    }
    if (applied.length > 0) await applyApiGrants(tx);
    return applied;
  });
}
