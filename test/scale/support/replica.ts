/**
 * A PostgreSQL 15 primary and a streaming replica of it (`pg_basebackup -R`), both new clusters in a temporary
 * folder on free ports, started and stopped by the test itself — the shared test server is left alone (its
 * pg_hba.conf need not allow replication). Run as the postgres user when the tests run as root (initdb refuses root).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './pgbouncer.js';

const run = promisify(execFile);

export const POSTGRES_BIN = process.env.STAYKIT_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export function replicaBinariesAvailable(): boolean {
  return ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'].every((name) => existsSync(join(POSTGRES_BIN, name)));
}

export interface ReplicatedServers {
  primaryUrl: string;
  replicaUrl: string;
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  return { uid, gid };
}

export async function startReplicatedServers(): Promise<ReplicatedServers> {
  const user = await postgresUser();
  const dir = await mkdtemp(join(tmpdir(), 'staykit-replica-'));
  await chmod(dir, 0o755);
  if (user) await chown(dir, user.uid, user.gid);
  const as = { ...(user ?? {}), env: { ...process.env, LC_ALL: 'C.UTF-8' } };
  const bin = (name: string) => join(POSTGRES_BIN, name);
  const primaryDir = join(dir, 'primary');
  const replicaDir = join(dir, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const started: string[] = [];

  const pgCtl = (data: string, ...args: string[]) => run(bin('pg_ctl'), ['-D', data, '-w', '-t', '60', ...args], as);
  const stopServer = async (data: string) => {
    if (!started.includes(data)) return;
    started.splice(started.indexOf(data), 1);
    await pgCtl(data, '-m', 'fast', 'stop').catch(() => undefined);
  };
  try {
    await run(bin('initdb'), ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'], as);
    await appendFile(join(primaryDir, 'postgresql.conf'), [
      '', `port = ${primaryPort}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${dir}'`,
      'wal_level = replica', 'max_wal_senders = 4', 'fsync = off', 'synchronous_commit = off', 'shared_buffers = 32MB',
      'max_connections = 60', '',
    ].join('\n'));
    await pgCtl(primaryDir, '-l', join(dir, 'primary.log'), 'start');
    started.push(primaryDir);
    await run(bin('pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream'], as);
    await pgCtl(replicaDir, '-l', join(dir, 'replica.log'), '-o', `-p ${replicaPort}`, 'start');
    started.push(replicaDir);
  } catch (error) {
    for (const data of [...started].reverse()) await stopServer(data);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/postgres`,
    stopReplica: () => stopServer(replicaDir),
    async stop() {
      await stopServer(replicaDir);
      await stopServer(primaryDir);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
