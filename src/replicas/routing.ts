/**
 * Which requests may read from a replica (docs/scaling.md#read-replicas): GET and HEAD under /v1 — resource reads,
 * availability and search for browsing — unless the client asks for the primary (`Prefer: read-your-writes`), the
 * request syncs calendars first (`perform_sync=true`), or the same key (or address) wrote within the read-your-writes
 * window. Writes, the booking path and everything outside /v1 use the primary. Also exports the replicas' state as
 * metrics. Does nothing unless the app's database is a routed one (DATABASE_READ_URL set).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/types.js';
import { allowReplicaReads, isRoutedDatabase, type ReplicaStatus, type RoutedDatabase } from '../db/replicas.js';
import { rateLimitKey } from '../limits/rate-limit-key.js';
import { RecentWrites } from './recent-writes.js';

const READS = new Set(['GET', 'HEAD']);

export interface ReplicaRoutingOptions {
  /** Read-your-writes window (ms). */
  readYourWritesMs: number;
  /** Default: a store of this app's own. */
  recentWrites?: RecentWrites;
}

function asksForPrimary(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer;
  const values = Array.isArray(prefer) ? prefer.join(',') : prefer ?? '';
  if (values.split(',').some((value) => value.trim().toLowerCase() === 'read-your-writes')) return true;
  const query = request.query as Record<string, unknown> | undefined;
  return query?.perform_sync === 'true';
}

export function replicaRouting(app: FastifyInstance, db: Database, options: ReplicaRoutingOptions): RecentWrites | undefined {
  if (!isRoutedDatabase(db)) return undefined;
  const recentWrites = options.recentWrites ?? new RecentWrites(options.readYourWritesMs);
  app.addHook('onRequest', (request, _reply, done) => {
    const mayBeStale = READS.has(request.method) && request.url.startsWith('/v1/') && !asksForPrimary(request)
      && !recentWrites.wroteRecently(rateLimitKey(request));
    if (mayBeStale) allowReplicaReads(done);
    else done();
  });
  // Before the response leaves: the client's next read cannot overtake the mark.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!READS.has(request.method) && request.method !== 'OPTIONS') recentWrites.mark(rateLimitKey(request));
    done(null, payload);
  });
  if (app.metrics) registerReplicaMetrics(app.metrics.registry, db);
  return recentWrites;
}

function registerReplicaMetrics(registry: Registry, db: RoutedDatabase): void {
  // One status query per scrape, shared by the gauges.
  let status: ReturnType<RoutedDatabase['replicaStatus']> | undefined;
  const read = () => {
    status ??= db.replicaStatus().finally(() => setImmediate(() => { status = undefined; }));
    return status;
  };
  const gauge = (name: string, help: string, pick: (entry: ReplicaStatus) => number) =>
    new Gauge({
      name, help, labelNames: ['replica'], registers: [registry],
      async collect() {
        for (const entry of await read()) this.set({ replica: String(entry.replica) }, pick(entry));
      },
    });
  gauge('staykit_replica_up', 'Whether the read replica answered (1) or not (0), by its position in DATABASE_READ_URL.', (entry) => (entry.up ? 1 : 0));
  gauge('staykit_replica_lag_seconds', 'Replication lag of the read replica: age of its last replayed transaction while WAL is pending, 0 when caught up.', (entry) => entry.lagSeconds);
  gauge('staykit_replica_lag_bytes', 'WAL the read replica has not replayed yet, in bytes.', (entry) => entry.lagBytes);
  new Counter({
    name: 'staykit_replica_transactions_total', help: 'Transactions run on each read replica.', labelNames: ['replica'], registers: [registry],
    collect() {
      this.reset();
      db.counts.replica.forEach((count, replica) => this.inc({ replica: String(replica) }, count));
    },
  });
  new Counter({
    name: 'staykit_replica_fallbacks_total', help: 'Transactions meant for a replica that ran on the primary (replica unreachable, or the read wrote).', registers: [registry],
    collect() {
      this.reset();
      this.inc(db.counts.fallback);
    },
  });
}
