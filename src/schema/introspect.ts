/**
 * The catalog queries behind the schema cache: four statements over `pg_catalog`, each returning rows of plain
 * JSON-friendly values (arrays as `json`), valid on PostgreSQL 15+ and PGlite. Privileges are evaluated for `$2`
 * (the API role), or for `current_user` when `$2` is null.
 */
import type { Queryable } from '../db/types.js';

const ROLE = `coalesce($2::text, current_user::text)`;

export interface TableRow {
  name: string;
  kind: string;
  comment: string | null;
  can_select: boolean;
  can_insert: boolean;
  can_update: boolean;
  can_delete: boolean;
}

export interface ColumnRow {
  table_name: string;
  name: string;
  type: string;
  udt_name: string;
  nullable: boolean;
  default_expr: string | null;
  identity: boolean;
  generated: boolean;
  is_array: boolean;
  element_type: string | null;
  enum_values: string[] | null;
  comment: string | null;
  can_select: boolean;
  can_insert: boolean;
  can_update: boolean;
}

export interface ConstraintRow {
  name: string;
  type: 'p' | 'u' | 'f';
  table_name: string;
  columns: string[];
  ref_schema: string | null;
  ref_table: string | null;
  ref_columns: string[] | null;
}

export interface RoutineRow {
  name: string;
  args: { name: string; type: string; mode: string }[] | null;
  default_count: number;
  return_type: string;
  returns_set: boolean;
  return_table: string | null;
  return_is_composite: boolean;
  volatility: string;
  can_execute: boolean;
  /** The table of this schema whose row type is the function's only argument (computed fields/relationships). */
  row_arg_table: string | null;
}

const TABLES = `
SELECT c.relname AS name, c.relkind::text AS kind, obj_description(c.oid, 'pg_class') AS comment,
  has_table_privilege(${ROLE}, c.oid, 'SELECT') AS can_select,
  (has_table_privilege(${ROLE}, c.oid, 'INSERT') OR has_any_column_privilege(${ROLE}, c.oid, 'INSERT'))
    AND (c.relkind IN ('r', 'p') OR (pg_relation_is_updatable(c.oid, true) & 8) = 8) AS can_insert,
  (has_table_privilege(${ROLE}, c.oid, 'UPDATE') OR has_any_column_privilege(${ROLE}, c.oid, 'UPDATE'))
    AND (c.relkind IN ('r', 'p') OR (pg_relation_is_updatable(c.oid, true) & 4) = 4) AS can_update,
  has_table_privilege(${ROLE}, c.oid, 'DELETE')
    AND (c.relkind IN ('r', 'p') OR (pg_relation_is_updatable(c.oid, true) & 16) = 16) AS can_delete
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'f', 'p')
ORDER BY c.relname`;

const COLUMNS = `
SELECT c.relname AS table_name, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
  t.typname::text AS udt_name, NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS default_expr,
  a.attidentity <> '' AS identity, a.attgenerated <> '' AS generated,
  (t.typcategory = 'A') AS is_array,
  CASE WHEN t.typcategory = 'A' THEN format_type(t.typelem, NULL) END AS element_type,
  (SELECT json_agg(e.enumlabel ORDER BY e.enumsortorder) FROM pg_enum e
     WHERE e.enumtypid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END) AS enum_values,
  col_description(c.oid, a.attnum) AS comment,
  has_column_privilege(${ROLE}, c.oid, a.attnum, 'SELECT') AS can_select,
  has_column_privilege(${ROLE}, c.oid, a.attnum, 'INSERT') AS can_insert,
  has_column_privilege(${ROLE}, c.oid, a.attnum, 'UPDATE') AS can_update
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_type t ON t.oid = a.atttypid
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'f', 'p') AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY c.relname, a.attnum`;

const CONSTRAINTS = `
SELECT con.conname AS name, con.contype::text AS type, cl.relname AS table_name,
  (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns,
  fn.nspname AS ref_schema, fcl.relname AS ref_table,
  (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS ref_columns
FROM pg_constraint con
JOIN pg_class cl ON cl.oid = con.conrelid
JOIN pg_namespace n ON n.oid = cl.relnamespace
LEFT JOIN pg_class fcl ON fcl.oid = con.confrelid
LEFT JOIN pg_namespace fn ON fn.oid = fcl.relnamespace
WHERE n.nspname = $1 AND con.contype IN ('p', 'u', 'f')
ORDER BY cl.relname, con.conname`;

const ROUTINES = `
SELECT p.proname AS name,
  (SELECT json_agg(json_build_object(
      'name', coalesce(p.proargnames[i], ''),
      'type', format_type(coalesce(p.proallargtypes[i], p.proargtypes[i - 1]), NULL),
      'mode', coalesce(p.proargmodes[i]::text, 'i')) ORDER BY i)
   FROM generate_series(1, coalesce(array_length(p.proallargtypes, 1), p.pronargs)) AS i) AS args,
  p.pronargdefaults::int AS default_count,
  format_type(p.prorettype, NULL) AS return_type, p.proretset AS returns_set,
  CASE WHEN rn.nspname = $1 AND rc.relkind IN ('r', 'v', 'm', 'f', 'p') THEN rc.relname END AS return_table,
  (rt.typtype = 'c' OR rt.oid = 'record'::regtype) AS return_is_composite,
  p.provolatile::text AS volatility,
  has_function_privilege(${ROLE}, p.oid, 'EXECUTE') AS can_execute,
  (SELECT ac.relname FROM pg_type at JOIN pg_class ac ON ac.oid = at.typrelid JOIN pg_namespace an ON an.oid = ac.relnamespace
     WHERE p.pronargs = 1 AND at.oid = p.proargtypes[0] AND an.nspname = $1 AND ac.relkind IN ('r', 'v', 'm', 'f', 'p')) AS row_arg_table
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
JOIN pg_type rt ON rt.oid = p.prorettype
LEFT JOIN pg_class rc ON rc.oid = rt.typrelid
LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
WHERE n.nspname = $1 AND p.prokind = 'f'
ORDER BY p.proname, p.oid`;

export interface CatalogRows {
  tables: TableRow[];
  columns: ColumnRow[];
  constraints: ConstraintRow[];
  routines: RoutineRow[];
}

export async function readCatalog(db: Queryable, schema: string, role: string | null): Promise<CatalogRows> {
  const values = [schema, role];
  const tables = await db.query<TableRow>(TABLES, values);
  const columns = await db.query<ColumnRow>(COLUMNS, values);
  const constraints = await db.query<ConstraintRow>(CONSTRAINTS, [schema]);
  const routines = await db.query<RoutineRow>(ROUTINES, values);
  return { tables: tables.rows, columns: columns.rows, constraints: constraints.rows, routines: routines.rows };
}
