/**
 * Every API request runs in one transaction as the non-owner role `staykit_api`, with the organization of its
 * key in `staykit.organization_id` — the setting the row-level-security policies compare against. Both are
 * transaction-local (`set_config(…, true)`), so nothing survives into the next use of a pooled connection.
 */
import type { Database, Transaction } from '../db/types.js';
import type { Principal } from '../auth/authenticate.js';

export const API_ROLE = 'staykit_api';

/** Thrown inside the transaction to roll it back while still answering with `response`. */
class Rollback<T> extends Error {
  constructor(readonly response: T) {
    super('rollback');
  }
}

export async function inTenantTransaction<T>(
  db: Database,
  principal: Principal,
  work: (tx: Transaction) => Promise<{ result: T; rollback: boolean }>,
): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await tx.query(
        `SELECT set_config('role', $1, true), set_config('staykit.organization_id', $2, true), set_config('staykit.key_id', $3, true)`,
        [API_ROLE, principal.organizationId, principal.keyId],
      );
      const { result, rollback } = await work(tx);
      if (rollback) throw new Rollback(result);
      return result;
    });
  } catch (error) {
    if (error instanceof Rollback) return error.response as T;
    throw error;
  }
}
