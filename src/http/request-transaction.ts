/**
 * One request, one transaction: `prepare` sets the session up (role, settings), `work` runs the request and says
 * whether to keep its effects. A rollback still answers with the response `work` produced (`Prefer: tx=rollback`,
 * or an error the engine turned into a response after writing).
 */
import type { Database, Transaction } from '../db/types.js';

class Rollback<T> extends Error {
  constructor(readonly response: T) {
    super('rollback');
  }
}

export async function inRequestTransaction<T>(
  db: Database,
  prepare: (tx: Transaction) => Promise<void>,
  work: (tx: Transaction) => Promise<{ result: T; rollback: boolean }>,
): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await prepare(tx);
      const { result, rollback } = await work(tx);
      if (rollback) throw new Rollback(result);
      return result;
    });
  } catch (error) {
    if (error instanceof Rollback) return error.response as T;
    throw error;
  }
}
