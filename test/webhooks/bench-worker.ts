/**
 * One delivery worker of the benchmark in a thread of its own (test/webhooks/bench.ts), as a `staykit worker`
 * process would be: its own pool, its own event loop. Opens the pool, waits for "start", reports how many
 * deliveries it recorded as sent every few milliseconds, and on "stop" finishes its deliveries in flight.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openPostgres } from '../../src/db/postgres.js';
import { startWebhookWorker, type WebhookWorker } from '../../src/webhooks/worker.js';
import { UNCAPPED } from './support.js';

const { url, concurrency } = workerData as { url: string; concurrency: number };
const port = parentPort!;
const db = await openPostgres({ connectionString: url, maxConnections: 5 });
let sent = 0;
let worker: WebhookWorker | undefined;
let reporting: NodeJS.Timeout | undefined;

port.on('message', (message: string) => {
  if (message === 'start') {
    worker = // Raw throughput to one endpoint: the per-endpoint and per-organization fairness caps are lifted.
    worker = startWebhookWorker(db, { webhookRetrySchedule: [0, 5], outboundAllowPrivate: true, ...UNCAPPED }, undefined, {
      pollIntervalMs: 10,
      concurrency,
      onDelivery: (report) => {
        if (report.recorded && report.outcome.kind === 'sent') sent += 1;
      },
    });
    reporting = setInterval(() => port.postMessage({ sent }), 5);
  } else if (message === 'stop') {
    void (async () => {
      await worker?.stop();
      clearInterval(reporting);
      await db.close();
      port.postMessage({ sent, stopped: true });
    })();
  }
});
port.postMessage({ ready: true });
