/**
 * `staykit serve --processes N` (STAYKIT_PROCESSES): N API processes on one port with node:cluster. The primary
 * process migrates once, then forks the workers and only supervises them: a worker that dies is replaced, and
 * SIGTERM/SIGINT are passed on so that every worker finishes its requests before the primary exits. Worker 0 runs the
 * background work (when STAYKIT_WORKER=embedded), the others run none: one set of workers, coordinated with any
 * `staykit worker` elsewhere through the database (SKIP LOCKED, LISTEN/NOTIFY). Rate limits are shared through Redis
 * (REDIS_URL); read-your-writes marks are passed between the workers here. See docs/scaling.md#api-processes.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config.js';
import { withDatabase } from '../cli/support/database.js';
import { UsageError } from '../cli/support/usage-error.js';
import { markPublisher, rememberEverywhere } from '../replicas/recent-writes.js';

/** The environment variable that tells a forked process which worker it is. */
const WORKER_INDEX = 'STAYKIT_CLUSTER_WORKER';

interface WriteMark {
  type: 'staykit:write';
  who: string;
  until: number;
}

function isWriteMark(message: unknown): message is WriteMark {
  return typeof message === 'object' && message !== null && (message as WriteMark).type === 'staykit:write'
    && typeof (message as WriteMark).who === 'string' && typeof (message as WriteMark).until === 'number';
}

/** True in the primary of `staykit serve --processes N` with N > 1: it supervises and serves nothing itself. */
export function isClusterPrimary(config: Config): boolean {
  return config.processes > 1 && cluster.isPrimary;
}

/** In a worker of the cluster: its share of the configuration, and the marks passed on to the other workers. */
export function clusterWorkerConfig(config: Config): Config {
  const index = process.env[WORKER_INDEX];
  if (!cluster.isWorker || index === undefined) return config;
  markPublisher.publish = (who, until) => process.send?.({ type: 'staykit:write', who, until } satisfies WriteMark);
  process.on('message', (message: unknown) => {
    if (isWriteMark(message)) rememberEverywhere(message.who, message.until);
  });
  return { ...config, worker: index === '0' ? config.worker : 'off' };
}

export async function serveCluster(config: Config): Promise<void> {
  if (!config.databaseUrl) {
    throw new UsageError('--processes needs DATABASE_URL: the embedded database can be opened by one process only');
  }
  // Once, here, rather than N processes queueing on the migration lock.
  await withDatabase(async () => undefined, { ...config, databaseReadUrls: [] });
  const workers = new Map<number, Worker>();
  let stopping = false;

  const fork = (index: number) => {
    const worker = cluster.fork({ [WORKER_INDEX]: String(index) });
    workers.set(index, worker);
    worker.on('message', (message: unknown) => {
      if (!isWriteMark(message)) return;
      for (const other of workers.values()) if (other !== worker && other.isConnected()) other.send(message);
    });
    worker.on('exit', (code, signal) => {
      if (workers.get(index) === worker) workers.delete(index);
      if (stopping) {
        if (workers.size === 0) process.exit(0);
        return;
      }
      console.error(`API process ${index} exited (${signal ?? code}); starting another`);
      fork(index);
    });
  };
  // Before the processes start and the line is printed: a signal that arrives with no handler kills at once.
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: stopping ${workers.size} API processes`);
    if (workers.size === 0) process.exit(0);
    for (const worker of workers.values()) worker.process.kill('SIGTERM');
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  for (let index = 0; index < config.processes; index += 1) fork(index);
  console.log(`Staykit cluster: ${config.processes} API processes (pid ${process.pid} supervises; process 0 runs the background work)`);
}
