/**
 * A PostgreSQL 15 server of the test's own: a new cluster in a temporary folder on a free port, started, restarted
 * and stopped by the test — the shared test server is left alone. Run as the postgres user when the tests run as
 * root (initdb refuses root).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './pgbouncer.js';

export const run = promisify(execFile);

export const POSTGRES_BIN = process.env.STAYKIT_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export function postgresBinariesAvailable(names = ['initdb', 'pg_ctl', 'postgres']): boolean {
  return names.every((name) => existsSync(join(POSTGRES_BIN, name)));
}

/** How the PostgreSQL binaries are run: as the postgres user when the tests run as root. */
export interface RunAs {
  uid?: number;
  gid?: number;
  env: NodeJS.ProcessEnv;
}

async function runAs(): Promise<RunAs> {
  const env = { ...process.env, LC_ALL: 'C.UTF-8' };
  if (process.getuid?.() !== 0) return { env };
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  return { uid, gid, env };
}

export interface PostgresCluster {
  url: string;
  port: number;
  /** The folder holding the cluster (and the test's other clusters, logs and sockets). */
  dir: string;
  as: RunAs;
  /** `pg_ctl` on a data folder below `dir`. */
  pgCtl(data: string, ...args: string[]): Promise<unknown>;
  /** A fast restart (`pg_ctl restart -m fast`): every connection is cut, the server is back when it resolves. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** initdb, the settings a test server needs (plus `settings`), start. */
export async function startPostgresCluster(settings: string[] = []): Promise<PostgresCluster> {
  const as = await runAs();
  const dir = await mkdtemp(join(tmpdir(), 'staykit-postgres-'));
  await chmod(dir, 0o755);
  if (as.uid !== undefined) await chown(dir, as.uid, as.gid!);
  const data = join(dir, 'primary');
  const port = await freePort();
  const pgCtl = (folder: string, ...args: string[]) => run(join(POSTGRES_BIN, 'pg_ctl'), ['-D', folder, '-w', '-t', '60', ...args], as);
  let running = false;
  try {
    await run(join(POSTGRES_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'], as);
    await appendFile(join(data, 'postgresql.conf'), [
      '', `port = ${port}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${dir}'`,
      'fsync = off', 'synchronous_commit = off', 'shared_buffers = 32MB', 'max_connections = 60', ...settings, '',
    ].join('\n'));
    await pgCtl(data, '-l', join(dir, 'primary.log'), 'start');
    running = true;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    as,
    pgCtl,
    async restart() {
      await pgCtl(data, '-m', 'fast', '-l', join(dir, 'primary.log'), 'restart');
    },
    async stop() {
      if (running) await pgCtl(data, '-m', 'fast', 'stop').catch(() => undefined);
      running = false;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
