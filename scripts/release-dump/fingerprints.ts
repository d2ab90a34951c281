/**
 * Each table's columns, row count and checksum, the same way at the release (./run.ts) and after the upgrade (the
 * test), so "every row survived" is one comparison per table. Partitions are counted through their parent. The
 * caller's session must have `TimeZone` UTC (times are compared as text); rows are sorted bytewise (`COLLATE "C"`),
 * since the two backends' default collations differ.
 */
import type { TableFingerprint } from './record.js';

interface Queryable {
  query<Row>(sql: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The ordinary and partitioned tables of api and staykit_internal (not partitions), with their columns. */
async function tables(db: Queryable): Promise<Map<string, string[]>> {
  const { rows } = await db.query<{ name: string; columns: string[] }>(
    `SELECT format('%s.%s', n.nspname, c.relname) AS name, array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname IN ('api', 'staykit_internal') AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      GROUP BY 1 ORDER BY 1`);
  return new Map(rows.map((row) => [row.name, row.columns]));
}

export async function fingerprint(db: Queryable, table: string, columns: readonly string[]): Promise<TableFingerprint> {
  const [schema, name] = table.split('.') as [string, string];
  const row = `(${columns.map(quote).join(', ')})::text`;
  const { rows } = await db.query<{ rows: string; md5: string }>(
    `SELECT count(*)::text AS rows, md5(coalesce(string_agg(r, E'\\n' ORDER BY r COLLATE "C"), '')) AS md5
       FROM (SELECT ${row} AS r FROM ${quote(schema)}.${quote(name)}) t`);
  return { columns: [...columns], rows: Number(rows[0]!.rows), md5: rows[0]!.md5 };
}

export async function tableFingerprints(db: Queryable): Promise<Record<string, TableFingerprint>> {
  const result: Record<string, TableFingerprint> = {};
  for (const [table, columns] of await tables(db)) result[table] = await fingerprint(db, table, columns);
  return result;
}

export { tables as currentTables };
