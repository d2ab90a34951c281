/** The `select` parameter: columns, aliases, casts, JSON paths, embeds (`alias:rel!hint!inner(...)`), spreads. */
import { Cursor, readFieldName } from './cursor.js';
import { ALLOWED_CASTS, allowedCast } from './casts.js';
import { readJsonPath } from './field.js';
import type { AggregateFunction, JoinType, SelectItem } from './types.js';

const CAST = /^[A-Za-z_][A-Za-z0-9_ ]*(\[\])?/;

const AGGREGATE = /^\.(avg|count|max|min|sum)\(\)/;

/** `::type` at the cursor, if any: the type in canonical spelling, refused unless a plain data type. */
function readCast(cursor: Cursor): string | undefined {
  if (!cursor.eat('::')) return undefined;
  const at = cursor.pos;
  const match = CAST.exec(cursor.input.slice(cursor.pos));
  if (!match) throw cursor.error('expecting letter or digit');
  const cast = allowedCast(match[0]);
  if (cast === undefined) {
    throw cursor.fail(`casts are limited to the types ${ALLOWED_CASTS.join(', ')} (and their arrays, type[]); got "${match[0].trim()}"`, at);
  }
  cursor.pos += match[0].length;
  return cast;
}

function readEmbedParams(cursor: Cursor): { hint: string | undefined; join: JoinType | undefined } {
  let hint: string | undefined;
  let join: JoinType | undefined;
  for (let i = 0; i < 2 && cursor.peek() === '!'; i += 1) {
    cursor.pos += 1;
    const start = cursor.pos;
    const value = readFieldName(cursor);
    if (value === 'inner' || value === 'left') join = value;
    else if (hint === undefined) hint = value;
    else throw cursor.error('expecting "inner" or "left"', start);
  }
  return { hint, join };
}

function readItem(cursor: Cursor, depth: number): SelectItem {
  cursor.skipSpaces();
  if (cursor.eat('*')) {
    cursor.skipSpaces();
    return { type: 'star' };
  }
  const spread = cursor.eat('...');
  const first = readFieldName(cursor);
  let alias: string | undefined;
  let name = first;
  if (!spread && cursor.peek() === ':' && cursor.peek(1) !== ':') {
    cursor.pos += 1;
    alias = first;
    name = readFieldName(cursor);
  }
  if (!spread && name === 'count' && cursor.startsWith('()')) {
    // `count()` counts rows; PostgREST reads it as the aggregate, never as an embed of a table named count.
    cursor.pos += 2;
    const cast = readCast(cursor);
    cursor.skipSpaces();
    return { type: 'aggregate', fn: 'count', field: undefined, inputCast: undefined, alias, cast };
  }
  if (cursor.peek() === '!' || cursor.peek() === '(' || spread) {
    const { hint, join } = readEmbedParams(cursor);
    if (cursor.peek() !== '(') throw cursor.error('expecting "("');
    cursor.pos += 1;
    cursor.skipSpaces();
    const select = cursor.peek() === ')' ? [] : readItems(cursor, depth + 1);
    cursor.skipSpaces();
    if (!cursor.eat(')')) throw cursor.error('expecting ")" or ","');
    cursor.skipSpaces();
    return { type: 'embed', name, alias, hint, join, spread, select };
  }
  const jsonPath = readJsonPath(cursor);
  const cast = readCast(cursor);
  const aggregate = AGGREGATE.exec(cursor.input.slice(cursor.pos));
  if (aggregate) {
    cursor.pos += aggregate[0].length;
    const fn = aggregate[1] as AggregateFunction;
    const outputCast = readCast(cursor);
    cursor.skipSpaces();
    return { type: 'aggregate', fn, field: { name, jsonPath }, inputCast: cast, alias, cast: outputCast };
  }
  cursor.skipSpaces();
  return { type: 'field', field: { name, jsonPath }, alias, cast };
}

function readItems(cursor: Cursor, depth: number): SelectItem[] {
  const items = [readItem(cursor, depth)];
  while (cursor.eat(',')) items.push(readItem(cursor, depth));
  return items;
}

export function parseSelect(value: string): SelectItem[] {
  const cursor = new Cursor(value, 'select parameter');
  if (value.trim() === '') return [{ type: 'star' }];
  const items = readItems(cursor, 0);
  if (!cursor.done) throw cursor.error('expecting ",", ")" or end of input');
  return items;
}

/** Embedding depth of a select tree (1 = root columns only). */
export function selectDepth(items: SelectItem[]): number {
  let max = 0;
  for (const item of items) if (item.type === 'embed') max = Math.max(max, selectDepth(item.select));
  return max + 1;
}
