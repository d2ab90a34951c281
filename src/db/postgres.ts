import { createRequire } from 'node:module';
import pg from 'pg';
import type { Database, QueryOptions, QueryResult, Queryable, PipelinedTransaction, Row } from './types.js';
import { INT8_OID, TEXT_TYPE_OIDS, identity, toNumber } from './type-parsers.js';
import { ColumnBytesClient, columnBytesReaders, type ColumnBytesReader } from './column-bytes.js';
import {
  DEFAULT_PREPARED_STATEMENTS_PER_CONNECTION, PreparedStatementCache, emptyPreparedStatementStats, isStaleStatementError,
  type NamedStatement, type PreparedStatementStats,
} from './prepared-statements.js';

const textOids = new Set<number>(Object.values(TEXT_TYPE_OIDS));

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (textOids.has(oid)) return identity;
    if (oid === INT8_OID) return toNumber;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

// The driver's own conversion of parameter values (dates, arrays, buffers, JSON), so a pipelined statement binds
// exactly what `client.query(text, values)` would. `pg/lib/utils` is an exported path of the package.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<pg.QueryResult>;
}

/** node-postgres' error when `query_timeout` passed without an answer from the server. */
function isUnanswered(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}

/**
 * What a query the server did not answer in time rejects with: a connection error (`ETIMEDOUT`), which the API
 * answers 503 like any other loss of the database. With `query_timeout` above the statement timeout, a server that
 * is reachable has always answered (at worst with its own timeout error) by then: the network or the server stalled.
 */
function unanswered(cause: unknown): Error {
  return Object.assign(new Error('PostgreSQL did not answer in time (the network or the server stalled)', { cause }), { code: 'ETIMEDOUT' });
}

function rethrow(error: unknown): never {
  throw isUnanswered(error) ? unanswered(error) : error;
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

interface PipelineStatement {
  text: string;
  values: readonly unknown[];
  /** Its rows are not wanted (BEGIN, COMMIT, deferred settings): not described, and its rows are skipped. */
  discard?: boolean;
  /** Columns whose values are kept as the bytes PostgreSQL sent (QueryOptions.bytes). */
  bytes?: readonly string[] | undefined;
}

/** What the driver hands a Submittable (pg's Connection; only the calls made here). */
interface Wire {
  stream: { cork?: () => void; uncork?: () => void };
  parse(message: { text: string; name?: string }): void;
  bind(message: { portal?: string; statement?: string; values: unknown[] }): void;
  describe(message: { type: 'P' | 'S'; name?: string }): void;
  close(message: { type: 'S'; name: string }): void;
  execute(message: { portal?: string; rows?: number }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

interface ResultMessage {
  fields: unknown[];
}

interface RowDescriptionMessage {
  fields: { name: string }[];
}

/** pg.Result's row-building calls, which @types/pg does not declare. */
interface RowBuilder extends pg.QueryResult {
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): Row;
  addRow(row: Row): void;
  addCommandComplete(message: unknown): void;
}

/** The result of a statement whose rows are not wanted. */
const DISCARDED = { rows: [], rowCount: 0 } as unknown as RowBuilder;

/** Which statement of a pipeline an error belongs to (kept beside the driver's error object, not on it). */
const failedStatement = new WeakMap<object, number>();

/**
 * Several statements in one round trip: Parse/Bind/Describe/Execute for each and a single Sync, written at once
 * (the extended protocol's pipelining; node-postgres sends one statement per round trip otherwise). The server
 * runs them in order and, on an error, skips the rest up to the Sync — a failed statement never lets a later one
 * run. Resolves with one result per statement; rejects with the first error (`failedStatement` says whose). A
 * custom Submittable is node-postgres' documented extension point (pg-cursor is one).
 *
 * With a statement cache, each statement is bound to its connection's name for its text (parsed first when new),
 * after the Close of names the cache let go; without one, the unnamed statement is parsed each time.
 */
class Pipeline {
  private readonly results: RowBuilder[] = [];
  private current: RowBuilder | undefined;
  private rowError: { error: unknown; index: number } | undefined;
  private bindFailure: number | undefined;
  /** Each statement's name, when sent through the cache. */
  private readonly named: (NamedStatement | undefined)[] = [];
  private reader: ColumnBytesReader | undefined;
  /** The current result's columns kept as bytes: index and name. */
  private byteColumns: { index: number; name: string }[] | undefined;
  /**
   * Set by node-postgres when it times the query (`query_timeout`): called once the pipeline is over, it clears
   * that timer — which would otherwise keep the pipeline, and so its results, alive until it fires.
   */
  callback: ((error?: Error) => void) | undefined;

  constructor(
    private readonly statements: readonly PipelineStatement[],
    private readonly cache: PreparedStatementCache | undefined,
    private readonly settle: (error: Error | undefined, index: number, results: RowBuilder[]) => void,
  ) {}

  submit(connection: Wire): Error | null {
    const bound: unknown[][] = [];
    for (const [index, statement] of this.statements.entries()) {
      try {
        bound.push(statement.values.map(prepareValue));
      } catch (error) {
        // Returned, not thrown: the client then reports it through handleError and stays usable.
        this.bindFailure = index;
        return error instanceof Error ? error : new Error(String(error));
      }
    }
    this.reader = columnBytesReaders.get(connection);
    connection.stream.cork?.();
    try {
      for (const name of this.cache?.takeClosing() ?? []) connection.close({ type: 'S', name });
      for (const [index, statement] of this.statements.entries()) {
        const named = this.cache?.name(statement.text);
        this.named.push(named);
        if (named === undefined) {
          connection.parse({ text: statement.text });
          connection.bind({ values: bound[index]! });
        } else {
          if (named.parse) connection.parse({ text: statement.text, name: named.name });
          connection.bind({ statement: named.name, values: bound[index]! });
        }
        // Without Describe the server sends no row description, and the rows are dropped unparsed.
        if (!statement.discard) connection.describe({ type: 'P' });
        connection.execute({ rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  private result(): RowBuilder {
    // Rows as objects (any rowMode but 'array'), converted by this pool's type parsers like every other query.
    this.current ??= new pg.Result('object', types as unknown as typeof pg.types) as unknown as RowBuilder;
    return this.current;
  }

  handleRowDescription(message: RowDescriptionMessage): void {
    this.result().addFields(message.fields);
    const bytes = this.statements[this.results.length]?.bytes;
    if (bytes === undefined || this.reader === undefined) return;
    const columns = message.fields.flatMap(({ name }, index) => (bytes.includes(name) ? [{ index, name }] : []));
    if (columns.length === 0) return;
    this.byteColumns = columns;
    this.reader.columns = new Set(columns.map(({ index }) => index));
  }

  /** The result is over: the reader decodes every value again. */
  private endBytes(): void {
    if (this.byteColumns === undefined) return;
    this.byteColumns = undefined;
    if (this.reader) this.reader.columns = undefined;
  }

  handleDataRow(message: ResultMessage): void {
    if (this.rowError !== undefined || this.statements[this.results.length]?.discard) return;
    const result = this.result();
    try {
      if (this.byteColumns === undefined) {
        result.addRow(result.parseRow(message.fields));
        return;
      }
      // The byte columns bypass the type parsers (which would make strings of them); the others go through them.
      const fields = [...message.fields];
      for (const { index } of this.byteColumns) fields[index] = null;
      const row = result.parseRow(fields);
      for (const { index, name } of this.byteColumns) row[name] = message.fields[index];
      result.addRow(row);
    } catch (error) {
      // Like pg's Query: keep reading the answer, report the error once the server is ready again.
      this.rowError = { error, index: this.results.length };
    }
  }

  handleCommandComplete(message: unknown): void {
    this.endBytes();
    if (this.statements[this.results.length]?.discard) {
      this.results.push(DISCARDED);
      return;
    }
    const result = this.result();
    result.addCommandComplete(message);
    this.results.push(result);
    this.current = undefined;
  }

  handleEmptyQuery(): void {
    this.endBytes();
    this.results.push(this.result());
    this.current = undefined;
  }

  handleError(error: Error): void {
    this.endBytes();
    const index = this.bindFailure ?? this.results.length;
    this.forgetUnparsed(index, error);
    this.settle(error, index, this.results);
    this.callback?.(error);
  }

  handleReadyForQuery(): void {
    this.callback?.();
    if (this.rowError !== undefined) {
      const { error, index } = this.rowError;
      this.settle(error instanceof Error ? error : new Error(String(error)), index, this.results);
      return;
    }
    this.settle(undefined, this.results.length, this.results);
  }

  /**
   * After an error at `failed`, the server holds no statement for the names this pipeline parsed from there on
   * (the failed one's parse may itself have failed; the later ones were skipped), nor a usable one for a cached
   * statement that went stale: the cache forgets them, and closes the names in case the server holds them.
   */
  private forgetUnparsed(failed: number, error: Error): void {
    if (this.cache === undefined) return;
    for (let index = failed; index < this.named.length; index += 1) {
      const named = this.named[index]!;
      if (named.parse || (index === failed && isStaleStatementError(error))) this.cache.forget(this.statements[index]!.text, named.name);
    }
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: Wire): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}
}

/** Each connection's named statements (for as long as the connection lives). */
const statementCaches = new WeakMap<pg.PoolClient, PreparedStatementCache>();

function runPipeline(client: pg.PoolClient, statements: readonly PipelineStatement[]): Promise<RowBuilder[]> {
  return new Promise((resolve, reject) => {
    const pipeline = new Pipeline(statements, statementCaches.get(client), (error, index, results) => {
      if (!error) return resolve(results);
      failedStatement.set(error, index);
      // As node-postgres does for its own queries: a stack that leads back here rather than to the socket.
      Error.captureStackTrace(error);
      reject(error);
    });
    client.query(pipeline as unknown as pg.Submittable);
  });
}

/**
 * A PostgreSQL transaction (`PipelinedTransaction`). The server runs a round trip's statements in order and skips the
 * rest at the first error (one Sync), so a statement never runs without the ones before it, and COMMIT never follows
 * a failed statement.
 */
interface PostgresTransaction extends PipelinedTransaction {
  /** BEGIN has been sent and no COMMIT yet: the transaction must be ended (COMMIT or ROLLBACK). */
  open(): boolean;
  /** A statement got no answer in time: the connection is unusable (its answer may still arrive) and must go. */
  stalled(): boolean;
  commit(): Promise<unknown>;
}

const BEGIN: PipelineStatement = { text: 'BEGIN', values: [], discard: true };
const COMMIT: PipelineStatement = { text: 'COMMIT', values: [], discard: true };

/**
 * Sent right before and after a statement with `QueryOptions.reusePlan`, in its round trip. PostgreSQL decides
 * between a generic and a custom plan when a named statement is bound, by `plan_cache_mode` at that moment, so the
 * statement alone is bound under `force_generic_plan`; the next one restores the session's `force_custom_plan`
 * (`sessionSettings`: set wherever statements are named). `SET LOCAL`, not `set_config()`: it answers no row, so no
 * row follows the statement's own in the answer (which `QueryOptions.bytes` reads). Transaction-local: if the
 * statement fails, the rest of the round trip is skipped, and the ROLLBACK (or ROLLBACK TO a savepoint taken before)
 * that must follow undoes the setting too.
 */
const GENERIC_PLANS: PipelineStatement = { text: 'SET LOCAL plan_cache_mode = force_generic_plan', values: [], discard: true };
const CUSTOM_PLANS: PipelineStatement = { text: 'SET LOCAL plan_cache_mode = force_custom_plan', values: [], discard: true };

interface TransactionState {
  client: pg.PoolClient;
  /** Statements waiting to go out with the next one: BEGIN until it has been sent, then deferred ones. */
  pending: PipelineStatement[];
  begun: boolean;
  committed: boolean;
  failure: unknown;
  stalled: boolean;
}

// Module-level helpers and method syntax below, not closures: tsx (keepNames) wraps every named closure in a
// `__name` call, which on this per-request path measurably cost more than the work itself.

/**
 * A statement the server did not answer in time fails the whole transaction, whatever the caller makes of the
 * statement's error: the connection is given up, and the transaction's `failure()` is that loss.
 */
function stall(state: TransactionState, error: unknown): never {
  const lost = unanswered(error);
  state.stalled = true;
  state.failure ??= lost;
  throw lost;
}

/**
 * Runs one statement on the transaction's connection: with parameters and a statement cache, as a named statement
 * (a pipeline of one); otherwise as node-postgres does on its own (without parameters it uses the simple protocol,
 * which allows several statements in one text).
 */
async function plainQuery(state: TransactionState, text: string, values?: unknown[], bytes?: readonly string[]): Promise<RowBuilder | pg.QueryResult> {
  try {
    if (bytes !== undefined || (values !== undefined && values.length > 0 && statementCaches.has(state.client))) {
      return (await runPipeline(state.client, [{ text, values: values ?? [], bytes }]))[0]!;
    }
    return await state.client.query(text, values);
  } catch (error) {
    if (isUnanswered(error)) stall(state, error);
    throw error;
  }
}

/**
 * A named statement that went stale in the transaction's first round trip (BEGIN and the settings were in it) is
 * answered by running that round trip again after a ROLLBACK: nothing else had happened in the transaction, and the
 * statement is parsed afresh. Later in a transaction its error is the statement's (the cache has forgotten it, so
 * the next request parses it again).
 */
async function runFirstRoundTrip(state: TransactionState, batch: PipelineStatement[]): Promise<RowBuilder[]> {
  try {
    return await runPipeline(state.client, batch);
  } catch (error) {
    if (batch[0] !== BEGIN || !isStaleStatementError(error) || !statementCaches.has(state.client)) throw error;
    await state.client.query('ROLLBACK');
    return runPipeline(state.client, batch);
  }
}

/** Sends what is pending, then `statements`; resolves with the results of `statements`. */
async function sendPending(state: TransactionState, statements: PipelineStatement[]): Promise<RowBuilder[]> {
  const sentFirst = state.pending.length;
  const batch = sentFirst === 0 ? statements : state.pending.concat(statements);
  state.pending = [];
  state.begun = true;
  try {
    return (await runFirstRoundTrip(state, batch)).slice(sentFirst);
  } catch (error) {
    if (isUnanswered(error)) stall(state, error);
    // Which statement failed decides whose error it is: a deferred one's (or COMMIT's) is the transaction's.
    const index = typeof error === 'object' && error !== null ? failedStatement.get(error) : undefined;
    if (index !== undefined && (index < sentFirst || batch[index] === COMMIT)) state.failure ??= error;
    throw error;
  }
}

function assertUsable(state: TransactionState): void {
  if (state.committed) throw new Error('the transaction has already been committed');
}

function resultOf<R>(result: { rows: unknown[]; rowCount: number | null }): QueryResult<R> {
  return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
}

/** `QueryOptions.reusePlan`, where it applies: a generic plan is reused only under a name kept on the connection. */
function reusesPlan(state: TransactionState, options: QueryOptions): boolean {
  return options.reusePlan === true && statementCaches.has(state.client);
}

function postgresTransaction(client: pg.PoolClient, notify: (text: string) => void, settings: PipelineStatement | undefined): PostgresTransaction {
  const pending = settings ? [BEGIN, settings] : [BEGIN];
  const state: TransactionState = { client, pending, begun: false, committed: false, failure: undefined, stalled: false };
  return {
    async query<R = Row>(text: string, values: readonly unknown[] = [], options: QueryOptions = {}): Promise<QueryResult<R>> {
      assertUsable(state);
      notify(text);
      const { bytes } = options;
      if (reusesPlan(state, options)) {
        return resultOf<R>((await sendPending(state, [GENERIC_PLANS, { text, values, bytes }, CUSTOM_PLANS]))[1]!);
      }
      // Without parameters node-postgres uses the simple protocol, which allows several statements in one text:
      // keep that, after sending what is pending on its own.
      if (state.pending.length > 0 && (values.length > 0 || bytes !== undefined)) {
        return resultOf<R>((await sendPending(state, [{ text, values, bytes }]))[0]!);
      }
      if (state.pending.length > 0) await sendPending(state, []);
      return resultOf<R>(await plainQuery(state, text, [...values], bytes));
    },
    async exec(sql: string): Promise<void> {
      assertUsable(state);
      notify(sql);
      if (state.pending.length > 0) await sendPending(state, []);
      await plainQuery(state, sql);
    },
    defer(text: string, values: readonly unknown[] = []): void {
      assertUsable(state);
      notify(text);
      state.pending.push({ text, values, discard: true });
    },
    async queryAndCommit<R = Row>(text: string, values: readonly unknown[] = [], options: QueryOptions = {}): Promise<QueryResult<R>> {
      assertUsable(state);
      notify(text);
      const statement: PipelineStatement = { text, values, bytes: options.bytes };
      // COMMIT ends the generic plans' setting itself.
      const statements = reusesPlan(state, options) ? [GENERIC_PLANS, statement, COMMIT] : [statement, COMMIT];
      const results = await sendPending(state, statements);
      state.committed = true;
      return resultOf<R>(results[statements.length - 2]!);
    },
    failure() {
      return state.failure;
    },
    open() {
      return state.begun && !state.committed;
    },
    stalled() {
      return state.stalled;
    },
    commit() {
      return plainQuery(state, 'COMMIT');
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
   * the connection is dropped (see `unanswered`).
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

/**
 * The settings every session has: the time zone, the statement timeout when set, and — with named statements —
 * `plan_cache_mode = force_custom_plan`. A named statement then still skips parsing and analysis, but is planned for
 * each execution's values as an unnamed one is: PostgreSQL's default (a generic plan after five executions, when
 * it looks no costlier) measured 4.5 times the CPU of a custom plan on an embed filtered by `id=in.(…)`, and a
 * request's values (a tenant's filter, a page) are exactly what a plan should see.
 */
function sessionSettings(statementTimeoutMs: number | undefined, customPlans: boolean): Record<string, string> {
  return {
    TimeZone: 'UTC',
    ...(statementTimeoutMs === undefined ? {} : { statement_timeout: String(statementTimeoutMs) }),
    ...(customPlans ? { plan_cache_mode: 'force_custom_plan' } : {}),
  };
}

/** The settings as startup parameters (`-c name=value`). */
function startupOptions(settings: Record<string, string>): string {
  return Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`).join(' ');
}

/** The settings made transaction-local, sent with each BEGIN (a pooler's sessions are not ours to set). */
function transactionSettings(settings: Record<string, string>): PipelineStatement {
  const entries = Object.entries(settings);
  return {
    text: `SELECT ${entries.map((_, index) => `set_config($${2 * index + 1}, $${2 * index + 2}, true)`).join(', ')}`,
    values: entries.flat(),
    discard: true,
  };
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
    types,
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
      : wrap(pool, (text) => db.onStatement?.(text))),
    async transaction<T>(fn: (tx: PipelinedTransaction) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // The pool listens for errors of idle clients only: a connection lost while checked out would otherwise
      // be an unhandled 'error' event that kills the process. The next query on it fails and is answered instead.
      const watch = {
        lost: undefined as Error | undefined,
        onError(error: Error) {
          watch.lost = error;
        },
      };
      client.on('error', watch.onError);
      let broken: unknown;
      const tx = postgresTransaction(client, (text) => db.onStatement?.(text), perTransaction);
      try {
        const result = await fn(tx);
        // `fn` may have answered a statement's error itself; a connection that stopped answering still fails it.
        if (tx.stalled()) throw tx.failure();
        if (tx.open()) await tx.commit();
        return result;
      } catch (error) {
        // ROLLBACK on a stalled connection would only wait behind the unanswered statement.
        if (tx.open() && !tx.stalled()) broken = await client.query('ROLLBACK').then(() => undefined, (rollbackError: unknown) => rollbackError);
        throw error;
      } finally {
        client.off('error', watch.onError);
        // A lost or stalled connection, or one whose ROLLBACK failed, is in an unknown state: destroy it instead
        // of pooling it.
        const stalled = tx.stalled() ? (tx.failure() as Error) : undefined;
        const discard = watch.lost ?? stalled ?? (broken instanceof Error ? broken : undefined);
        client.release(discard);
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: options.maxConnections ?? 10 }),
    preparedStatementStats: (): PreparedStatementStats => ({ ...preparedStats }),
    close: () => pool.end(),
  };
  return db;
}
