/**
 * One request, one transaction: `prepare` sets the session up (role, settings), `work` runs the request and says
 * whether to keep its effects. A rollback still answers with the response `work` produced (`Prefer: tx=rollback`,
 * or an error the engine turned into a response after writing).
 *
 * The statements `prepare` issues are not sent on their own: they travel with BEGIN and the first statement of
 * `work` in one round trip (`defer`, src/db/types.ts). So `prepare` must issue single statements whose results it
 * does not read (they resolve empty). If one of them fails, `work`'s first statement fails with the same error
 * without running, and the request fails with that error exactly as if `prepare` had thrown it, whatever `work` made
 * of it; likewise a COMMIT that `work` sent with its last statement.
 */
import type { Database, PipelinedTransaction, QueryResult, Row, Transaction } from '../db/types.js';

class Rollback<T> extends Error {
  constructor(readonly response: T) {
    super('rollback');
  }
}

/** A view of `tx` whose statements are deferred to the next statement `tx` runs. */
function deferring(tx: PipelinedTransaction): Transaction {
  return {
    query<R = Row>(text: string, values?: readonly unknown[]): Promise<QueryResult<R>> {
      tx.defer(text, values);
      return Promise.resolve({ rows: [], rowCount: 0 });
    },
    exec(sql: string): Promise<void> {
      tx.defer(sql);
      return Promise.resolve();
    },
  };
}

export async function inRequestTransaction<T>(
  db: Database,
  prepare: (tx: Transaction) => Promise<void>,
  work: (tx: PipelinedTransaction) => Promise<{ result: T; rollback: boolean }>,
): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await prepare(deferring(tx));
      let outcome: { result: T; rollback: boolean };
      try {
        outcome = await work(tx);
      } catch (error) {
        if (tx.failure() !== undefined) throw tx.failure();
        throw error;
      }
      // The engine turns a failed statement into a response; one sent on the transaction's behalf fails the request.
      if (tx.failure() !== undefined) throw tx.failure();
      if (outcome.rollback) throw new Rollback(outcome.result);
      return outcome.result;
    });
  } catch (error) {
    if (error instanceof Rollback) return error.response as T;
    throw error;
  }
}
