/**
 * Webhook delivery throughput: N notifications, W workers (one pool and one worker loop each), a loopback receiver
 * that answers 204. Run: `node --import tsx test/webhooks/bench.ts [--backend postgres|pglite] [--count 10000]
 * [--workers 2] [--concurrency 100] [--receiver thread|inline]`. Prints one JSON line with deliveries per second
 * and the conditions (load average). PostgreSQL is used when available.
 *
 * The clock runs from starting the workers until the last outcome is recorded, so a short run is dominated by
 * start-up (connecting, the first claims): at a few thousand per second, measure 5,000–10,000 notifications.
 * The receiver runs in a worker thread by default, as a real receiver runs in another process: in the same thread
 * it takes event-loop time from the workers it measures (`--receiver inline` for that).
 */
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { BACKENDS, createTestDatabase } from '../support/databases.js';
import { openPostgres } from '../../src/db/postgres.js';
import type { Backend, Database } from '../../src/db/types.js';
import { DEFAULT_CONCURRENCY, startWebhookWorker } from '../../src/webhooks/worker.js';
import { createOrganization, createWebhook, startReceiver, waitFor } from './support.js';

export interface WebhookBenchOptions {
  backend?: Backend;
  /** Notifications to deliver. Default 10,000. */
  count?: number;
  workers?: number;
  /** Deliveries in flight per worker. Default: the worker's default. */
  concurrency?: number;
  /** Where the receiver runs. Default 'thread'. */
  receiver?: 'thread' | 'inline';
}

export interface WebhookBenchResult {
  benchmark: 'webhook deliveries';
  backend: Backend;
  count: number;
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

export async function benchWebhookDeliveries(options: WebhookBenchOptions = {}): Promise<WebhookBenchResult> {
  const backend = options.backend ?? (BACKENDS.includes('postgres') ? 'postgres' : 'pglite');
  const count = options.count ?? 10_000;
  const workers = backend === 'pglite' ? 1 : (options.workers ?? 2);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const receiverKind = options.receiver ?? 'thread';
  const testDb = await createTestDatabase(backend);
  const receiver = receiverKind === 'thread' ? await threadReceiver() : await inlineReceiver();
  const pools: Database[] = [testDb.db];
  try {
    for (let i = 1; i < workers; i += 1) pools.push(await openPostgres({ connectionString: testDb.url as string, maxConnections: 5 }));
    const org = await createOrganization(testDb.db);
    await createWebhook(testDb.db, org, receiver.url, ['contacts.created']);
    await testDb.db.query(
      `INSERT INTO api.contacts (organization_id, first_name) SELECT $1, 'Guest ' || i FROM generate_series(1, $2) AS i`,
      [org, count],
    );
    await testDb.db.query('ANALYZE staykit_internal.webhook_queue, api.webhook_notifications');
    const loadBefore = loadavg()[0] ?? 0;
    let sent = 0;
    const started = process.hrtime.bigint();
    const running = pools.map((db) =>
      startWebhookWorker(db, { webhookRetrySchedule: [0, 5], outboundAllowPrivate: true }, undefined, {
        pollIntervalMs: 10,
        concurrency,
        onDelivery: (report) => {
          if (report.recorded && report.outcome.kind === 'sent') sent += 1;
        },
      }),
    );
    await waitFor(() => sent >= count, 600_000, `${count} deliveries`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await Promise.all(running.map((worker) => worker.stop()));
    const { rows } = await testDb.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api.webhook_notifications WHERE status = 'sent'`);
    if (rows[0]?.n !== count) throw new Error(`${rows[0]?.n} notifications sent, expected ${count}`);
    const stats = await receiver.stats();
    return {
      benchmark: 'webhook deliveries',
      backend,
      count,
      workers,
      concurrency,
      seconds: Math.round(seconds * 1000) / 1000,
      deliveries_per_second: Math.round(count / seconds),
      duplicates: stats.duplicates,
      concurrent_duplicates: stats.concurrentDuplicates,
      connections: stats.connections,
      receiver: receiverKind,
      load: [round1(loadBefore), round1(loadavg()[0] ?? 0)],
    };
  } finally {
    await receiver.close();
    for (const db of pools.slice(1)) await db.close();
    await testDb.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      backend: { type: 'string' },
      count: { type: 'string' },
      workers: { type: 'string' },
      concurrency: { type: 'string' },
      receiver: { type: 'string' },
    },
  });
  const result = await benchWebhookDeliveries({
    backend: values.backend as Backend | undefined,
    count: values.count ? Number(values.count) : undefined,
    workers: values.workers ? Number(values.workers) : undefined,
    concurrency: values.concurrency ? Number(values.concurrency) : undefined,
    receiver: values.receiver as 'thread' | 'inline' | undefined,
  });
  console.log(JSON.stringify(result));
}
