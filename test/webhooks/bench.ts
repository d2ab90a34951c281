/**
 * Webhook delivery throughput: N notifications, W workers (each with its own pool), a loopback receiver that
 * answers 204. Run: `node --import tsx test/webhooks/bench.ts [--backend postgres|pglite] [--count 10000]
 * [--warmup 2000] [--workers 2] [--concurrency 100] [--receiver thread|inline] [--worker-threads true|false]`. Prints one JSON
 * line with deliveries per second and the conditions (load average). PostgreSQL is used when available.
 *
 * The clock starts once `warmup` deliveries are recorded (connections open, code warm) and stops when `count`
 * more are: timed from the start, a run of 1,000 was mostly start-up. At a few thousand per second, time
 * 5,000–10,000 notifications; fewer are over in a fraction of a second and vary more from run to run.
 * On PostgreSQL each worker runs in a thread of its own by default, as `staykit worker` processes would, and the
 * receiver too, as a real receiver runs elsewhere; `--worker-threads false --receiver inline` puts everything in
 * one thread (the layout of the first version of this benchmark).
 */
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { openPostgres } from '../../src/db/postgres.js';
import type { Backend, Database } from '../../src/db/types.js';
import { DEFAULT_CONCURRENCY, startWebhookWorker, type WebhookWorker } from '../../src/webhooks/worker.js';
import { UNCAPPED, createOrganization, createWebhook, startReceiver, waitFor } from './support.js';

export interface WebhookBenchOptions {
  backend?: Backend;
  /** Notifications whose delivery is timed. Default 10,000. */
  count?: number;
  /**
   * Notifications delivered before the clock starts (connections opened, code warmed up), so that a short run
   * measures the steady rate rather than start-up. Default 2,000.
   */
  warmup?: number;
  workers?: number;
  /** Deliveries in flight per worker. Default: the worker's default. */
  concurrency?: number;
  /** Where the receiver runs. Default 'thread'. */
  receiver?: 'thread' | 'inline';
  /**
   * true: each worker runs in a thread of its own (own event loop and pool, like `staykit worker` processes);
   * false: all in this thread. Default true on PostgreSQL (always false on PGlite, which only this thread reaches).
   */
  workerThreads?: boolean;
}

export interface WebhookBenchResult {
  benchmark: 'webhook deliveries';
  backend: Backend;
  count: number;
  warmup: number;
  workers: number;
  concurrency: number;
  seconds: number;
  deliveries_per_second: number;
  duplicates: number;
  /** Requests with a webhook-id that was already being handled (two sends of one notification at once). */
  concurrent_duplicates: number;
  /** TCP connections the receiver accepted (keep-alive: about workers × concurrency, not count). */
  connections: number;
  receiver: 'thread' | 'inline';
  worker_threads: boolean;
  /** 1-minute load average before and after the run (the machine may be shared). */
  load: [number, number];
}

interface ReceiverStats {
  requests: number;
  duplicates: number;
  concurrentDuplicates: number;
  connections: number;
}

interface BenchReceiver {
  url: string;
  stats(): Promise<ReceiverStats>;
  close(): Promise<void>;
}

/** The thread's code, plain JavaScript so that it runs without the TypeScript loader. */
const RECEIVER_THREAD = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const seen = new Map();
const active = new Map();
const stats = { requests: 0, duplicates: 0, concurrentDuplicates: 0, connections: 0 };
const server = http.createServer((req, res) => {
  const id = String(req.headers['webhook-id'] ?? '');
  stats.requests += 1;
  if (seen.has(id)) stats.duplicates += 1;
  seen.set(id, true);
  const now = (active.get(id) ?? 0) + 1;
  if (now > 1) stats.concurrentDuplicates += 1;
  active.set(id, now);
  req.on('data', () => undefined);
  req.on('end', () => {
    active.set(id, active.get(id) - 1);
    res.writeHead(204).end();
  });
});
server.on('connection', () => (stats.connections += 1));
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (message) => {
  if (message === 'stats') parentPort.postMessage({ stats });
  if (message === 'close') { server.closeAllConnections(); server.close(() => parentPort.postMessage({ closed: true })); }
});
`;

async function threadReceiver(): Promise<BenchReceiver> {
  const worker = new Worker(RECEIVER_THREAD, { eval: true });
  const next = async <T>(key: string): Promise<T> => {
    for (;;) {
      const [message] = (await once(worker, 'message')) as [Record<string, unknown>];
      if (key in message) return message[key] as T;
    }
  };
  const port = await next<number>('port');
  return {
    url: `http://127.0.0.1:${port}/hook`,
    async stats() {
      const reply = next<ReceiverStats>('stats');
      worker.postMessage('stats');
      return reply;
    },
    async close() {
      const closed = next<boolean>('closed');
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  };
}

async function inlineReceiver(): Promise<BenchReceiver> {
  const receiver = await startReceiver(() => ({ status: 204 }));
  return {
    url: receiver.url,
    async stats() {
      const ids = new Set(receiver.receipts.map((receipt) => receipt.id));
      return {
        requests: receiver.receipts.length,
        duplicates: receiver.receipts.length - ids.size,
        concurrentDuplicates: receiver.receipts.filter((receipt) => receipt.concurrentSameId > 1).length,
        connections: receiver.connections,
      };
    },
    close: () => receiver.close(),
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Workers in this thread: each its own pool (the first one the test database's). */
async function inlineWorkers(testDb: TestDatabase, workers: number, concurrency: number): Promise<RunningWorkers> {
  const pools: Database[] = [testDb.db];
  for (let i = 1; i < workers; i += 1) pools.push(await openPostgres({ connectionString: testDb.url as string, maxConnections: 5 }));
  let sent = 0;
  let running: WebhookWorker[] = [];
  return {
    start() {
      running = pools.map((db) =>
        // Raw throughput to one endpoint: the per-endpoint and per-organization fairness caps are lifted.
        startWebhookWorker(db, { webhookRetrySchedule: [0, 5], outboundAllowPrivate: true, ...UNCAPPED }, undefined, {
          pollIntervalMs: 10,
          concurrency,
          onDelivery: (report) => {
            if (report.recorded && report.outcome.kind === 'sent') sent += 1;
          },
        }),
      );
    },
    sent: () => sent,
    async stop() {
      await Promise.all(running.map((worker) => worker.stop()));
      for (const db of pools.slice(1)) await db.close();
    },
  };
}

/** A thread does not inherit the TypeScript loader: it registers tsx, then loads the worker module. */
const WORKER_THREAD = `
import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => { register(); return import(${JSON.stringify(new URL('./bench-worker.ts', import.meta.url).href)}); });
`;

/** Workers in threads of their own (test/webhooks/bench-worker.ts). */
async function threadWorkers(testDb: TestDatabase, workers: number, concurrency: number): Promise<RunningWorkers> {
  const counts = new Array<number>(workers).fill(0);
  const threads = await Promise.all(
    Array.from({ length: workers }, async (_, index) => {
      const thread = new Worker(WORKER_THREAD, { eval: true, workerData: { url: testDb.url, concurrency } });
      thread.on('message', (message: { sent?: number }) => {
        if (message.sent !== undefined) counts[index] = message.sent;
      });
      await once(thread, 'message'); // ready
      return thread;
    }),
  );
  return {
    start: () => threads.forEach((thread) => thread.postMessage('start')),
    sent: () => counts.reduce((sum, n) => sum + n, 0),
    async stop() {
      await Promise.all(
        threads.map(async (thread) => {
          const stopped = new Promise<void>((resolve) =>
            thread.on('message', (message: { stopped?: boolean }) => message.stopped && resolve()));
          thread.postMessage('stop');
          await stopped;
          await thread.terminate();
        }),
      );
    },
  };
}

interface RunningWorkers {
  start(): void;
  /** Deliveries recorded as sent so far. */
  sent(): number;
  stop(): Promise<void>;
}

export async function benchWebhookDeliveries(options: WebhookBenchOptions = {}): Promise<WebhookBenchResult> {
  const backend = options.backend ?? (BACKENDS.includes('postgres') ? 'postgres' : 'pglite');
  const count = options.count ?? 10_000;
  const warmup = options.warmup ?? 2000;
  const workers = backend === 'pglite' ? 1 : (options.workers ?? 2);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const receiverKind = options.receiver ?? 'thread';
  const workerThreads = backend === 'postgres' && (options.workerThreads ?? true);
  const testDb = await createTestDatabase(backend);
  const receiver = receiverKind === 'thread' ? await threadReceiver() : await inlineReceiver();
  let running: RunningWorkers | undefined;
  try {
    const org = await createOrganization(testDb.db);
    await createWebhook(testDb.db, org, receiver.url, ['contacts.created']);
    // Raw: any number of contacts in one statement, made by the database (parameters have a limit).
    await testDb.db.query(
      `INSERT INTO api.contacts (organization_id, first_name) SELECT $1, 'Guest ' || i FROM generate_series(1, $2) AS i`,
      [org, warmup + count],
    );
    running = workerThreads ? await threadWorkers(testDb, workers, concurrency) : await inlineWorkers(testDb, workers, concurrency);
    running.start();
    await waitFor(() => running!.sent() >= warmup, 600_000, `${warmup} warm-up deliveries`);
    const loadBefore = loadavg()[0] ?? 0;
    const started = process.hrtime.bigint();
    const first = running.sent();
    await waitFor(() => running!.sent() >= warmup + count, 600_000, `${count} deliveries`);
    const timed = running.sent() - first;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const loadAfter = loadavg()[0] ?? 0;
    await running.stop();
    running = undefined;
    const { rows } = await testDb.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api.webhook_notifications WHERE status = 'sent'`);
    if (rows[0]?.n !== warmup + count) throw new Error(`${rows[0]?.n} notifications sent, expected ${warmup + count}`);
    const stats = await receiver.stats();
    return {
      benchmark: 'webhook deliveries',
      backend,
      count,
      warmup,
      workers,
      concurrency,
      seconds: Math.round(seconds * 1000) / 1000,
      deliveries_per_second: Math.round(timed / seconds),
      duplicates: stats.duplicates,
      concurrent_duplicates: stats.concurrentDuplicates,
      connections: stats.connections,
      receiver: receiverKind,
      worker_threads: workerThreads,
      load: [round1(loadBefore), round1(loadAfter)],
    };
  } finally {
    await running?.stop().catch(() => undefined);
    await receiver.close();
    await testDb.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      backend: { type: 'string' },
      count: { type: 'string' },
      warmup: { type: 'string' },
      workers: { type: 'string' },
      concurrency: { type: 'string' },
      receiver: { type: 'string' },
      'worker-threads': { type: 'string' },
    },
  });
  const result = await benchWebhookDeliveries({
    backend: values.backend as Backend | undefined,
    count: values.count ? Number(values.count) : undefined,
    warmup: values.warmup ? Number(values.warmup) : undefined,
    workers: values.workers ? Number(values.workers) : undefined,
    concurrency: values.concurrency ? Number(values.concurrency) : undefined,
    receiver: values.receiver as 'thread' | 'inline' | undefined,
    workerThreads: values['worker-threads'] === undefined ? undefined : values['worker-threads'] !== 'false',
  });
  console.log(JSON.stringify(result));
}
