/**
 * Webhook delivery throughput: N notifications, W workers (one pool each), a loopback receiver that answers 204.
 * Run: `node --import tsx test/webhooks/bench.ts [--backend postgres|pglite] [--count 1000] [--workers 2]
 * [--concurrency 10]`. Prints one JSON line with deliveries per second. PostgreSQL is used when available.
 */
import { parseArgs } from 'node:util';
import { BACKENDS, createTestDatabase } from '../support/databases.js';
import { openPostgres } from '../../src/db/postgres.js';
import type { Backend, Database } from '../../src/db/types.js';
import { startWebhookWorker } from '../../src/webhooks/worker.js';
import { createOrganization, createWebhook, startReceiver, waitFor } from './support.js';

export interface WebhookBenchOptions {
  backend?: Backend;
  count?: number;
  workers?: number;
  concurrency?: number;
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
}

export async function benchWebhookDeliveries(options: WebhookBenchOptions = {}): Promise<WebhookBenchResult> {
  const backend = options.backend ?? (BACKENDS.includes('postgres') ? 'postgres' : 'pglite');
  const count = options.count ?? 1000;
  const workers = backend === 'pglite' ? 1 : (options.workers ?? 2);
  const concurrency = options.concurrency ?? 10;
  const testDb = await createTestDatabase(backend);
  const receiver = await startReceiver(() => ({ status: 204 }));
  const pools: Database[] = [testDb.db];
  try {
    for (let i = 1; i < workers; i += 1) pools.push(await openPostgres({ connectionString: testDb.url as string, maxConnections: 5 }));
    const org = await createOrganization(testDb.db);
    await createWebhook(testDb.db, org, receiver.url, ['contacts.created']);
    await testDb.db.query(
      `INSERT INTO api.contacts (organization_id, first_name) SELECT $1, 'Guest ' || i FROM generate_series(1, $2) AS i`,
      [org, count],
    );
    const started = process.hrtime.bigint();
    const running = pools.map((db) =>
      startWebhookWorker(db, { webhookRetrySchedule: [0, 5], outboundAllowPrivate: true }, undefined, { pollIntervalMs: 10, concurrency }),
    );
    await waitFor(async () => {
      const { rows } = await testDb.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api.webhook_notifications WHERE status = 'sent'`);
      return rows[0]?.n === count;
    }, 600_000, `${count} deliveries`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await Promise.all(running.map((worker) => worker.stop()));
    const ids = new Set(receiver.receipts.map((receipt) => receipt.id));
    return {
      benchmark: 'webhook deliveries',
      backend,
      count,
      workers,
      concurrency,
      seconds: Math.round(seconds * 1000) / 1000,
      deliveries_per_second: Math.round(count / seconds),
      duplicates: receiver.receipts.length - ids.size,
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
    },
  });
  const result = await benchWebhookDeliveries({
    backend: values.backend as Backend | undefined,
    count: values.count ? Number(values.count) : undefined,
    workers: values.workers ? Number(values.workers) : undefined,
    concurrency: values.concurrency ? Number(values.concurrency) : undefined,
  });
  console.log(JSON.stringify(result));
}
