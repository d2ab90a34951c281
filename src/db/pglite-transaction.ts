/**
 * A transaction on the embedded database: BEGIN, the caller's statements, COMMIT; any throw rolls back. It has the
 * connection to itself from start to end (src/db/pglite-connection.ts).
 *
 * Like the PostgreSQL backend's transaction it saves trips (`PipelinedTransaction`, src/db/types.ts): BEGIN and the
 * statements handed to `defer` go to the database thread with the next statement, and `queryAndCommit` sends COMMIT
 * with the last one. An API read costs one trip instead of four; a transaction without statements sends nothing.
 *
 * After a statement is cancelled by the statement timeout the transaction is aborted, as on PostgreSQL: its later
 * statements fail with 25P02. On a data folder the cancelled thread took the transaction with it, so there is
 * nothing to roll back. In memory the cancelled statement is still running: the caller gets its error at once, and
 * the connection is handed on only after the ROLLBACK that follows the statement. (A cancelled `queryAndCommit`
 * still commits when its statement ends there; it is meant for reads, which change nothing.)
 */
import type { PGliteConnection } from './pglite-connection.js';
import {
  abortedTransactionError,
  failedStatement,
  isStatementTimeout,
  UnsendableRequestError,
  type Statement,
} from './pglite-protocol.js';
import type { PGliteThread } from './pglite-thread.js';
import type { PipelinedTransaction, QueryResult, Row } from './types.js';

class EmbeddedTransaction implements PipelinedTransaction {
  /** BEGIN has been sent: the transaction must be ended (unless committed). */
  begun = false;
  committed = false;
  /** A statement was cancelled by the statement timeout. */
  cancelled = false;
  private over = false;
  /** Statements to send before the next one. */
  private pending: Statement[] = [];
  private failed: unknown;

  constructor(
    private readonly thread: PGliteThread,
    private readonly notify: (text: string) => void,
  ) {}

  async query<R = Row>(text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
    this.assertUsable();
    this.notify(text);
    return (await this.send({ text, values }, false)) as QueryResult<R>;
  }

  async exec(sql: string): Promise<void> {
    this.assertUsable();
    this.notify(sql);
    await this.send({ sql }, false);
  }

  defer(text: string, values: readonly unknown[] = []): void {
    this.assertUsable();
    this.notify(text);
    this.pending.push({ text, values });
  }

  async queryAndCommit<R = Row>(text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
    this.assertUsable();
    this.notify(text);
    return (await this.send({ text, values }, true)) as QueryResult<R>;
  }

  failure(): unknown {
    return this.failed;
  }

  /** COMMIT, if anything was sent. Statements deferred after the last one are dropped, as on PostgreSQL. */
  async commit(): Promise<void> {
    this.over = true;
    if (this.begun && !this.committed) await this.thread.run({ op: 'run', statements: [], commit: true });
  }

  end(): void {
    this.over = true;
  }

  private assertUsable(): void {
    if (this.committed) throw new Error('the transaction has already been committed');
    if (this.over) throw new Error('Transaction is closed');
    if (this.cancelled) throw abortedTransactionError();
  }

  private async send(statement: Statement, commit: boolean): Promise<QueryResult<Row> | undefined> {
    const statements = [...this.pending, statement];
    const begin = !this.begun;
    this.pending = [];
    this.begun = true;
    try {
      const result = await this.thread.run({ op: 'run', statements, begin, commit });
      if (commit) this.committed = true;
      return result;
    } catch (error) {
      if (isStatementTimeout(error)) this.cancelled = true;
      // Nothing left, BEGIN and deferred statements included: they go with the next statement.
      if (error instanceof UnsendableRequestError) {
        this.begun = !begin;
        this.pending = statements.slice(0, -1);
      }
      // A deferred statement's error, or COMMIT's, is the transaction's (COMMIT ends it, failed or not).
      const index = typeof error === 'object' && error !== null ? failedStatement.get(error) : undefined;
      if (index !== undefined && index !== statements.length - 1) this.failed ??= error;
      if (index === statements.length) this.committed = true;
      throw error;
    }
  }
}

export function runTransaction<T>(
  connection: PGliteConnection,
  notify: (text: string) => void,
  fn: (tx: PipelinedTransaction) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    connection
      .exclusive(async (thread) => {
        const tx = new EmbeddedTransaction(thread, notify);
        let result: T;
        try {
          result = await fn(tx);
        } catch (error) {
          tx.end();
          // Nothing to roll back without a statement, after COMMIT, or once the thread (cancelled, crashed) took the
          // transaction with it.
          if (!tx.begun || tx.committed || thread.ended) return reject(error);
          const rollback = thread.run({ op: 'rollback' });
          if (tx.cancelled) {
            reject(error);
            await rollback.catch(() => undefined);
            return;
          }
          await rollback;
          return reject(error);
        }
        await tx.commit();
        resolve(result);
      })
      .catch(reject);
  });
}
