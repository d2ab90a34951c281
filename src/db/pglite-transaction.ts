/**
 * A transaction on the embedded database: BEGIN, the caller's statements, COMMIT; any throw rolls back. It has the
 * connection to itself from BEGIN to its end (src/db/pglite-connection.ts).
 *
 * After a statement is cancelled by the statement timeout the transaction is aborted, as on PostgreSQL: its later
 * statements fail with 25P02. On a data folder the cancelled thread took the transaction with it, so there is
 * nothing to roll back. In memory the cancelled statement is still running: the caller gets its error at once, and
 * the connection is handed on only after the ROLLBACK that follows the statement.
 */
import type { PGliteConnection } from './pglite-connection.js';
import { abortedTransactionError, isStatementTimeout, type WorkerRequest } from './pglite-protocol.js';
import type { PGliteThread } from './pglite-thread.js';
import type { QueryResult, Row, Transaction } from './types.js';

class EmbeddedTransaction implements Transaction {
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

  private async send(request: WorkerRequest): Promise<QueryResult<Row> | undefined> {
    try {
      return await this.thread.run(request);
    } catch (error) {
      if (isStatementTimeout(error)) this.cancelled = true;
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
        await thread.run({ op: 'begin' });
        const tx = new EmbeddedTransaction(thread, notify);
        let result: T;
        try {
          result = await fn(tx);
        } catch (error) {
          tx.end();
          // A thread that ended (cancelled, crashed) took the open transaction with it: nothing to roll back.
          if (thread.ended) return reject(error);
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
        await thread.run({ op: 'commit' });
        resolve(result);
      })
      .catch(reject);
  });
}
