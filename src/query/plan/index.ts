/**
 * Plan stage entry point (pure): ParsedRequest × SchemaCache × options → Plan. Checks the table exists (PGRST205),
 * that the role's privileges offer the method (405 with `Allow` otherwise), and computes the top-level range.
 */
import { functionNotFound, invalidRange, mediaTypeNotAcceptable, methodNotAllowed } from '../../errors/catalogue.js';
import type { SchemaCache, Table } from '../../schema/types.js';
import type { HeaderRange, ParsedRequest, QueryParams } from '../parse/types.js';
import { planDelete, planInsert, planUpdate } from './mutate.js';
import { AliasCounter, attachQuery, buildNode, defaultOrder, lookupTable, type BuildContext } from './read.js';
import { planRpc } from './rpc.js';
import type { EngineOptions, Plan } from './types.js';

export function canSelect(table: Table): boolean {
  return table.privileges.select || table.columns.some((column) => column.canSelect);
}

/** The `Allow` header for a table, from the role's privileges (OPTIONS always). */
export function allowedMethods(table: Table): string {
  const methods = ['OPTIONS'];
  if (canSelect(table)) methods.push('GET', 'HEAD');
  if (table.privileges.insert) methods.push('POST');
  if (table.privileges.update) methods.push('PATCH');
  if (table.privileges.delete) methods.push('DELETE');
  return methods.join(',');
}

const METHOD_OF = { read: 'GET', insert: 'POST', update: 'PATCH', delete: 'DELETE' } as const;

function permitted(table: Table, action: keyof typeof METHOD_OF): boolean {
  switch (action) {
    case 'read':
      return canSelect(table);
    case 'insert':
      return table.privileges.insert;
    case 'update':
      return table.privileges.update;
    case 'delete':
      return table.privileges.delete;
  }
}

/** Intersection of `limit`/`offset` and the `Range` header, capped at `maxRows` (none: null); no limit: undefined. */
export function topLevelRange(
  query: QueryParams,
  header: HeaderRange | undefined,
  maxRows: number | null,
): { offset: number; limit: number | undefined } {
  const fromQuery = query.ranges.get('') ?? { offset: 0, limit: undefined };
  if ((fromQuery.limit !== undefined && fromQuery.limit < 0) || fromQuery.offset < 0) {
    throw invalidRange({ kind: 'negative-limit' });
  }
  const upperOf = (r: { offset: number; limit: number | undefined }): number =>
    r.limit === undefined ? Number.POSITIVE_INFINITY : r.offset + r.limit - 1;
  const offset = Math.max(fromQuery.offset, header?.offset ?? 0);
  const upper = Math.min(upperOf(fromQuery), header ? upperOf(header) : Number.POSITIVE_INFINITY);
  const cap = maxRows ?? Number.POSITIVE_INFINITY;
  const limit = Math.min(upper === Number.POSITIVE_INFINITY ? cap : Math.max(0, upper - offset + 1), cap);
  return { offset, limit: limit === Number.POSITIVE_INFINITY ? undefined : limit };
}

export function planRequest(request: ParsedRequest, cache: SchemaCache, options: EngineOptions): Plan {
  // Plans are a media type only where enabled (PostgREST's db-plan-enabled): elsewhere nothing in Accept fits.
  if (request.explain && options.plans !== true) throw mediaTypeNotAcceptable(request.explain.raw);
  const ctx: BuildContext = { cache, options, aliases: new AliasCounter() };
  const action = request.action;
  if (action.type === 'rpc') {
    const plan = planRpc(ctx, request);
    const range = topLevelRange(request.query, request.range, options.maxRows);
    plan.node.offset = range.offset;
    plan.node.limit = range.limit;
    return plan;
  }
  if (action.type === 'options') {
    if (request.target === '') return { type: 'options', allow: 'OPTIONS,GET,HEAD' };
    if (request.isRpc) {
      const routines = cache.routines.get(request.target);
      if (!routines || routines.length === 0) throw functionNotFound(cache.schema, request.target, [], null);
      // PostgREST: volatile functions only accept POST.
      const volatile = routines.every((routine) => routine.volatility === 'volatile');
      return { type: 'options', allow: volatile ? 'OPTIONS,POST' : 'OPTIONS,GET,HEAD,POST' };
    }
    return { type: 'options', allow: allowedMethods(lookupTable(ctx, request.target)) };
  }
  const table = lookupTable(ctx, request.target);
  if (!permitted(table, action.type)) {
    throw methodNotAllowed(METHOD_OF[action.type], table.name, allowedMethods(table));
  }
  switch (action.type) {
    case 'read': {
      const node = buildNode(ctx, table, { kind: 'table' }, request.query.select);
      attachQuery(node, request.query, { skipRoot: false });
      if (node.order.length === 0) node.order = defaultOrder(ctx, node);
      const range = topLevelRange(request.query, request.range, options.maxRows);
      node.offset = range.offset;
      node.limit = range.limit;
      return { type: 'read', node, count: request.preferences.count, media: request.accept, headersOnly: action.headersOnly };
    }
    case 'insert':
      return planInsert(ctx, table, request);
    case 'update':
      return planUpdate(ctx, table, request);
    case 'delete':
      return planDelete(ctx, table, request);
  }
}

