/**
 * The PostgreSQL backend (DATABASE_URL): the `Database` interface on a node-postgres pool. This file holds the
 * pool — its size, timeouts, keepalive, idle time and per-connection statement caches — and the statements run on
 * it outside a transaction; the rest is in files of their own:
 * - postgres-transaction.ts: `Database.transaction`, with BEGIN, deferred statements and COMMIT sent along with
 *   the caller's statements;
 * - postgres-pipeline.ts: several statements in one round trip, on node-postgres internals (why `pg` is pinned);
 * - postgres-session-settings.ts: the time zone, statement timeout and plan cache mode of every session, per
 *   connection or, behind a pooler, per transaction;
 * - postgres-unanswered.ts: a statement the server did not answer in time, as a lost connection;
 * - postgres-type-parsers.ts: how values are read, the same as on PGlite.
 */
import pg from 'pg';
import type { Database, QueryOptions, QueryResult, Queryable, PipelinedTransaction, Row } from './types.js';
import { postgresTypes } from './postgres-type-parsers.js';
import { ColumnBytesClient } from './column-bytes.js';
import {
  DEFAULT_PREPARED_STATEMENTS_PER_CONNECTION, PreparedStatementCache, emptyPreparedStatementStats, type PreparedStatementStats,
} from './prepared-statements.js';
import { statementCaches } from './postgres-pipeline.js';
import { runTransaction } from './postgres-transaction.js';
import { sessionSettings, startupOptions, transactionSettings } from './postgres-session-settings.js';
import { rethrow } from './postgres-unanswered.js';

interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<pg.QueryResult>;
}

function wrap(target: PgQueryable, notify: (text: string) => void): Queryable {
  return {
    async query<R = Row>(text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
      notify(text);
      const result = await target.query(text, [...values]).catch(rethrow);
      return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      notify(sql);
      await target.query(sql).catch(rethrow);
    },
  };
}

export interface PostgresOptions {
  connectionString: string;
  /** Most connections open at once (default 10). */
  maxConnections?: number;
  /** Longest wait for a connection, whether the pool is exhausted or the server does not answer (default 5000 ms). */
  connectionTimeoutMs?: number;
  /**
   * `statement_timeout` of every session (ms); unset = the server's. Setting it also bounds how long the client
   * waits for any answer: `QUERY_TIMEOUT_MARGIN_MS` longer, after which the query fails as a lost connection and
   * the connection is dropped (postgres-unanswered.ts).
   */
  statementTimeoutMs?: number;
  /**
   * The URL is a connection pooler in transaction mode (PgBouncer): a server session is ours only between BEGIN and
   * COMMIT, so nothing is set on the session. The time zone and statement timeout are set transaction-locally with
   * each BEGIN (in the same round trip), and a statement outside `transaction` runs in a transaction of its own.
   * See docs/scaling.md#connection-pooler.
   */
  pooled?: boolean;
  /**
   * Named statements kept prepared per connection (src/db/prepared-statements.ts); 0 = none, every statement is
   * parsed each time. Default: `DEFAULT_PREPARED_STATEMENTS_PER_CONNECTION`, and 0 when `pooled` — a transaction-mode
   * PgBouncer before 1.21 (or without `max_prepared_statements`) cannot keep a name for our session.
   */
  preparedStatements?: number;
}

/** How much longer than the statement timeout the client waits for an answer (network, COMMIT). */
export const QUERY_TIMEOUT_MARGIN_MS = 2_000;

/** Idle time before TCP keepalive probes start, so a connection to a vanished server is noticed. */
const KEEPALIVE_INITIAL_DELAY_MS = 10_000;

/**
 * How long a connection may sit unused in the pool before it is closed (node-postgres' default is 10 s). A new
 * connection costs its PostgreSQL backend about 8 ms of CPU to start and run its first transaction (catalog and
 * policy caches, the statements parsed again) against about 0.5 ms for a warm one (docs/benchmark.md): with 10 s,
 * every lull of 10 s between bursts threw the pool's backends away and the next burst paid for them
 * again. An idle connection costs the server a few MB, at most the pool's size per process.
 */
const IDLE_CONNECTION_MS = 60_000;

/** A pooled connection to a PostgreSQL server (DATABASE_URL). Every session runs in UTC. */
export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const statementTimeout = options.statementTimeoutMs;
  const preparedPerConnection = options.preparedStatements ?? (options.pooled ? 0 : DEFAULT_PREPARED_STATEMENTS_PER_CONNECTION);
  const settings = sessionSettings(statementTimeout, preparedPerConnection > 0);
  // A pooler refuses the `options` startup parameter (and would not keep it for our session anyway).
  const perTransaction = options.pooled ? transactionSettings(settings) : undefined;
  const pool = new pg.Pool({
    Client: ColumnBytesClient,
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    types: postgresTypes,
    ...(perTransaction ? {} : { options: startupOptions(settings) }),
    // Waiting for a connection (server down, or pool exhausted) ends in an error instead of a hang: the API answers 503.
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    // A query in flight when the network stalls fails instead of waiting for TCP to give up (minutes to hours).
    ...(statementTimeout === undefined ? {} : { query_timeout: statementTimeout + QUERY_TIMEOUT_MARGIN_MS }),
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
  });
  // An idle client losing its server (restart, network) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const preparedStats = emptyPreparedStatementStats();
  if (preparedPerConnection > 0) {
    pool.on('connect', (client) => {
      statementCaches.set(client, new PreparedStatementCache(preparedPerConnection, preparedStats));
    });
  }
  const notify = (text: string) => db.onStatement?.(text);
  const db: Database = {
    backend: 'postgres',
    onStatement: undefined,
    ...(perTransaction
      ? {
        // One round trip still: BEGIN, the settings, the statement and COMMIT are pipelined.
        query: <R = Row>(text: string, values?: readonly unknown[], options?: QueryOptions) =>
          db.transaction((tx) => tx.queryAndCommit<R>(text, values, options)),
        exec: (sql: string) => db.transaction((tx) => tx.exec(sql)),
      }
      : wrap(pool, notify)),
    transaction<T>(fn: (tx: PipelinedTransaction) => Promise<T>): Promise<T> {
      return runTransaction(pool, notify, perTransaction, fn);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: options.maxConnections ?? 10 }),
    preparedStatementStats: (): PreparedStatementStats => ({ ...preparedStats }),
    close: () => pool.end(),
  };
  return db;
}
