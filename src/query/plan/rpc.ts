/**
 * RPC plans: pick the function (by name, then by argument names: every given name must be a parameter and every
 * parameter without default must be given), and shape its result like a read when it returns rows.
 */
import { functionNotFound } from '../../errors/catalogue.js';
import type { Routine, Table } from '../../schema/types.js';
import type { ParsedRequest } from '../parse/types.js';
import { closest } from './fuzzy.js';
import { attachQuery, buildNode, defaultOrder, type BuildContext } from './read.js';
import type { RpcArg, RpcPlan } from './types.js';

function argsOf(request: ParsedRequest): { names: string[]; values: Map<string, unknown>; fromJson: boolean } {
  if (request.action.type === 'rpc' && request.action.method === 'POST') {
    const values = new Map<string, unknown>();
    if (request.payload) {
      const parsed = JSON.parse(request.payload.raw) as Record<string, unknown>;
      for (const [key, value] of Object.entries(parsed)) values.set(key, value);
    }
    return { names: [...values.keys()], values, fromJson: true };
  }
  const values = new Map<string, unknown>();
  for (const [key, value] of request.query.rpcArgs) values.set(key, value);
  return { names: [...values.keys()], values, fromJson: false };
}

/** `Prefer: params=single-object` (PostgREST 12): a function of exactly one parameter, of type json or jsonb. */
function takesOneJson(routine: Routine): boolean {
  const [only, ...others] = routine.args;
  return only !== undefined && others.length === 0 && (only.type === 'json' || only.type === 'jsonb');
}

function fits(routine: Routine, names: string[]): boolean {
  const params = routine.args.map((arg) => arg.name);
  if (!names.every((name) => params.includes(name))) return false;
  return routine.args.every((arg) => arg.hasDefault || names.includes(arg.name));
}

function opaqueTable(ctx: BuildContext, routine: Routine): Table {
  return {
    schema: ctx.cache.schema,
    name: routine.name,
    kind: 'view',
    comment: null,
    columns: [],
    primaryKey: [],
    uniqueKeys: [],
    foreignKeys: [],
    privileges: { select: true, insert: false, update: false, delete: false },
  };
}

export function planRpc(ctx: BuildContext, request: ParsedRequest): RpcPlan {
  const { names, values, fromJson } = argsOf(request);
  const overloads = ctx.cache.routines.get(request.target) ?? [];
  const singleObject = request.preferences.params === 'single-object';
  const routine = overloads.find((candidate) => (singleObject ? takesOneJson(candidate) : fits(candidate, names)));
  if (!routine) {
    // PostgREST: a close function name (score ≥ 0.75), or the closest parameter list of the overloads (≥ 0.33).
    const listOf = (params: string[]): string => `(${[...params].sort().join(', ')})`;
    const suggestion =
      overloads.length === 0
        ? closest(request.target, ctx.cache.routines.keys(), 0.75)
        : (() => {
            const lists = overloads.map((routine) => listOf(routine.args.map((arg) => arg.name)));
            const best = closest(listOf(names), lists, 0.33) ?? null;
            return best === null ? null : `${request.target}${best}`;
          })();
    throw functionNotFound(ctx.cache.schema, request.target, [...names].sort(), suggestion, fromJson);
  }
  // With params=single-object, the whole argument object (body, or query parameters) is the one JSON argument.
  const args: RpcArg[] = singleObject
    ? routine.args.map((arg) => ({ name: arg.name, type: arg.type, value: Object.fromEntries(values), fromJson }))
    : routine.args
        .filter((arg) => values.has(arg.name))
        .map((arg) => ({ name: arg.name, type: arg.type, value: values.get(arg.name) ?? null, fromJson }));
  const table = routine.returnsTable ? ctx.cache.tables.get(routine.returnsTable) : undefined;
  const knownColumns = table !== undefined;
  const scalar = !routine.returnsComposite;
  const node = buildNode(
    ctx,
    table ?? opaqueTable(ctx, routine),
    { kind: 'function', routine, args },
    scalar ? [] : request.query.select,
    knownColumns,
  );
  if (!scalar) {
    attachQuery(node, request.query, { skipRoot: false });
    if (node.order.length === 0) node.order = defaultOrder(ctx, node);
  }
  const action = request.action;
  return {
    type: 'rpc',
    routine,
    args,
    scalar,
    node,
    count: request.preferences.count,
    media: request.accept,
    headersOnly: action.type === 'rpc' && action.method === 'HEAD',
  };
}
