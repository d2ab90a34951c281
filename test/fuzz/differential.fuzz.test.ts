/**
 * Differential fuzzing of filters: random rows of a table with int/text/date/bool columns (nulls included) and
 * random filter combinations (eq neq gt gte lt lte in is like ilike, `not.`, `or=(…)`/`and=(…)` trees, nested);
 * the engine's answer must equal a reference evaluation in TypeScript with SQL's three-valued logic.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { forEachBackend } from '../support/databases.js';
import { runRequest } from '../../src/query/run.js';
import type { EngineOptions } from '../../src/query/plan/types.js';
import { loadSchemaCache } from '../../src/schema/load.js';
import { type SchemaCache } from '../../src/schema/types.js';
import { fuzzParameters } from './arbitraries.js';

interface Item {
  id: number;
  n: number | null;
  t: string | null;
  d: string | null;
  b: boolean | null;
}
type Column = 'n' | 't' | 'd' | 'b';
type Op = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'is' | 'like' | 'ilike' | 'isdistinct';
interface Leaf {
  kind: 'leaf';
  column: Column;
  op: Op;
  not: boolean;
  /** One value, or the list of `in` / `(any)` / `(all)`. */
  values: string[];
  /** `op(any).{…}` / `op(all).{…}`. */
  quantifier?: 'any' | 'all' | undefined;
  /** Quote list elements and logic-tree values even when they need no quotes. */
  quoteAlways?: boolean;
}
interface Tree {
  kind: 'tree';
  op: 'and' | 'or';
  not: boolean;
  children: Cond[];
}
type Cond = Leaf | Tree;

const SCHEMA_SQL = `
CREATE SCHEMA fuzzdiff;
CREATE TABLE fuzzdiff.items (id int PRIMARY KEY, n int, t text COLLATE "C", d date, b boolean);
`;

const OPTIONS: EngineOptions = { maxRows: 1000, requireFilterForWrites: false, basePath: '', maxEmbedDepth: 8, maxLogicDepth: 10 };

// Text values: letters of both cases, a non-ASCII letter, and the characters the quoting must survive.
const TEXT_CHARS = ['a', 'b', 'A', 'B', 'é', ',', '(', ')', '"', '.', ':', ' '];
const text = fc.array(fc.constantFrom(...TEXT_CHARS), { maxLength: 3 }).map((chars) => chars.join(''));
const pattern = fc.array(fc.constantFrom('a', 'b', 'A', 'é', ',', '*', '*', '_'), { maxLength: 4 }).map((chars) => chars.join(''));
const DATES = ['2024-01-01', '2024-01-02', '2024-01-03', '2024-02-29', '2024-12-31'];

const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });

const rows: fc.Arbitrary<Item[]> = fc
  .array(
    fc.record({
      n: nullable(fc.integer({ min: -3, max: 3 })),
      t: nullable(text),
      d: nullable(fc.constantFrom(...DATES)),
      b: nullable(fc.boolean()),
    }),
    { maxLength: 20 },
  )
  .map((items) => items.map((item, i) => ({ id: i + 1, ...item })));

const COMPARISONS: Op[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'isdistinct'];
const QUANTIFIABLE = new Set<Op>(['eq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike']);

const leaf: fc.Arbitrary<Leaf> = fc.oneof(
  fc.record({
    kind: fc.constant('leaf' as const),
    column: fc.constant('n' as const),
    op: fc.constantFrom<Op>(...COMPARISONS, 'in', 'is'),
    not: fc.boolean(),
    values: fc.array(fc.integer({ min: -3, max: 3 }).map(String), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant('leaf' as const),
    column: fc.constant('t' as const),
    op: fc.constantFrom<Op>(...COMPARISONS, 'in', 'is', 'like', 'ilike'),
    not: fc.boolean(),
    values: fc.array(text, { minLength: 1, maxLength: 3 }),
  }).chain((l) => (l.op === 'like' || l.op === 'ilike' ? pattern.map((p) => ({ ...l, values: [p] })) : fc.constant(l))),
  fc.record({
    kind: fc.constant('leaf' as const),
    column: fc.constant('d' as const),
    op: fc.constantFrom<Op>(...COMPARISONS, 'in', 'is'),
    not: fc.boolean(),
    values: fc.array(fc.constantFrom(...DATES), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant('leaf' as const),
    column: fc.constant('b' as const),
    op: fc.constantFrom<Op>('eq', 'neq', 'is', 'is'),
    not: fc.boolean(),
    values: fc.constantFrom('true', 'false', 'null', 'unknown').map((v) => [v]),
  }),
).map((l): Leaf => {
  if (l.column === 'b') return l.op === 'is' || l.values[0] === 'true' || l.values[0] === 'false' ? l : { ...l, values: ['true'] };
  return l.op === 'is' ? { ...l, values: ['null'] } : l;
}).chain((l) =>
  fc.record({ quantifier: fc.constantFrom(undefined, undefined, 'any' as const, 'all' as const), quoteAlways: fc.boolean() }).map(({ quantifier, quoteAlways }) => ({
    ...l,
    quoteAlways,
    quantifier: QUANTIFIABLE.has(l.op) && l.column !== 'b' ? quantifier : undefined,
  })),
);

const { cond: condition } = fc.letrec<{ cond: Cond; tree: Tree }>((tie) => ({
  cond: fc.oneof({ depthSize: 'small', maxDepth: 3 }, leaf, tie('tree')),
  tree: fc.record({
    kind: fc.constant('tree' as const),
    op: fc.constantFrom('and' as const, 'or' as const),
    not: fc.boolean(),
    children: fc.array(tie('cond'), { minLength: 1, maxLength: 3 }),
  }),
}));

const topTree: fc.Arbitrary<Tree> = fc.record({
  kind: fc.constant('tree' as const),
  op: fc.constantFrom('and' as const, 'or' as const),
  not: fc.boolean(),
  children: fc.array(condition, { minLength: 1, maxLength: 3 }),
});

const query = fc.record({
  leaves: fc.array(leaf, { maxLength: 3 }),
  trees: fc.array(topTree, { maxLength: 2 }),
});

// ---- rendering as PostgREST query parameters ----

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Quotes when needed (or always when asked): reserved characters, or spaces at either end. */
function maybeQuote(value: string, always: boolean | undefined): string {
  return always || value === '' || /[,()"\\{}]/.test(value) || value.trim() !== value ? quote(value) : value;
}

function operation(l: Leaf, inTree: boolean): string {
  const not = l.not ? 'not.' : '';
  if (l.op === 'in') return `${not}in.(${l.values.map((v) => maybeQuote(v, l.quoteAlways)).join(',')})`;
  if (l.op === 'is') return `${not}is.${l.values[0]}`;
  if (l.quantifier) return `${not}${l.op}(${l.quantifier}).{${l.values.map(quote).join(',')}}`;
  const value = l.values[0]!;
  return `${not}${l.op}.${inTree ? maybeQuote(value, l.quoteAlways) : value}`;
}

function renderCond(c: Cond): string {
  if (c.kind === 'leaf') return `${c.column}.${operation(c, true)}`;
  return `${c.not ? 'not.' : ''}${c.op}(${c.children.map(renderCond).join(',')})`;
}

function queryString(q: { leaves: Leaf[]; trees: Tree[] }): string {
  const parts = ['select=id'];
  for (const l of q.leaves) parts.push(`${l.column}=${encodeURIComponent(operation(l, false))}`);
  for (const t of q.trees) parts.push(`${t.not ? 'not.' : ''}${t.op}=${encodeURIComponent(`(${t.children.map(renderCond).join(',')})`)}`);
  return parts.join('&');
}

// ---- reference evaluation: SQL three-valued logic ----

type Tri = boolean | null;
const not3 = (v: Tri): Tri => (v === null ? null : !v);
const and3 = (vs: Tri[]): Tri => (vs.includes(false) ? false : vs.includes(null) ? null : true);
const or3 = (vs: Tri[]): Tri => (vs.includes(true) ? true : vs.includes(null) ? null : false);

function compare(column: Column, a: unknown, b: string): number {
  if (column === 'n') return Math.sign((a as number) - Number(b));
  if (column === 'b') return Number(a) - Number(b === 'true');
  const x = a as string;
  return x < b ? -1 : x > b ? 1 : 0;
}

function likeRegex(p: string, insensitive: boolean): RegExp {
  const source = [...p].map((ch) => (ch === '*' || ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, insensitive ? 'su' + 'i' : 'su');
}

function evalLeaf(l: Leaf, row: Item): Tri {
  const v = row[l.column];
  let result: Tri;
  if (l.op === 'is') {
    const what = l.values[0];
    result = what === 'null' || what === 'unknown' ? v === null : v === (what === 'true');
  } else if (l.op === 'isdistinct') {
    result = v === null || compare(l.column, v, l.values[0]!) !== 0;
  } else if (v === null) {
    result = null;
  } else if (l.quantifier) {
    const each = l.values.map((value) => evalLeaf({ ...l, quantifier: undefined, not: false, values: [value] }, row));
    result = l.quantifier === 'any' ? or3(each) : and3(each);
  } else if (l.op === 'in') {
    result = l.values.some((value) => compare(l.column, v, value) === 0);
  } else if (l.op === 'like' || l.op === 'ilike') {
    result = likeRegex(l.values[0]!, l.op === 'ilike').test(v as string);
  } else {
    const c = compare(l.column, v, l.values[0]!);
    result = { eq: c === 0, neq: c !== 0, gt: c > 0, gte: c >= 0, lt: c < 0, lte: c <= 0 }[l.op as 'eq'];
  }
  return l.not ? not3(result) : result;
}

function evalCond(c: Cond, row: Item): Tri {
  if (c.kind === 'leaf') return evalLeaf(c, row);
  const values = c.children.map((child) => evalCond(child, row));
  const result = c.op === 'and' ? and3(values) : or3(values);
  return c.not ? not3(result) : result;
}

function expected(items: Item[], q: { leaves: Leaf[]; trees: Tree[] }): number[] {
  return items
    .filter((row) => and3([...q.leaves.map((l) => evalLeaf(l, row)), ...q.trees.map((t) => evalCond(t, row))]) === true)
    .map((row) => row.id);
}

class Rollback extends Error {}

forEachBackend('differential: filters against a TypeScript reference', (ctx) => {
  let cache: SchemaCache;
  before(async () => {
    await ctx.db.exec(SCHEMA_SQL);
    cache = await loadSchemaCache(ctx.db, { schema: 'fuzzdiff' });
  });

  test('the API returns exactly the rows the reference selects', async () => {
    await fc.assert(
      fc.asyncProperty(rows, query, async (items, q) => {
        const qs = queryString(q);
        let ids: number[] | undefined;
        let failure: string | undefined;
        try {
          await ctx.db.transaction(async (tx) => {
            await tx.query('INSERT INTO fuzzdiff.items SELECT * FROM json_populate_recordset(NULL::fuzzdiff.items, $1::json)', [JSON.stringify(items)]);
            const response = await runRequest(tx, { method: 'GET', path: 'items', query: qs, headers: {}, body: undefined }, cache, OPTIONS);
            if (response.status !== 200) failure = `${response.status} ${String(response.body)}`;
            else ids = (JSON.parse(String(response.body ?? '[]')) as { id: number }[]).map((row) => row.id);
            throw new Rollback();
          });
        } catch (error) {
          if (!(error instanceof Rollback)) throw error;
        }
        assert.equal(failure, undefined, `${failure} for ?${decodeURIComponent(qs)}`);
        assert.deepEqual(ids, expected(items, q), `?${decodeURIComponent(qs)}\nrows ${JSON.stringify(items)}`);
      }),
      fuzzParameters(250),
    );
  });
});
