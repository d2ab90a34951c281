/**
 * `loadSchemaCache`: introspects one schema (see introspect.ts) and assembles the SchemaCache the planner reads; the
 * two steps apart (`readSchemaCatalog`, `schemaCacheOf`) for a copy of the reads kept between starts (snapshot.ts).
 */
import type { Queryable } from '../db/types.js';
import { readCatalog, type CatalogRows, type ColumnRow, type RoutineRow } from './introspect.js';
import { deriveRelationships } from './relationships.js';
import { addViewKeys, readViewKeys, type ViewKeys } from './views.js';
import type { Column, Routine, SchemaCache, Table, TableKind } from './types.js';

const KINDS: Record<string, TableKind> = {
  r: 'table',
  v: 'view',
  m: 'materialized_view',
  f: 'foreign_table',
  p: 'partitioned_table',
};

function toColumn(row: ColumnRow): Column {
  return {
    name: row.name,
    type: row.type,
    udtName: row.udt_name,
    nullable: row.nullable,
    defaultExpr: row.default_expr,
    hasDefault: row.default_expr !== null || row.identity || row.generated,
    identity: row.identity,
    generated: row.generated,
    isArray: row.is_array,
    elementType: row.element_type,
    enumValues: row.enum_values,
    comment: row.comment,
    canSelect: row.can_select,
    canInsert: row.can_insert && !row.generated,
    canUpdate: row.can_update && !row.generated,
  };
}

function toRoutine(schema: string, row: RoutineRow): Routine {
  const all = row.args ?? [];
  const inArgs = all.filter((arg) => arg.mode === 'i' || arg.mode === 'b' || arg.mode === 'v');
  const hasOutArgs = all.some((arg) => arg.mode === 'o' || arg.mode === 'b' || arg.mode === 't');
  const firstDefault = inArgs.length - row.default_count;
  const volatility = row.volatility === 'i' ? 'immutable' : row.volatility === 's' ? 'stable' : 'volatile';
  return {
    schema,
    name: row.name,
    args: inArgs.map((arg, index) => ({
      name: arg.name,
      type: arg.type,
      hasDefault: index >= firstDefault,
      variadic: arg.mode === 'v',
    })),
    returnType: row.return_type,
    returnsSet: row.returns_set,
    returnsTable: row.return_table,
    returnsComposite: row.return_is_composite || hasOutArgs,
    returnsVoid: row.return_type === 'void',
    volatility,
    canExecute: row.can_execute,
    rowArgTable: row.row_arg_table,
  };
}

/** Functions of one table-row argument returning a scalar (not a set, not a row, not void). */
function computedFields(routines: Map<string, Routine[]>): Map<string, Map<string, Routine>> {
  const result = new Map<string, Map<string, Routine>>();
  for (const overloads of routines.values()) {
    for (const routine of overloads) {
      if (!routine.rowArgTable || routine.returnsSet || routine.returnsComposite || routine.returnsVoid) continue;
      const fields = result.get(routine.rowArgTable) ?? new Map<string, Routine>();
      fields.set(routine.name, routine);
      result.set(routine.rowArgTable, fields);
    }
  }
  return result;
}

/**
 * What the schema cache is made from, as read from the database: plain data, the same for the same catalogue, so a
 * copy of it can stand in for the reads (snapshot.ts).
 */
export interface SchemaCatalog {
  rows: CatalogRows;
  viewKeys: ViewKeys;
  /** PostgreSQL's time zone names (`Prefer: timezone=`). */
  timezones: string[];
}

export interface SchemaCacheOptions {
  schema: string;
  /** Whose privileges the cache records; default the connection's user. */
  role?: string;
}

/** Reads one schema's catalogue: four catalog statements, the views' definitions, the time zone names. */
export async function readSchemaCatalog(db: Queryable, { schema, role }: SchemaCacheOptions): Promise<SchemaCatalog> {
  const rows = await readCatalog(db, schema, role ?? null);
  const viewKeys = await readViewKeys(db, schema);
  const timezones = await db.query<{ name: string }>('SELECT name FROM pg_timezone_names');
  return { rows, viewKeys, timezones: timezones.rows.map((row) => row.name) };
}

/** The schema cache the planner reads, assembled from the catalogue's rows (pure). */
export function schemaCacheOf({ rows: catalog, viewKeys, timezones }: SchemaCatalog, options: SchemaCacheOptions): SchemaCache {
  const { schema } = options;
  const tables = new Map<string, Table>();
  for (const row of catalog.tables) {
    tables.set(row.name, {
      schema,
      name: row.name,
      kind: KINDS[row.kind] ?? 'table',
      comment: row.comment,
      columns: [],
      primaryKey: [],
      uniqueKeys: [],
      foreignKeys: [],
      privileges: { select: row.can_select, insert: row.can_insert, update: row.can_update, delete: row.can_delete },
    });
  }
  for (const row of catalog.columns) tables.get(row.table_name)?.columns.push(toColumn(row));
  for (const row of catalog.constraints) {
    const table = tables.get(row.table_name);
    if (!table) continue;
    if (row.type === 'p') table.primaryKey = row.columns;
    else if (row.type === 'u') table.uniqueKeys.push(row.columns);
    else if (row.ref_table && row.ref_schema && row.ref_columns) {
      table.foreignKeys.push({
        name: row.name,
        table: table.name,
        columns: row.columns,
        refSchema: row.ref_schema,
        refTable: row.ref_table,
        refColumns: row.ref_columns,
      });
    }
  }
  addViewKeys(tables, schema, viewKeys);
  const routines = new Map<string, Routine[]>();
  for (const row of catalog.routines) {
    const list = routines.get(row.name) ?? [];
    list.push(toRoutine(schema, row));
    routines.set(row.name, list);
  }
  return {
    schema,
    role: options.role ?? 'current_user',
    tables,
    relationships: deriveRelationships(schema, tables, routines),
    routines,
    computedFields: computedFields(routines),
    timezones: new Set(timezones),
  };
}

export async function loadSchemaCache(db: Queryable, options: SchemaCacheOptions): Promise<SchemaCache> {
  return schemaCacheOf(await readSchemaCatalog(db, options), options);
}
