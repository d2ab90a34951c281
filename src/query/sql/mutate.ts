/**
 * Mutations → the `pgrst_source` CTE: INSERT … SELECT FROM json_populate_recordset (the raw JSON body is one
 * parameter), UPDATE … FROM json_populate_record, DELETE; each RETURNING only what the response needs.
 */
import type { Column } from '../../schema/types.js';
import type { DeletePlan, InsertPlan, ReturnedColumn, UpdatePlan } from '../plan/types.js';
import { conditionSql } from './condition.js';
import { Params, qualified, quoteIdent } from './quote.js';

/** A returned column of the row `alias`; a computed field is its function called with that row. */
function returnedSql(alias: string, column: ReturnedColumn): string {
  if (!column.computed) return `${quoteIdent(alias)}.${quoteIdent(column.name)}`;
  return `${qualified(column.computed.schema, column.computed.name)}(${quoteIdent(alias)}) AS ${quoteIdent(column.name)}`;
}

function returningSql(alias: string, columns: ReturnedColumn[], extra: string[] = []): string {
  const items = [...columns.map((column) => returnedSql(alias, column)), ...extra];
  return items.length === 0 ? ' RETURNING 1 AS "pgrst_one"' : ` RETURNING ${items.join(', ')}`;
}

/** Merge-duplicates answers 201 only when a row was inserted (xmax = 0), 200 when all were updates. */
export const INSERTED_FLAG = '"pgrst_inserted"';

/**
 * The default of a column that draws from a sequence, as SQL: its expression from the catalogue (`pg_get_expr`,
 * a `nextval(…)`), or an identity column's next value. Other defaults are not evaluated where the body gives the
 * value: their only visible effect would be the work.
 */
function defaultSql(plan: InsertPlan, column: Column, params: Params): string | undefined {
  if (column.defaultExpr !== null) return /\bnextval\(/.test(column.defaultExpr) ? column.defaultExpr : undefined;
  if (!column.identity) return undefined;
  const table = `${quoteIdent(plan.table.schema)}.${quoteIdent(plan.table.name)}`;
  return `nextval(pg_get_serial_sequence(${params.add(table)}, ${params.add(column.name)}))`;
}

const fromExcluded = (name: string): string => `${quoteIdent(name)} = EXCLUDED.${quoteIdent(name)}`;

/** The SET list of an upsert whose body holds only conflict-key columns: those, or one column left as it is. */
function keysOnlySets(plan: InsertPlan, names: string[], alias: string): string[] {
  const columnOf = (name: string) => plan.table.columns.find((column) => column.name === name);
  if (names.every((name) => columnOf(name)?.canUpdate === true)) return names.map(fromExcluded);
  const updatable = plan.table.columns.find((column) => column.canUpdate && !column.generated && !column.identity);
  return updatable ? [`${quoteIdent(updatable.name)} = ${alias}.${quoteIdent(updatable.name)}`] : [];
}

export function insertSql(plan: InsertPlan, params: Params): string {
  const table = qualified(plan.table.schema, plan.table.name);
  const alias = quoteIdent('pgrst_ins');
  const body = params.add(plan.payloadRaw);
  const names = plan.columns.map((c) => c.name);
  const tenantValue = plan.tenantInsert ? params.add(plan.tenantInsert.value) : undefined;
  const targetNames = [...names, ...(plan.tenantInsert ? [plan.tenantInsert.column] : [])];
  const target = targetNames.length > 0 ? ` (${targetNames.map(quoteIdent).join(', ')})` : '';
  let rows: string;
  if (plan.applyDefaults && names.length > 0) {
    // missing=default: one VALUES row per object, DEFAULT where the object lacks the key. Where it has the key, a
    // column's sequence default is still evaluated, and the object's value laid over it, as PostgREST does (its
    // defaults object `|| elem`): a sequence advances once per row either way, so ids match PostgREST's.
    const defaults = new Map<string, string>();
    for (const column of plan.columns) {
      const sql = defaultSql(plan, column, params);
      if (sql !== undefined) defaults.set(column.name, `jsonb_build_object(${params.add(column.name)}::text, ${sql})`);
    }
    const valueRows = plan.rowKeys.map((keys, index) => {
      // jsonb: `->` on json would re-parse the whole body for every cell.
      const record = plan.payloadKind === 'array' ? `(${body}::jsonb -> ${index})` : `${body}::jsonb`;
      const cells = names.map((name) => {
        if (!keys.includes(name)) return 'DEFAULT';
        const fallback = defaults.get(name);
        const object = fallback === undefined ? record : `(${fallback} || ${record})`;
        return `(jsonb_populate_record(NULL::${table}, ${object})).${quoteIdent(name)}`;
      });
      if (tenantValue) cells.push(tenantValue);
      return `(${cells.join(', ')})`;
    });
    rows = valueRows.length > 0 ? ` VALUES ${valueRows.join(', ')}` : ` SELECT ${targetNames.map(() => 'NULL').join(', ')} WHERE false`;
  } else {
    const json = `CASE WHEN json_typeof(${body}::json) = 'array' THEN ${body}::json ELSE json_build_array(${body}::json) END`;
    const r = quoteIdent('pgrst_r');
    const cells = [...names.map((name) => `${r}.${quoteIdent(name)}`), ...(tenantValue ? [tenantValue] : [])];
    rows = ` SELECT ${cells.join(', ')} FROM json_populate_recordset(NULL::${table}, ${json}) AS ${r}`;
  }
  let conflict = '';
  if (plan.onConflict) {
    const on = plan.onConflict.columns.map(quoteIdent).join(', ');
    const others = names.filter((name) => !plan.onConflict?.columns.includes(name));
    // A body of conflict-key columns only still answers its row, as PostgREST's `DO UPDATE SET` of the sent columns
    // does (DO NOTHING would return nothing for an existing row). Where the role may not update the key (a column
    // grant: Staykit's /v1 keys), the row is "updated" by setting a column it may update to its own value.
    const sets = others.length > 0 ? others.map(fromExcluded) : keysOnlySets(plan, names, alias);
    if (plan.onConflict.resolution === 'ignore-duplicates' || sets.length === 0) {
      conflict = ` ON CONFLICT (${on}) DO NOTHING`;
    } else {
      const guard = plan.tenant ? ` WHERE ${alias}.${quoteIdent(plan.tenant.column)} = ${params.add(plan.tenant.value)}` : '';
      conflict = ` ON CONFLICT (${on}) DO UPDATE SET ${sets.join(', ')}${guard}`;
    }
  }
  const extra = plan.onConflict?.resolution === 'merge-duplicates' ? [`(${alias}.xmax = 0) AS ${INSERTED_FLAG}`] : [];
  return `INSERT INTO ${table} AS ${alias}${target}${rows}${conflict}${returningSql('pgrst_ins', plan.returningColumns, extra)}`;
}

export function updateSql(plan: UpdatePlan, params: Params): string {
  const table = qualified(plan.table.schema, plan.table.name);
  const alias = quoteIdent(plan.alias);
  if (plan.columns.length === 0) {
    // Nothing to change: no rows affected, as PostgREST answers an empty PATCH body.
    const cols = plan.returningColumns.length === 0 ? '1 AS "pgrst_one"' : plan.returningColumns.map((c) => returnedSql(plan.alias, c)).join(', ');
    return `SELECT ${cols} FROM ${table} AS ${alias} WHERE false`;
  }
  const r = quoteIdent('pgrst_r');
  const sets = plan.columns.map((c) => `${quoteIdent(c.name)} = ${r}.${quoteIdent(c.name)}`).join(', ');
  const conditions = plan.where.map((c) => conditionSql(plan.alias, c, params));
  const from = ` FROM json_populate_record(NULL::${table}, ${params.add(plan.payloadRaw)}::json) AS ${r}`;
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  return `UPDATE ${table} AS ${alias} SET ${sets}${from}${where}${returningSql(plan.alias, plan.returningColumns)}`;
}

export function deleteSql(plan: DeletePlan, params: Params): string {
  const table = qualified(plan.table.schema, plan.table.name);
  const conditions = plan.where.map((c) => conditionSql(plan.alias, c, params));
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  return `DELETE FROM ${table} AS ${quoteIdent(plan.alias)}${where}${returningSql(plan.alias, plan.returningColumns)}`;
}
