/**
 * `staykit migrate-to-postgres`: the embedded database's rows into a PostgreSQL database (docs/operations.md#moving-to-postgresql).
 * PGlite's data files are 32-bit WebAssembly Postgres' and no native server opens them, so the rows are copied: the
 * target is migrated to the same migration as the source (the same schema, roles and grants), emptied of the rows the
 * migrations wrote, and then every table's rows are copied as they are, in one transaction, with triggers and
 * foreign-key checks off (`session_replication_role = replica`: the rows are already what the triggers made, and a
 * trigger firing again would add log rows and notifications). That setting needs a superuser on the target.
 */
import type { Database, PipelinedTransaction, Queryable } from '../db/types.js';
import { BackupRefusedError } from './manifest.js';

/** Rows per round trip. */
const BATCH = 500;

interface Table {
  name: string;
  columns: string[];
}

/** The schemas holding Staykit's tables (not the system's). */
const OWN_SCHEMAS = `n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'`;

/** Every plain table (partitions included, partitioned parents not: their rows are their partitions') with its writable columns. */
async function tables(db: Queryable): Promise<Table[]> {
  const { rows } = await db.query<{ name: string; columns: string[] }>(`
    SELECT format('%I.%I', n.nspname, c.relname) AS name,
      array_agg(quote_ident(a.attname) ORDER BY a.attnum) AS columns
    FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
    WHERE c.relkind = 'r' AND ${OWN_SCHEMAS}
    GROUP BY 1 ORDER BY 1`);
  return rows;
}

/** Every table as a whole (partitioned ones with their partitions): what TRUNCATE takes, foreign keys to partitioned tables included. */
async function wholeTables(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(`
    SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND ${OWN_SCHEMAS} ORDER BY 1`);
  return rows.map((row) => row.name);
}

/** The source's partitions the target lacks (log months), made like the source's. */
async function createMissingPartitions(source: Queryable, target: Queryable): Promise<void> {
  const query = `
    SELECT format('%I.%I', n.nspname, c.relname) AS name, format('%I.%I', pn.nspname, p.relname) AS parent,
      pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    JOIN pg_inherits AS i ON i.inhrelid = c.oid JOIN pg_class AS p ON p.oid = i.inhparent JOIN pg_namespace AS pn ON pn.oid = p.relnamespace
    WHERE c.relispartition AND ${OWN_SCHEMAS}`;
  const present = new Set((await target.query<{ name: string }>(query)).rows.map((row) => row.name));
  for (const partition of (await source.query<{ name: string; parent: string; bound: string }>(query)).rows) {
    if (!present.has(partition.name)) await target.exec(`CREATE TABLE ${partition.name} PARTITION OF ${partition.parent} ${partition.bound}`);
  }
}

async function copyRows(source: Queryable, tx: PipelinedTransaction, table: Table): Promise<number> {
  const columns = table.columns.join(', ');
  let after = '(0,0)';
  let copied = 0;
  for (;;) {
    // As JSON text, never parsed on the way: a `json` column's value (unlike jsonb) keeps its exact text, spacing and key order.
    const { rows } = await source.query<{ at: string; row: string }>(
      `SELECT ctid::text AS at, to_json(t)::text AS row FROM ${table.name} AS t WHERE ctid > $1::tid ORDER BY ctid LIMIT ${BATCH}`, [after]);
    if (rows.length === 0) return copied;
    await tx.query(
      `INSERT INTO ${table.name} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::${table.name}, $1::json)`,
      [`[${rows.map((entry) => entry.row).join(',')}]`]);
    copied += rows.length;
    after = rows.at(-1)!.at;
  }
}

async function copySequences(source: Queryable, tx: PipelinedTransaction): Promise<void> {
  const { rows: sequences } = await source.query<{ name: string }>(`
    SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE c.relkind = 'S' AND ${OWN_SCHEMAS}`);
  for (const { name } of sequences) {
    const { rows } = await source.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${name}`);
    await tx.query('SELECT setval($1::regclass, $2::bigint, $3)', [name, rows[0]!.last_value, rows[0]!.is_called]);
  }
}

export interface MigrateSummary {
  tables: number;
  rows: number;
}

/**
 * Copies every row and sequence of `source` (the embedded database, migrated) into `target` (PostgreSQL, migrated
 * to the same migration, holding only what the migrations wrote).
 */
export async function copyToPostgres(source: Database, target: Database): Promise<MigrateSummary> {
  await createMissingPartitions(source, target);
  const sourceTables = await tables(source);
  return target.transaction(async (tx) => {
    try {
      await tx.query(`SET LOCAL session_replication_role = replica`);
    } catch (error) {
      throw new BackupRefusedError(`the copy needs a superuser on the PostgreSQL server (to copy the rows without firing their triggers again): ${(error as Error).message}`);
    }
    await tx.query(`TRUNCATE ${(await wholeTables(tx)).join(', ')}`);
    let rows = 0;
    for (const table of sourceTables) rows += await copyRows(source, tx, table);
    await copySequences(source, tx);
    return { tables: sourceTables.length, rows };
  });
}
