/**
 * A PostgreSQL 15 primary (./postgres-cluster.ts) and a streaming replica of it (`pg_basebackup -R`) on a free port,
 * both started and stopped by the test itself — the shared test server is left alone (its pg_hba.conf need not
 * allow replication).
 */
import { join } from 'node:path';
import { freePort } from './pgbouncer.js';
import { POSTGRES_BIN, postgresBinariesAvailable, run, startPostgresCluster } from './postgres-cluster.js';

export function replicaBinariesAvailable(): boolean {
  return postgresBinariesAvailable(['initdb', 'pg_ctl', 'pg_basebackup', 'postgres']);
}

export interface ReplicatedServers {
  primaryUrl: string;
  replicaUrl: string;
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

export async function startReplicatedServers(): Promise<ReplicatedServers> {
  const primary = await startPostgresCluster(['wal_level = replica', 'max_wal_senders = 4']);
  const replicaDir = join(primary.dir, 'replica');
  const replicaPort = await freePort();
  let replicaRunning = false;
  const stopReplica = async () => {
    if (replicaRunning) await primary.pgCtl(replicaDir, '-m', 'fast', 'stop').catch(() => undefined);
    replicaRunning = false;
  };
  try {
    await run(join(POSTGRES_BIN, 'pg_basebackup'),
      ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream'], primary.as);
    await primary.pgCtl(replicaDir, '-l', join(primary.dir, 'replica.log'), '-o', `-p ${replicaPort}`, 'start');
    replicaRunning = true;
  } catch (error) {
    await primary.stop();
    throw error;
  }
  return {
    primaryUrl: primary.url,
    replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/postgres`,
    stopReplica,
    async stop() {
      await stopReplica();
      await primary.stop();
    },
  };
}
