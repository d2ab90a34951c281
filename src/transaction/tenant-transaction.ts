/**
 * Every API request runs in one transaction as the non-owner role `staykit_api` (or a role that inherits it and may
 * also read the iCal export secrets its principal may read: ./api-role.ts), with the organization of its
 * key in `staykit.organization_id` — the setting the row-level-security policies compare against — and the tables
 * it may read in `staykit.readable_tables` (`*` for all, else an array literal of table names), which the policies
 * of migration 0090 check, so a key's scopes hold in the database whatever the statement. All are
 * transaction-local (`set_config(…, true)`), so nothing survives into the next use of a pooled connection.
 * JIT is off: the API's statements are short, and a year of availability is costed high enough that LLVM
 * compilation (60+ ms measured on the benchmark data) would outweigh the query itself.
 */
import type { Database, PipelinedTransaction, Transaction } from '../db/types.js';
import type { Principal } from '../auth/principal.js';
import type { SchemaCacheOptions } from '../schema/load.js';
import { readableTables, writableTables, type ReadableTables } from '../auth/scopes.js';
import { inRequestTransaction } from './request-transaction.js';
import { inTenantSlot, trafficOf } from '../limits/tenant-concurrency.js';
import { API_ROLE, apiRoleFor } from './api-role.js';

export { API_ROLE };
/** The schema the API serves, with the privileges of the role its requests run as. */
export const API_SCHEMA: SchemaCacheOptions = { schema: 'api', role: API_ROLE };

/** Statement timeout of API transactions unless configured (docs/design.md#limits). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

export interface TenantTransactionOptions {
  statementTimeoutMs?: number | undefined;
  /**
   * The tables the transaction may read; default: what the key's scopes allow. A list given here must name every
   * table the work reads: the test databases make a read outside it an error (migration 0220).
   */
  readable?: ReadableTables;
}

/** `*`, or a PostgreSQL array literal of the table names (`{}` for none: never the empty string, which means unset). */
function readableSetting(readable: ReadableTables): string {
  if (readable === 'all') return '*';
  return `{${readable.map((table) => `"${table.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

export function inTenantTransaction<T>(
  db: Database,
  principal: Principal,
  work: (tx: PipelinedTransaction) => Promise<{ result: T; rollback: boolean }>,
  options: TenantTransactionOptions = {},
): Promise<T> {
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const readable = options.readable ?? readableTables(principal.scopes);
  // A dashboard session also names its user (what the logs record as acting) and holds its writes to the member's
  // grants in the database too (migration 0140); a key's writes are checked by the HTTP layer, as before (the
  // booking flow writes payments and other tables on a `bookings:write` key's behalf). Keys and sessions alike name
  // the tables they may write in `staykit.write_grants`, the most they may grant others (0190).
  const writeGrants = readableSetting(writableTables(principal.scopes));
  const writable = principal.userId === undefined ? '' : writeGrants;
  const prepare = async (tx: Transaction) => {
    await tx.query(
      `SELECT set_config('role', $1, true), set_config('staykit.organization_id', $2, true),
              set_config('staykit.key_id', $3, true), set_config('statement_timeout', $4, true),
              set_config('jit', 'off', true), set_config('staykit.readable_tables', $5, true),
              set_config('staykit.user_id', $6, true), set_config('staykit.writable_tables', $7, true),
              set_config('staykit.write_grants', $8, true), set_config('staykit.listed_reads_only', $9, true)`,
      // The role by the principal's own scopes, not by `readable`: a transaction that may read more tables on the
      // principal's behalf (the booking flow's inputs) reads its rows, never more columns.
      [apiRoleFor(principal.scopes), principal.organizationId, principal.keyId, String(statementTimeoutMs), readableSetting(readable),
        principal.userId ?? '', writable, writeGrants, options.readable === undefined ? '' : 'on'],
    );
  };
  return inTenantSlot(db, principal.organizationId, () => inRequestTransaction(db, prepare, work), trafficOf(principal));
}
