/**
 * Read replicas (DATABASE_READ_URL) behind the one `Database` the app is given. A transaction goes to a replica only
 * when the code that started it runs inside `allowReplicaReads` — the HTTP layer decides that per request: reads that
 * may be slightly stale, from a key that has not written recently (src/replicas). Everything else — statements
 * outside a transaction, every write, the booking path — uses the primary. See docs/scaling.md#read-replicas.
 *
 * A replica that cannot be reached is skipped for `retryAfterMs` and its reads go to the primary meanwhile, so a
 * stopped replica costs no request an error. A transaction a replica refuses because it writes (25006) or because
 * recovery cancelled it (40001) runs again on the primary: the replica changed nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, PipelinedTransaction } from './types.js';

const replicaReads = new AsyncLocalStorage<boolean>();

/** Runs `fn` with its transactions allowed on a replica (those of a routed Database; others are unaffected). */
export function allowReplicaReads<T>(fn: () => T): T {
  return replicaReads.run(true, fn);
}

/** Connection lost, refused, timed out, or a server shutting down or starting up: try elsewhere. */
export function isUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (/^08/.test(code) || ['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE',
    'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code))) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(message);
}

/** A read-only transaction's refusal that the primary would not give. */
function belongsOnPrimary(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '25006' || code === '40001';
}

export interface ReplicaStatus {
  /** Position in DATABASE_READ_URL, from 0. */
  replica: number;
  /** Answered the last status query. */
  up: boolean;
  /** WAL the replica has not replayed yet, in bytes (NaN when unknown). */
  lagBytes: number;
  /** Age of the last replayed transaction while WAL is pending; 0 when caught up (NaN when unknown). */
  lagSeconds: number;
}

export interface RoutedDatabase extends Database {
  /** Transactions sent to each replica, and those of them that then ran on the primary. */
  readonly counts: { replica: number[]; fallback: number };
  replicaStatus(): Promise<ReplicaStatus[]>;
}

export interface ReplicaRoutingOptions {
  /** How long an unreachable replica is left alone (default 5000 ms). */
  retryAfterMs?: number;
  /** Told when a replica is found unreachable (once per `retryAfterMs`). */
  onUnreachable?: (replica: number, error: unknown) => void;
  now?: () => number;
}

export function isRoutedDatabase(db: Database): db is RoutedDatabase {
  return typeof (db as Partial<RoutedDatabase>).replicaStatus === 'function';
}

export function routeReads(primary: Database, replicas: readonly Database[], options: ReplicaRoutingOptions = {}): RoutedDatabase {
  const retryAfterMs = options.retryAfterMs ?? 5_000;
  const now = options.now ?? Date.now;
  const downUntil = replicas.map(() => 0);
  const counts = { replica: replicas.map(() => 0), fallback: 0 };
  let next = 0;

  /** The next replica in turn that is not resting, if any. */
  const pick = (): number | undefined => {
    for (let tried = 0; tried < replicas.length; tried += 1) {
      const index = (next + tried) % replicas.length;
      if (downUntil[index]! <= now()) {
        next = index + 1;
        return index;
      }
    }
    return undefined;
  };

  const routed: RoutedDatabase = {
    backend: primary.backend,
    counts,
    get onStatement() {
      return primary.onStatement;
    },
    set onStatement(listener) {
      primary.onStatement = listener;
      for (const replica of replicas) replica.onStatement = listener;
    },
    query: (text, values) => primary.query(text, values),
    exec: (sql) => primary.exec(sql),
    async transaction<T>(fn: (tx: PipelinedTransaction) => Promise<T>): Promise<T> {
      const index = replicaReads.getStore() === true ? pick() : undefined;
      if (index === undefined) return primary.transaction(fn);
      try {
        return await replicas[index]!.transaction(fn);
      } catch (error) {
        if (isUnreachable(error)) {
          downUntil[index] = now() + retryAfterMs;
          options.onUnreachable?.(index, error);
        } else if (!belongsOnPrimary(error)) {
          throw error; // the transaction's own outcome (a rollback the engine asked for, a 4xx)
        }
        counts.fallback += 1;
        return primary.transaction(fn);
      } finally {
        counts.replica[index]! += 1;
      }
    },
    poolStats: primary.poolStats,
    async replicaStatus() {
      const primaryLsn = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')
        .then((result) => result.rows[0]?.lsn, () => undefined);
      return Promise.all(replicas.map(async (replica, index): Promise<ReplicaStatus> => {
        try {
          const { rows } = await replica.query<{ replayed: string | null; lag_bytes: number | null; lag_seconds: number | null }>(
            `SELECT pg_last_wal_replay_lsn()::text AS replayed,
                    CASE WHEN $1::text IS NULL OR pg_last_wal_replay_lsn() IS NULL THEN NULL
                         ELSE greatest(pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()), 0)::float8 END AS lag_bytes,
                    CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn()
                              AND ($1::text IS NULL OR pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()) <= 0) THEN 0
                         ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 END AS lag_seconds`,
            [primaryLsn ?? null],
          );
          const row = rows[0];
          return { replica: index, up: true, lagBytes: row?.lag_bytes ?? Number.NaN, lagSeconds: row?.lag_seconds ?? Number.NaN };
        } catch {
          return { replica: index, up: false, lagBytes: Number.NaN, lagSeconds: Number.NaN };
        }
      }));
    },
    async close() {
      await Promise.all([primary.close(), ...replicas.map((replica) => replica.close())]);
    },
  };
  return routed;
}
