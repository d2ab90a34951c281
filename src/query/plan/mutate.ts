/**
 * Insert, update and delete plans: which columns the body may write (unknown → PGRST204; generated, server-owned,
 * the tenant column or not granted → ignored, or 400 under `Prefer: handling=strict`), the mutation's filters, and
 * the read tree over the mutated rows (`pgrst_source`) that shapes the representation.
 */
import { columnNotFound, columnNotWritable, filterRequired, notSupported, tooManyRows } from '../../errors/catalogue.js';
import type { Column, Table } from '../../schema/types.js';
import type { ParsedRequest, Payload } from '../parse/types.js';
import { attachQuery, buildNode, logicToCondition, toCondition, type BuildContext } from './read.js';
import type { Condition, DeletePlan, InsertPlan, ReadNode, ReturnedColumn, UpdatePlan } from './types.js';

function writableColumns(
  ctx: BuildContext,
  table: Table,
  keys: string[],
  method: 'insert' | 'update',
  strict: boolean,
): Column[] {
  const result: Column[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    const column = table.columns.find((c) => c.name === key);
    if (!column) throw columnNotFound(table.name, key);
    const allowed = method === 'insert' ? column.canInsert : column.canUpdate;
    const isTenant = ctx.options.tenant?.column === key;
    if (!allowed || column.generated || isTenant) {
      if (strict) throw columnNotWritable(table.name, key, method);
      continue;
    }
    result.push(column);
  }
  return result;
}

/**
 * Columns the mutation must RETURN for the representation: selected columns and computed fields (PostgREST puts
 * both in `RETURNING`), and embed join columns.
 */
export function neededColumns(node: ReadNode): ReturnedColumn[] {
  const needed = new Map<string, ReturnedColumn>();
  const add = (name: string): void => {
    if (name !== '*' && !needed.has(name)) {
      const isColumn = node.table.columns.some((column) => column.name === name);
      needed.set(name, { name, computed: isColumn ? undefined : node.computedFields?.get(name) });
    }
  };
  for (const item of node.items) {
    if (item.kind === 'field') add(item.expr.column);
    else if (item.kind === 'aggregate') {
      if (item.expr) add(item.expr.column);
    } else item.relationship.columns.forEach(add);
  }
  return [...needed.values()];
}

function rootConditions(ctx: BuildContext, request: ParsedRequest, target: ReadNode): Condition[] {
  const conditions: Condition[] = [...target.where];
  let userFilters = 0;
  for (const { path, filter } of request.query.filters) {
    if (path.length > 0) continue;
    conditions.push(toCondition(target, filter));
    userFilters += 1;
  }
  for (const { path, tree } of request.query.logic) {
    if (path.length > 0) continue;
    conditions.push(logicToCondition(target, tree));
    userFilters += 1;
  }
  if (ctx.options.requireFilterForWrites && userFilters === 0) throw filterRequired();
  const rootRange = request.query.ranges.get('');
  if (rootRange && (rootRange.limit !== undefined || rootRange.offset !== 0)) {
    throw notSupported('limit/offset on PATCH and DELETE');
  }
  return conditions;
}

function returningNode(ctx: BuildContext, table: Table, request: ParsedRequest): ReadNode {
  const node = buildNode(ctx, table, { kind: 'mutation' }, request.query.select);
  attachQuery(node, request.query, { skipRoot: true });
  return node;
}

export function planInsert(ctx: BuildContext, table: Table, request: ParsedRequest): InsertPlan {
  const payload = request.payload as Payload;
  const prefs = request.preferences;
  const strict = prefs.handling === 'strict';
  const max = ctx.options.maxInsertRows;
  if (max !== undefined && payload.rowCount > max) throw tooManyRows(max, payload.rowCount);
  const keys = request.query.columns ?? payload.keys;
  const columns = writableColumns(ctx, table, keys, 'insert', strict);
  const tenant = ctx.options.tenant;
  const tenantColumn = tenant ? table.columns.find((c) => c.name === tenant.column) : undefined;
  const tenantInsert = tenant && tenantColumn?.canInsert ? tenant : undefined;
  let onConflict: InsertPlan['onConflict'];
  if (prefs.resolution) {
    const requested = request.query.onConflict ?? table.primaryKey;
    for (const column of requested) {
      if (!table.columns.some((c) => c.name === column)) throw columnNotFound(table.name, column);
    }
    // Every unique key of a tenant table includes the tenant column: a conflict is only ever within the tenant.
    const withTenant = tenantColumn && !requested.includes(tenantColumn.name) ? [...requested, tenantColumn.name] : requested;
    if (requested.length > 0) onConflict = { columns: withTenant, resolution: prefs.resolution };
  }
  const returning = returningNode(ctx, table, request);
  const headersOnly = prefs.return === 'headers-only';
  const returningColumns =
    prefs.return === 'representation' ? neededColumns(returning) : headersOnly ? table.primaryKey.map((name) => ({ name })) : [];
  return {
    type: 'insert',
    table,
    columns,
    payloadRaw: payload.raw,
    payloadKind: payload.kind,
    rowCount: payload.rowCount,
    rowKeys: payload.rowKeys,
    applyDefaults: prefs.missing === 'default',
    tenantInsert,
    onConflict,
    tenant: tenantColumn ? tenant : undefined,
    returning,
    returningColumns,
    count: prefs.count,
    media: request.accept,
    preferences: prefs,
  };
}

export function planUpdate(ctx: BuildContext, table: Table, request: ParsedRequest): UpdatePlan {
  const payload = request.payload as Payload;
  const prefs = request.preferences;
  const keys = request.query.columns ?? payload.keys;
  const columns = writableColumns(ctx, table, keys, 'update', prefs.handling === 'strict');
  const target = buildNode(ctx, table, { kind: 'table' }, []);
  const where = rootConditions(ctx, request, target);
  const returning = returningNode(ctx, table, request);
  return {
    type: 'update',
    table,
    columns,
    payloadRaw: payload.raw,
    where,
    alias: target.alias,
    returning,
    returningColumns: prefs.return === 'representation' ? neededColumns(returning) : [],
    count: prefs.count,
    media: request.accept,
    preferences: prefs,
  };
}

export function planDelete(ctx: BuildContext, table: Table, request: ParsedRequest): DeletePlan {
  const prefs = request.preferences;
  const target = buildNode(ctx, table, { kind: 'table' }, []);
  const where = rootConditions(ctx, request, target);
  const returning = returningNode(ctx, table, request);
  return {
    type: 'delete',
    table,
    where,
    alias: target.alias,
    returning,
    returningColumns: prefs.return === 'representation' ? neededColumns(returning) : [],
    count: prefs.count,
    media: request.accept,
    preferences: prefs,
  };
}
