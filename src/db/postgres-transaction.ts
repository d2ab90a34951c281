/**
 * A transaction on the PostgreSQL pool: BEGIN, the caller's statements, COMMIT on one connection; any throw rolls
 * back (`runTransaction`). Like the embedded backend's (pglite-transaction.ts) it saves round trips
 * (`PipelinedTransaction`, types.ts): BEGIN — with the settings a pooler's session needs — and the statements handed
 * to `defer` go out with the next statement, and `queryAndCommit` sends COMMIT with the last one, all pipelined in
 * one round trip (postgres-pipeline.ts). The server runs a round trip's statements in order and skips the rest at the
 * first error, so a statement never runs without the ones before it, and COMMIT never follows a failed statement.
 *
 * A connection that stops answering (postgres-unanswered.ts), is lost while checked out, or whose ROLLBACK failed is
 * destroyed instead of going back to the pool: its state is unknown.
 */
import type pg from 'pg';
import type { PipelinedTransaction, QueryOptions, QueryResult, Row } from './types.js';
import { isStaleStatementError } from './prepared-statements.js';
import { failedStatementOf, runPipeline, statementCaches, type PipelineStatement } from './postgres-pipeline.js';
import { isUnanswered, unanswered } from './postgres-unanswered.js';

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
 * (postgres-session-settings.ts: set wherever statements are named). `SET LOCAL`, not `set_config()`: it answers no
 * row, so no row follows the statement's own in the answer (which `QueryOptions.bytes` reads). Transaction-local: if
 * the statement fails, the rest of the round trip is skipped, and the ROLLBACK (or ROLLBACK TO a savepoint taken
 * before) that must follow undoes the setting too.
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
async function plainQuery(state: TransactionState, text: string, values?: unknown[], bytes?: readonly string[]): Promise<pg.QueryResult> {
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
async function runFirstRoundTrip(state: TransactionState, batch: PipelineStatement[]): Promise<pg.QueryResult[]> {
  try {
    return await runPipeline(state.client, batch);
  } catch (error) {
    if (batch[0] !== BEGIN || !isStaleStatementError(error) || !statementCaches.has(state.client)) throw error;
    await state.client.query('ROLLBACK');
    return runPipeline(state.client, batch);
  }
}

/** Sends what is pending, then `statements`; resolves with the results of `statements`. */
async function sendPending(state: TransactionState, statements: PipelineStatement[]): Promise<pg.QueryResult[]> {
  const sentFirst = state.pending.length;
  const batch = sentFirst === 0 ? statements : state.pending.concat(statements);
  state.pending = [];
  state.begun = true;
  try {
    return (await runFirstRoundTrip(state, batch)).slice(sentFirst);
  } catch (error) {
    if (isUnanswered(error)) stall(state, error);
    // Which statement failed decides whose error it is: a deferred one's (or COMMIT's) is the transaction's.
    const index = failedStatementOf(error);
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

/**
 * Runs `fn` in a transaction on a connection of `pool` (`Database.transaction`). `settings`: the transaction-local
 * settings sent with BEGIN behind a pooler (postgres-session-settings.ts); `notify` sees every statement's text.
 */
export async function runTransaction<T>(
  pool: pg.Pool,
  notify: (text: string) => void,
  settings: PipelineStatement | undefined,
  fn: (tx: PipelinedTransaction) => Promise<T>,
): Promise<T> {
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
  const tx = postgresTransaction(client, notify, settings);
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
}
