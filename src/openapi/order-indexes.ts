/**
 * Which columns of each table an `order` is fast on, read from the catalog (pg_index) when the document is built:
 * a column a btree index leads with, or the one it holds right after the tenant column (`/v1` reads one
 * organization's rows, so an index on `(organization_id, start_date)` returns them in `start_date` order). Ordering
 * by any other column sorts every matching row first, which grows with the tenant's rows (docs/query-engine.md#counts-and-order-on-large-tenants).
 * Partial and expression indexes are left out: they do not serve an arbitrary request's order.
 */
import type { Queryable } from '../db/types.js';

/** table → columns, in the order of the catalog (index name, position). */
export type OrderIndexes = Map<string, string[]>;

/** The column every `/v1` read is filtered on (row-level security): the organization of the key. */
const TENANT_COLUMN = 'organization_id';

const INDEX_KEYS = `
SELECT t.relname AS table_name, ix.relname AS index_name,
       array(SELECT a.attname::text FROM unnest(i.indkey[0:i.indnkeyatts - 1]) WITH ORDINALITY AS k(attnum, position)
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
             ORDER BY k.position) AS key_columns,
       0 <> ALL (i.indkey[0:i.indnkeyatts - 1]) AS plain_columns
FROM pg_index i
JOIN pg_class t ON t.oid = i.indrelid
JOIN pg_class ix ON ix.oid = i.indexrelid
JOIN pg_am am ON am.oid = ix.relam
JOIN pg_namespace n ON n.oid = t.relnamespace
WHERE n.nspname = $1 AND am.amname = 'btree' AND i.indpred IS NULL
ORDER BY t.relname, ix.relname`;

/** The columns an index makes ordering fast on: its first key column, and the next one after the tenant column. */
export function orderableByIndex(keyColumns: readonly string[], tenantColumn: string | undefined): string[] {
  const [first, second] = keyColumns;
  if (first === undefined) return [];
  return first === tenantColumn && second !== undefined ? [first, second] : [first];
}

export async function loadOrderIndexes(db: Queryable, schema: string, tenantColumn: string | undefined = TENANT_COLUMN): Promise<OrderIndexes> {
  const { rows } = await db.query<{ table_name: string; key_columns: string[]; plain_columns: boolean }>(INDEX_KEYS, [schema]);
  const indexes: OrderIndexes = new Map();
  for (const row of rows) {
    if (!row.plain_columns) continue;
    const columns = indexes.get(row.table_name) ?? [];
    for (const column of orderableByIndex(row.key_columns, tenantColumn)) {
      if (column !== tenantColumn && !columns.includes(column)) columns.push(column);
    }
    indexes.set(row.table_name, columns);
  }
  return indexes;
}
