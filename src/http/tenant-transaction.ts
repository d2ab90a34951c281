/**
 * Every API request runs in one transaction as the non-owner role `staykit_api`, with the organization of its
 * key in `staykit.organization_id` — the setting the row-level-security policies compare against. Both are
 * transaction-local (`set_config(…, true)`), so nothing survives into the next use of a pooled connection.
 * JIT is off: the API's statements are short, and a year of availability is costed high enough that LLVM
 * compilation (60+ ms measured on the benchmark data) would outweigh the query itself.
 */
import type { Database, Transaction } from '../db/types.js';
import type { Principal } from '../auth/authenticate.js';
import { inRequestTransaction } from './request-transaction.js';
import { inTenantSlot } from '../limits/tenant-concurrency.js';

export const API_ROLE = 'staykit_api';

/** Statement timeout of API transactions unless configured (DESIGN §8). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

export function inTenantTransaction<T>(
  db: Database,
  principal: Principal,
  work: (tx: Transaction) => Promise<{ result: T; rollback: boolean }>,
  statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS,
): Promise<T> {
  const prepare = async (tx: Transaction) => {
    await tx.query(
      `SELECT set_config('role', $1, true), set_config('staykit.organization_id', $2, true),
              set_config('staykit.key_id', $3, true), set_config('statement_timeout', $4, true),
              set_config('jit', 'off', true)`,
      [API_ROLE, principal.organizationId, principal.keyId, String(statementTimeoutMs)],
    );
  };
  return inTenantSlot(db, principal.organizationId, () => inRequestTransaction(db, prepare, work));
}
