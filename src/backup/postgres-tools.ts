/**
 * A PostgreSQL database in a backup: `pg_dump` in its custom format (`-Fc`), loaded by `pg_restore` into a fresh
 * database. PostgreSQL's client tools do this exactly (every row, sequence, privilege, function), so Staykit only runs
 * them; a machine without them gets a message saying what to install. The tools' version must be the server's major
 * version or newer (pg_dump says so itself otherwise).
 *
 * Roles belong to the server, not to a database, so a dump has no `CREATE ROLE`: the roles the server's user takes
 * (staykit_api and the roles that inherit it, docs/deployment.md#postgresql) are listed in the manifest and made on
 * the target server when it lacks them, before the dump's privileges name them.
 */
import { spawn } from 'node:child_process';
import type { Queryable } from '../db/types.js';
import { BackupRefusedError } from './manifest.js';

export interface PostgresRole {
  name: string;
  /** The roles it inherits (is a member of), among the listed ones. */
  member_of: string[];
}

/** Raised when a client tool is missing or fails: exit code 1 with its message. */
export class PostgresToolError extends Error {}

/** A connection URL for the tools, with its password moved to PGPASSWORD so that it is not on a command line. */
function toolConnection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

function run(tool: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(new PostgresToolError(error.code === 'ENOENT'
        ? `${tool} was not found: install PostgreSQL's client tools (the server's major version or newer; e.g. apt install postgresql-client) and make sure ${tool} is on PATH`
        : `${tool} could not be started: ${error.message}`));
    });
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new PostgresToolError(`${tool} failed (exit code ${code}): ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
    });
  });
}

/** `pg_dump -Fc` of the database at `url` into the file `file`. */
export function dumpDatabase(url: string, file: string): Promise<void> {
  const connection = toolConnection(url);
  return run('pg_dump', ['--format=custom', '--file', file, '--dbname', connection.url], connection.env);
}

/**
 * `pg_restore` of the dump `file` into the database at `url`, in one transaction: it lands whole or not at all.
 * Objects are owned by the restoring user (the one of DATABASE_URL, as after migrations).
 */
export function restoreDatabase(url: string, file: string): Promise<void> {
  const connection = toolConnection(url);
  return run('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', '--dbname', connection.url, file], connection.env);
}

/**
 * The login-less roles the database's privileges and row policies name (staykit_api and the roles that inherit it),
 * with the memberships among them.
 */
export async function databaseRoles(db: Queryable): Promise<PostgresRole[]> {
  const { rows } = await db.query<PostgresRole>(`
    WITH named AS (
      SELECT (aclexplode(relacl)).grantee AS oid FROM pg_class WHERE relacl IS NOT NULL
      UNION SELECT (aclexplode(attacl)).grantee FROM pg_attribute WHERE attacl IS NOT NULL
      UNION SELECT (aclexplode(nspacl)).grantee FROM pg_namespace WHERE nspacl IS NOT NULL
      UNION SELECT (aclexplode(proacl)).grantee FROM pg_proc WHERE proacl IS NOT NULL
      UNION SELECT unnest(polroles) FROM pg_policy),
    taken AS (
      SELECT r.oid, r.rolname::text AS name FROM pg_roles AS r JOIN named USING (oid)
      WHERE NOT r.rolcanlogin AND r.rolname NOT LIKE 'pg\\_%')
    SELECT t.name, coalesce(array_agg(p.name ORDER BY p.name) FILTER (WHERE p.name IS NOT NULL), '{}') AS member_of
    FROM taken AS t
    LEFT JOIN pg_auth_members AS m ON m.member = t.oid
    LEFT JOIN taken AS p ON p.oid = m.roleid
    GROUP BY t.name ORDER BY t.name`);
  return rows;
}

/** Makes the missing ones of `roles` (login-less), their memberships, and the server's user a member of each. */
export async function ensureRoles(db: Queryable, roles: PostgresRole[]): Promise<void> {
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  for (const role of roles) {
    const { rows } = await db.query<{ present: boolean }>('SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS present', [role.name]);
    if (!rows[0]?.present) await db.exec(`CREATE ROLE ${quote(role.name)} NOLOGIN`);
  }
  for (const role of roles) {
    for (const parent of role.member_of) await db.exec(`GRANT ${quote(parent)} TO ${quote(role.name)}`);
    const { rows } = await db.query<{ member: boolean }>(`SELECT pg_has_role(current_user, $1, 'MEMBER') AS member`, [role.name]);
    if (!rows[0]?.member) await db.exec(`GRANT ${quote(role.name)} TO current_user`);
  }
}

/** The schemas of the database that hold something (`public` only when it is not empty). */
async function usedSchemas(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(`
    SELECT n.nspname AS name FROM pg_namespace AS n
    WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
      AND (n.nspname <> 'public' OR EXISTS (SELECT 1 FROM pg_class AS c WHERE c.relnamespace = n.oid))
    ORDER BY 1`);
  return rows.map((row) => row.name);
}

/**
 * Refuses a database that holds anything beyond an empty `public` schema; with `force`, empties it instead: every
 * schema dropped with what it holds, `public` made again empty. (pg_restore's own `--clean` cannot drop the indexes of
 * partitioned tables' partitions, which Staykit's logs are.)
 */
export async function emptyOrRefuse(db: Queryable, force: boolean): Promise<void> {
  const schemas = await usedSchemas(db);
  if (schemas.length === 0) return;
  if (!force) {
    throw new BackupRefusedError(
      `the database of DATABASE_URL is not empty (schemas: ${schemas.join(', ')}): restore into a new database `
      + '(CREATE DATABASE …), or pass --force to drop what it holds first',
    );
  }
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  await db.exec(`DROP SCHEMA ${schemas.map(quote).join(', ')} CASCADE;
    CREATE SCHEMA IF NOT EXISTS public;
    GRANT USAGE ON SCHEMA public TO PUBLIC;`);
}
