/**
 * Prometheus metrics on a registry of the app's own (several apps in one test process must not share counters):
 * the HTTP request counter and latency histogram by method, route pattern and status; the webhook delivery queue,
 * read on scrape with one cheap query as the table owner; the database pool when the Database exposes its
 * counters; and prom-client's default process metrics.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/types.js';

/** What a pooled Database may expose for the pool gauges (src/db/postgres.ts: pg.Pool's counters). */
export interface PoolStats {
  /** Connections open (idle + in use). */
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  max: number;
}

function poolStatsOf(db: Database): (() => PoolStats) | undefined {
  const candidate = (db as Database & { poolStats?: unknown }).poolStats;
  return typeof candidate === 'function' ? () => (candidate as () => PoolStats).call(db) : undefined;
}

export const WEBHOOK_QUEUE_QUERY = `
SELECT count(*)::int AS queued,
       count(*) FILTER (WHERE run_at <= now())::int AS due,
       coalesce(extract(epoch FROM now() - min(queued_at)), 0)::float8 AS oldest_seconds
FROM staykit_internal.webhook_queue`;

export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route' | 'status'>;
  /** api_requests entries given up on (src/http/request-log.ts). */
  requestLogDropped: Counter;
}

export function createMetrics(db: Database, onError: (error: unknown, what: string) => void): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'staykit_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status.', labelNames, registers: [registry],
  });
  const duration = new Histogram({
    name: 'staykit_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by method, route pattern and status.',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // One query feeds three gauges: run it once per scrape, whichever gauge asks first.
  let queue: Promise<{ queued: number; due: number; oldest_seconds: number } | undefined> | undefined;
  const readQueue = () => {
    queue ??= db.query<{ queued: number; due: number; oldest_seconds: number }>(WEBHOOK_QUEUE_QUERY)
      .then((result) => result.rows[0], (error: unknown) => { onError(error, 'webhook queue'); return undefined; })
      .finally(() => setImmediate(() => { queue = undefined; }));
    return queue;
  };
  const queueGauge = (name: string, help: string, pick: (row: { queued: number; due: number; oldest_seconds: number }) => number) =>
    new Gauge({
      name, help, registers: [registry],
      async collect() {
        // NaN, not a stale or zero value, when the database could not be asked: "empty" would be a lie.
        const row = await readQueue();
        this.set(row ? pick(row) : Number.NaN);
      },
    });
  queueGauge('staykit_webhook_queue_depth', 'Webhook notifications still to be delivered (status pending).', (row) => row.queued);
  queueGauge('staykit_webhook_queue_due', 'Pending webhook notifications whose next attempt is due now.', (row) => row.due);
  queueGauge('staykit_webhook_queue_oldest_seconds', 'Age of the oldest pending webhook notification, seconds.', (row) => row.oldest_seconds);

  const pool = poolStatsOf(db);
  if (pool) {
    const poolGauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
      new Gauge({ name, help, registers: [registry], collect() { this.set(pick(pool())); } });
    poolGauge('staykit_db_pool_connections', 'Open database connections (idle and in use).', (stats) => stats.total);
    poolGauge('staykit_db_pool_idle', 'Idle database connections.', (stats) => stats.idle);
    poolGauge('staykit_db_pool_waiting', 'Requests waiting for a database connection.', (stats) => stats.waiting);
    poolGauge('staykit_db_pool_max', 'Maximum database connections of this process.', (stats) => stats.max);
  }
  const requestLogDropped = new Counter({
    name: 'staykit_request_log_dropped_total',
    help: 'api_requests entries dropped: more were waiting for the database than the buffer holds, or unwritten at shutdown.',
    registers: [registry],
  });
  return { registry, requests, duration, requestLogDropped };
}
