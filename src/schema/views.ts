/**
 * Relationships through views, as PostgREST derives them: a view column that is a plain reference to a base table
 * column (PostgreSQL records it in the view's query tree as the target entry's `resorigtbl`/`resorigcol`) carries the
 * base table's keys. A view exposing every column of a foreign key of its base table gets that foreign key; a table
 * referencing the base table gets a foreign key to the view when the view exposes every referenced column; a view
 * exposing its base table's primary key gets it as its own.
 */
import type { Queryable } from '../db/types.js';
import type { ForeignKey, Table } from './types.js';

const VIEW_RULES = `
SELECT c.relname AS view_name, r.ev_action::text AS action
FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('v', 'm') AND r.rulename = '_RETURN'`;

const BASE_COLUMNS = `
SELECT c.oid::text AS oid, c.relname AS table_name, a.attnum::int AS attnum, a.attname AS column_name
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`;

/** A view's columns that are plain references to a base table's columns: view column → base table and column. */
export type ViewSources = Map<string, Map<string, { table: string; column: string }>>;

const TARGET_ENTRY = /:resname (\S+) :ressortgroupref \d+ :resorigtbl (\d+) :resorigcol (\d+)/g;

export async function readViewSources(db: Queryable, schema: string): Promise<ViewSources> {
  const rules = await db.query<{ view_name: string; action: string }>(VIEW_RULES, [schema]);
  const sources: ViewSources = new Map();
  if (rules.rows.length === 0) return sources;
  const columns = await db.query<{ oid: string; table_name: string; attnum: number; column_name: string }>(BASE_COLUMNS, [schema]);
  const byKey = new Map(columns.rows.map((row) => [`${row.oid}:${row.attnum}`, { table: row.table_name, column: row.column_name }]));
  for (const rule of rules.rows) {
    const mapping = new Map<string, { table: string; column: string }>();
    // The outer query's target list comes last in the tree: a later entry of the same name wins over a subquery's.
    for (const [, name, table, column] of rule.action.matchAll(TARGET_ENTRY)) {
      const base = byKey.get(`${table}:${column}`);
      if (base && name) mapping.set(name, base);
      else if (name) mapping.delete(name);
    }
    if (mapping.size > 0) sources.set(rule.view_name, mapping);
  }
  return sources;
}

/** Adds the keys the views carry to `tables` (views and the tables that reference their base tables). */
export function addViewKeys(tables: Map<string, Table>, sources: ViewSources): void {
  const baseTables = [...tables.values()].filter((table) => table.kind === 'table' || table.kind === 'partitioned_table');
  for (const [viewName, mapping] of sources) {
    const view = tables.get(viewName);
    if (!view) continue;
    const byBase = new Map<string, Map<string, string>>();
    for (const [viewColumn, base] of mapping) {
      const columns = byBase.get(base.table) ?? new Map<string, string>();
      if (!columns.has(base.column)) columns.set(base.column, viewColumn);
      byBase.set(base.table, columns);
    }
    for (const [baseName, columns] of byBase) {
      const base = tables.get(baseName);
      if (!base) continue;
      const exposed = (names: string[]): string[] | undefined =>
        names.every((name) => columns.has(name)) ? names.map((name) => columns.get(name) as string) : undefined;
      const primaryKey = exposed(base.primaryKey);
      if (primaryKey && base.primaryKey.length > 0 && view.primaryKey.length === 0) view.primaryKey = primaryKey;
      for (const fk of base.foreignKeys) {
        const viewColumns = exposed(fk.columns);
        if (viewColumns) view.foreignKeys.push({ ...fk, table: view.name, columns: viewColumns });
      }
      for (const referencing of baseTables) {
        const added: ForeignKey[] = [];
        for (const fk of referencing.foreignKeys) {
          if (fk.refTable !== baseName || fk.refSchema !== base.schema) continue;
          const refColumns = exposed(fk.refColumns);
          if (refColumns) added.push({ ...fk, refTable: view.name, refColumns });
        }
        referencing.foreignKeys.push(...added);
      }
    }
  }
}
