/**
 * A transaction on the embedded database: BEGIN, the caller's statements, COMMIT; any throw rolls back. It has the
 * connection to itself from start to end (src/db/pglite-connection.ts). BEGIN goes to the thread with the first
 * statement, and a transaction without statements sends nothing.
 *
 * After a statement is cancelled by the statement timeout the transaction is aborted, as on PostgreSQL: its later
 * statements fail with 25P02. On a data folder the cancelled thread took the transaction with it, so there is
 * nothing to roll back. In memory the cancelled statement is still running: the caller gets its error at once, and
 * the connection is handed on only after the ROLLBACK that follows the statement.
 */
import type { PGliteConnection } from './pglite-connection.js';
import { abortedTransactionError, isStatementTimeout, UnsendableRequestError, type WorkerRequest } from './pglite-protocol.js';
import type { PGliteThread } from './pglite-thread.js';
import type { QueryResult, Row, Transaction } from './types.js';

class EmbeddedTransaction implements Transaction {
  /** BEGIN has been sent, with the first statement: the transaction must be ended. */
  begun = false;
  /** A statement was cancelled by the statement timeout. */
  cancelled = false;
  private over = false;

  constructor(
    private readonly thread: PGliteThread,
    private readonly notify: (text: string) => void,
  ) {}

  async query<R = Row>(text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
    this.assertUsable();
    this.notify(text);
    return (await this.send({ op: 'query', text, values })) as QueryResult<R>;
  }

  async exec(sql: string): Promise<void> {
    this.assertUsable();
    this.notify(sql);
    await this.send({ op: 'exec', sql });
  }

  end(): void {
    this.over = true;
  }

  private assertUsable(): void {
    if (this.over) throw new Error('Transaction is closed');
    if (this.cancelled) throw abortedTransactionError();
  }

  private async send(request: WorkerRequest & { op: 'query' | 'exec' }): Promise<QueryResult<Row> | undefined> {
    const begin = !this.begun;
    this.begun = true;
    try {
      return await this.thread.run(begin ? { ...request, begin } : request);
    } catch (error) {
      if (isStatementTimeout(error)) this.cancelled = true;
      // The statement never left, and its BEGIN with it: the next statement carries BEGIN.
      if (error instanceof UnsendableRequestError && begin) this.begun = false;
      throw error;
    }
  }
}

export function runTransaction<T>(
  connection: PGliteConnection,
  notify: (text: string) => void,
  fn: (tx: Transaction) => Promise<T>,
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
          // Nothing to roll back without a statement, or once the thread (cancelled, crashed) took the transaction with it.
          if (!tx.begun || thread.ended) return reject(error);
          const rollback = thread.run({ op: 'rollback' });
          if (tx.cancelled) {
            reject(error);
            await rollback.catch(() => undefined);
            return;
          }
          await rollback;
          return reject(error);
        }
        tx.end();
        if (tx.begun) await thread.run({ op: 'commit' });
        resolve(result);
      })
      .catch(reject);
  });
}
