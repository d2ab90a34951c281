/**
 * Filter values (`[not.]op[(any|all)].value`, `in.(a,"b,c")`, `is.null`, `fts(english).value`) and the
 * `or=(…)`/`and=(…)` logic trees, with PostgREST's quoting: double quotes with backslash escapes inside lists and
 * logic trees, `{…}` array literals kept whole inside logic trees.
 */
import { Cursor, readQuoted } from './cursor.js';
import { readField } from './field.js';
import type { Filter, FtsOperator, LogicTree, Operation, SimpleOperator } from './types.js';

const SIMPLE: readonly SimpleOperator[] = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'isdistinct',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
];
const FTS: readonly FtsOperator[] = ['fts', 'plfts', 'phfts', 'wfts'];
/** Operators that take the `(any)`/`(all)` modifier (PostgREST v12). */
const QUANTIFIABLE: readonly SimpleOperator[] = ['eq', 'like', 'ilike', 'gt', 'gte', 'lt', 'lte', 'match', 'imatch'];

export function isSimpleOperator(value: string): value is SimpleOperator {
  return (SIMPLE as readonly string[]).includes(value);
}

function isFts(value: string): value is FtsOperator {
  return (FTS as readonly string[]).includes(value);
}

/** Whether a query value looks like a filter (PostgREST's test to tell filters from RPC arguments). */
export function hasOperator(value: string): boolean {
  const parts = value.split('.');
  const first = parts[0] ?? '';
  if (first === 'not' && parts.length > 2) return true;
  if (first === 'is' || first === 'in') return parts.length > 1;
  const bare = first.replace(/\((any|all)\)$/, '').replace(/\([^)]*\)$/, '');
  return parts.length > 1 && (isSimpleOperator(bare) || isFts(bare));
}

type ValueReader = (cursor: Cursor) => string;

/** A single value at the end of a top-level filter: everything left. */
const readRest: ValueReader = (cursor) => cursor.rest();

/** A single value inside a logic tree: quoted, `{…}`, or up to `,` / `)`. */
const readLogicValue: ValueReader = (cursor) => {
  if (cursor.peek() === '"') {
    const save = cursor.pos;
    const value = readQuoted(cursor);
    if (cursor.done || cursor.peek() === ',' || cursor.peek() === ')') return value;
    cursor.pos = save;
  }
  if (cursor.peek() === '{') {
    const end = cursor.input.indexOf('}', cursor.pos);
    const inner = end < 0 ? -1 : cursor.input.slice(cursor.pos + 1, end).search(/[{]/);
    if (end >= 0 && inner < 0) {
      const value = cursor.input.slice(cursor.pos, end + 1);
      cursor.pos = end + 1;
      return value;
    }
  }
  let value = '';
  while (!cursor.done && cursor.peek() !== ',' && cursor.peek() !== ')') {
    value += cursor.peek();
    cursor.pos += 1;
  }
  return value;
};

function readListElement(cursor: Cursor): string {
  if (cursor.peek() === '"') {
    const save = cursor.pos;
    const value = readQuoted(cursor);
    if (cursor.peek() === ',' || cursor.peek() === ')') return value;
    cursor.pos = save;
  }
  let value = '';
  while (!cursor.done && cursor.peek() !== ',' && cursor.peek() !== ')') {
    value += cursor.peek();
    cursor.pos += 1;
  }
  return value;
}

function readList(cursor: Cursor): string[] {
  cursor.skipSpaces();
  if (!cursor.eat('(')) throw cursor.error('expecting "("');
  cursor.skipSpaces();
  const values = [readListElement(cursor)];
  while (cursor.eat(',')) values.push(readListElement(cursor));
  cursor.skipSpaces();
  if (!cursor.eat(')')) throw cursor.error('expecting ")" or ","');
  cursor.skipSpaces();
  return values;
}

function readOperation(cursor: Cursor, readValue: ValueReader): Operation {
  const start = cursor.pos;
  if (cursor.eat('in.')) return { kind: 'in', values: readList(cursor) };
  if (cursor.eat('is.')) {
    const at = cursor.pos;
    const word = /^(null|unknown|true|false)/i.exec(cursor.input.slice(cursor.pos));
    if (!word) throw cursor.error('expecting null or trilean value (unknown, true, false)', at);
    cursor.pos += word[0].length;
    return { kind: 'is', value: word[0].toLowerCase() as 'null' | 'true' | 'false' | 'unknown' };
  }
  let name = '';
  while (!cursor.done && cursor.peek() !== '.' && cursor.peek() !== '(') {
    name += cursor.peek();
    cursor.pos += 1;
  }
  if (isFts(name)) {
    let language: string | undefined;
    if (cursor.eat('(')) {
      const close = cursor.input.indexOf(')', cursor.pos);
      if (close < 0) throw cursor.error('expecting ")"');
      language = cursor.input.slice(cursor.pos, close).trim();
      if (!/^[\p{L}\p{N}_ $]+$/u.test(language)) throw cursor.error('expecting letter or digit');
      cursor.pos = close + 1;
    }
    if (!cursor.eat('.')) throw cursor.error('expecting delimiter (.)');
    return { kind: 'fts', operator: name, language, value: readValue(cursor) };
  }
  let quantifier: 'any' | 'all' | undefined;
  if (cursor.eat('(any)')) quantifier = 'any';
  else if (cursor.eat('(all)')) quantifier = 'all';
  if (!isSimpleOperator(name) || (quantifier !== undefined && !QUANTIFIABLE.includes(name))) {
    const shown = quantifier === undefined ? name : `${name}(${quantifier})`;
    if (cursor.done && quantifier === undefined) throw cursor.error('expecting delimiter (.)');
    throw cursor.fail(`unknown single value operator ${shown}`, start + shown.length + 1);
  }
  if (!cursor.eat('.')) throw cursor.error('expecting delimiter (.)');
  return { kind: 'simple', operator: name, value: readValue(cursor), quantifier };
}

function readOpExpr(cursor: Cursor, readValue: ValueReader): { negated: boolean; operation: Operation } {
  const negated = cursor.eat('not.');
  return { negated, operation: readOperation(cursor, readValue) };
}

/** A top-level filter value, e.g. `not.in.(1,2)`. */
export function parseFilterValue(value: string): { negated: boolean; operation: Operation } {
  const cursor = new Cursor(value, 'filter');
  const result = readOpExpr(cursor, readRest);
  if (!cursor.done) throw cursor.error('expecting end of input');
  return result;
}

function readLogicTree(cursor: Cursor, depth: number, maxDepth: number): LogicTree {
  cursor.skipSpaces();
  const start = cursor.pos;
  const negated = cursor.eat('not.');
  const operator = cursor.eat('and(') ? 'and' : cursor.eat('or(') ? 'or' : undefined;
  if (operator) {
    if (depth >= maxDepth) throw cursor.fail(`logic trees may be nested at most ${maxDepth} levels deep`, start);
    cursor.skipSpaces();
    const children = [readLogicTree(cursor, depth + 1, maxDepth)];
    cursor.skipSpaces();
    while (cursor.eat(',')) {
      children.push(readLogicTree(cursor, depth + 1, maxDepth));
      cursor.skipSpaces();
    }
    if (!cursor.eat(')')) throw cursor.error('expecting ")" or ","');
    cursor.skipSpaces();
    return { type: 'expr', negated, operator, children };
  }
  cursor.pos = start;
  if (cursor.peek() === ')' || cursor.done) {
    throw cursor.error('expecting field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)');
  }
  const field = readField(cursor);
  if (!cursor.eat('.')) throw cursor.error('expecting delimiter (.)');
  const { negated: filterNegated, operation } = readOpExpr(cursor, readLogicValue);
  const filter: Filter = { field, negated: filterNegated, operation };
  return { type: 'filter', filter };
}

/** `or=(…)` → key operator `or` (with `not.` when the key had it) and the value `(…)`. */
export function parseLogicTree(operator: 'and' | 'or', negated: boolean, value: string, maxDepth = 10): LogicTree {
  const text = `${operator}${value}`;
  const cursor = new Cursor(text, 'logic tree', value);
  const tree = readLogicTree(cursor, 0, maxDepth);
  if (!cursor.done) throw cursor.error('expecting end of input');
  if (tree.type !== 'expr') throw cursor.error('expecting "("', operator.length);
  return { ...tree, negated };
}
