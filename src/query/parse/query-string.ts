/**
 * The raw query string → typed QueryParams. Keys keep their order and may repeat. Reserved keys: select, columns,
 * on_conflict; `order`, `limit`, `offset`, `and`, `or` at the root or after an embed path (`clients.order`). On a
 * table every other key is a filter and must parse; on an RPC a key whose value has no operator is an argument.
 */
import { queryParamError } from '../../errors/catalogue.js';
import { hasOperator, parseFilterValue, parseLogicTree } from './filter.js';
import { parseTreePath } from './field.js';
import { parseColumnList, parseOrder } from './order.js';
import { parseSelect, selectDepth } from './select.js';
import type { QueryParams, RangeSpec } from './types.js';

export interface QueryStringOptions {
  isRpc: boolean;
  maxEmbedDepth?: number;
  maxLogicDepth?: number;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw queryParamError('Invalid percent-encoding in the query string', part);
  }
}

export function splitQueryString(raw: string): [string, string | undefined][] {
  if (raw === '') return [];
  return raw
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq < 0 ? [decode(part), undefined] : [decode(part.slice(0, eq)), decode(part.slice(eq + 1))];
    });
}

function canonicalize(pairs: [string, string | undefined][]): string {
  const encode = (s: string): string => encodeURIComponent(s).replace(/%20/g, '+');
  return [...pairs]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([k, v]) => `${encode(k)}=${encode(v ?? '')}`)
    .join('&');
}

const RESERVED = new Set(['select', 'columns', 'on_conflict']);
const RESERVED_AFTER_PATH = new Set(['order', 'limit', 'offset', 'and', 'or']);

function isReserved(key: string): boolean {
  return RESERVED.has(key) || RESERVED_AFTER_PATH.has(lastSegment(key).last);
}

function lastSegment(key: string): { path: string[]; last: string } {
  const parts = key.split('.');
  const last = parts.pop() as string;
  return { path: parts, last };
}

function parseInteger(value: string, key: string): number {
  const number = Number(value.trim());
  if (!/^-?[0-9]+$/.test(value.trim()) || !Number.isSafeInteger(number)) {
    throw queryParamError(`"failed to parse ${key} parameter (${value})" (line 1, column 1)`, 'expecting digit');
  }
  return number;
}

export function parseQueryString(raw: string, options: QueryStringOptions): QueryParams {
  const pairs = splitQueryString(raw);
  const result: QueryParams = {
    select: [{ type: 'star' }],
    filters: [],
    logic: [],
    order: [],
    ranges: new Map(),
    columns: undefined,
    onConflict: undefined,
    rpcArgs: [],
    canonical: canonicalize(pairs),
  };
  const range = (pathKey: string): RangeSpec => {
    const existing = result.ranges.get(pathKey) ?? { offset: 0, limit: undefined };
    result.ranges.set(pathKey, existing);
    return existing;
  };
  for (const [key, value] of pairs) {
    if (value === undefined) {
      // As PostgREST, a parameter without "=" is ignored — except where it can only be a filter on a table: there
      // it is a typo (`?first_name`), and answering with every row would hide it.
      if (options.isRpc || isReserved(key)) continue;
      throw queryParamError(
        `"failed to parse filter (${key})"`,
        `the parameter "${key}" has no value: a filter is written column=operator.value, e.g. ${key}=eq.x`,
      );
    }
    if (key === 'select') {
      result.select = parseSelect(value);
      const depth = selectDepth(result.select) - 1;
      if (options.maxEmbedDepth !== undefined && depth > options.maxEmbedDepth) {
        throw queryParamError(
          `"failed to parse select parameter (${value})"`,
          `embedding may be nested at most ${options.maxEmbedDepth} levels deep`,
        );
      }
      continue;
    }
    if (key === 'columns') {
      result.columns = parseColumnList(value, 'columns parameter');
      continue;
    }
    if (key === 'on_conflict') {
      result.onConflict = parseColumnList(value, 'on_conflict parameter');
      continue;
    }
    const { path, last } = lastSegment(key);
    if (last === 'order') {
      result.order.push({ path, terms: parseOrder(value) });
      continue;
    }
    if (last === 'limit') {
      range(path.join('.')).limit = parseInteger(value, 'limit');
      continue;
    }
    if (last === 'offset') {
      range(path.join('.')).offset = parseInteger(value, 'offset');
      continue;
    }
    if (last === 'or' || last === 'and') {
      const negated = path[path.length - 1] === 'not';
      const embedPath = negated ? path.slice(0, -1) : path;
      result.logic.push({ path: embedPath, tree: parseLogicTree(last, negated, value, options.maxLogicDepth ?? 10) });
      continue;
    }
    if (options.isRpc && !key.includes('.') && !hasOperator(value)) {
      result.rpcArgs.push([key, value]);
      continue;
    }
    const { path: embedPath, field } = parseTreePath(key);
    const { negated, operation } = parseFilterValue(value);
    result.filters.push({ path: embedPath, filter: { field, negated, operation } });
  }
  return result;
}
