/**
 * fast-check arbitraries for engine requests: adversarial values (unicode, huge numbers, SQL fragments), every
 * operator with any value, deep select and logic trees, random Prefer/Range/Accept/Content-Type, random bodies.
 * Every value a client sends as data carries MARKER, so a test can check no statement text ever contains it.
 */
import fc from 'fast-check';
import type { EngineRequest } from '../../src/query/parse/request.js';

/** Appears in every generated data value, never in identifiers. */
export const MARKER = 'QZXMARKQZX';

/** Runs per property; FUZZ_SCALE multiplies them (e.g. FUZZ_SCALE=10 for a long local run). */
export function runs(base: number): number {
  return Math.max(1, Math.round(base * Number(process.env.FUZZ_SCALE ?? 1)));
}

/** Deterministic in CI; FUZZ_SEED=random (or a number) to explore. */
export function fuzzParameters(numRuns: number): fc.Parameters<unknown> {
  const seedEnv = process.env.FUZZ_SEED;
  const seed = seedEnv === 'random' ? undefined : Number(seedEnv ?? 20261122);
  return { numRuns: runs(numRuns), ...(seed === undefined ? {} : { seed }), endOnFailure: false };
}

const SQL_FRAGMENTS = [
  "'; DROP TABLE api.products; --",
  "' OR '1'='1",
  '" OR 1=1 --',
  '$1',
  '$$',
  "E'\\x00'",
  '\\',
  '\u0000',
  '/*',
  '*/',
  ');SELECT pg_sleep(10);--',
  "%' AND 1=1 --",
  'NULL',
  'null',
  'true',
  '{}',
  '{a,b}',
  '[1,2]',
  '(1,2)',
  '"quoted"',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '-0',
  '9'.repeat(400),
  '-9223372036854775809',
  '2147483648',
  '0x10',
  '2024-02-30',
  '2024-13-01',
  '10000-01-01',
  'infinity',
  'epoch',
  '12:00',
  '[2024-01-01,2024-01-05)',
  '::text',
  '->>',
  'a.b.c',
  ',',
  ')',
  '(',
  '.',
  '*',
  '\u202e',
  '\ud83d\ude00',
  '\ud800',
  'é',
  ' ',
  '',
];

/** Any string a client could send as a value (unicode, lone surrogates, SQL), without the marker. */
export const rawValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SQL_FRAGMENTS),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 8 }),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double().map(String),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.boolean().map(String),
);

/** A data value: a raw value with the marker somewhere in it. */
export const markedValue: fc.Arbitrary<string> = fc
  .tuple(rawValue, rawValue, fc.constantFrom('prefix', 'suffix', 'middle'))
  .map(([a, b, where]) => (where === 'prefix' ? `${MARKER}${a}` : where === 'suffix' ? `${a}${MARKER}` : `${a}${MARKER}${b}`));

export const OPERATORS = [
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'isdistinct',
  'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj', 'fts', 'plfts', 'phfts', 'wfts', 'in', 'is',
] as const;

/** Lone surrogates → U+FFFD: a URL cannot carry them (the engine still sees them in bodies). */
export function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A filter operation with any value: `[not.]op[(any|all)|(lang)].value`, `in.(…)`, `is.…`. */
export const operation: fc.Arbitrary<string> = fc
  .tuple(
    fc.boolean(),
    fc.constantFrom(...OPERATORS, 'noop', 'EQ', ''),
    fc.constantFrom('', '', '(any)', '(all)', '(english)', '(simple)', `(${MARKER})`, '(x'),
    fc.array(fc.tuple(markedValue, fc.boolean()), { minLength: 0, maxLength: 4 }),
    fc.constantFrom('null', 'true', 'false', 'unknown', 'NULL', 'maybe', MARKER),
  )
  .map(([not, op, modifier, values, isValue]) => {
    const prefix = not ? 'not.' : '';
    if (op === 'in') return `${prefix}in.(${values.map(([v, q]) => (q ? quote(v) : v)).join(',')})`;
    if (op === 'is') return `${prefix}is.${isValue}`;
    const value = values[0]?.[0] ?? MARKER;
    const arrayish = values.length > 1 ? `{${values.map(([v]) => quote(v)).join(',')}}` : value;
    return `${prefix}${op}${modifier}.${values.length > 1 && modifier.includes('a') ? arrayish : value}`;
  });

const SIMPLE_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'isdistinct', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'] as const;
const QUANTIFIABLE = new Set(['eq', 'like', 'ilike', 'gt', 'gte', 'lt', 'lte', 'match', 'imatch']);

/** A well-formed operation (it parses) with any value, so the request reaches the planner and the SQL builder. */
export const validOperation: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', 'not.'),
    fc.constantFrom(...SIMPLE_OPS, 'fts', 'plfts', 'phfts', 'wfts', 'in', 'is'),
    fc.constantFrom('', '(any)', '(all)', '(english)'),
    fc.array(markedValue, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('null', 'true', 'false', 'unknown'),
  )
  .map(([not, op, modifier, values, isValue]) => {
    if (op === 'in') return `${not}in.(${values.map(quote).join(',')})`;
    if (op === 'is') return `${not}is.${isValue}`;
    if (op.endsWith('fts')) return `${not}${op}${modifier === '(english)' ? modifier : ''}.${values[0]}`;
    if (modifier.startsWith('(a') && QUANTIFIABLE.has(op)) return `${not}${op}${modifier}.{${values.map(quote).join(',')}}`;
    return `${not}${op}.${values[0]}`;
  });

export interface SchemaShape {
  tables: { name: string; columns: string[]; embeds: string[] }[];
  functions: string[];
}

/** A column-ish name: real ones, JSON paths on them, and junk. */
function fieldName(columns: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...columns) },
    { weight: 1, arbitrary: fc.constantFrom(...columns).map((c) => `${c}->>key`) },
    { weight: 1, arbitrary: fc.constantFrom(...columns).map((c) => `${c}->0->'x'`) },
    { weight: 1, arbitrary: fc.constantFrom('*', 'nope', '"quoted name"', 'a b', '$', 'é', '', '1', 'x::text') },
  );
}

/** A logic tree value `(…)` up to `depth` levels, sometimes past the engine's limit. */
function logicTree(columns: string[], depth: number): fc.Arbitrary<string> {
  const leaf = fc.tuple(fieldName(columns), operation).map(([f, op]) => {
    // Inside trees, values with , ) ( need quotes; leave some unquoted to test the parser.
    return `${f}.${op}`;
  });
  const { tree } = fc.letrec<{ tree: string; node: string }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', maxDepth: depth }, leaf, tie('tree')),
    tree: fc
      .tuple(fc.constantFrom('', 'not.'), fc.constantFrom('and', 'or'), fc.array(tie('node'), { minLength: 1, maxLength: 3 }))
      .map(([not, op, children]) => `${not}${op}(${children.join(',')})`),
  }));
  return tree.map((t) => t.replace(/^(not\.)?(and|or)/, ''));
}

/** A select list with embeds (real and fake), aliases, casts, spreads, hints, JSON paths. */
function selectList(columns: string[], embeds: string[]): fc.Arbitrary<string> {
  const names = embeds.length > 0 ? embeds : ['nope'];
  const item = fc.letrec<{ list: string; item: string }>((tie) => ({
    item: fc.oneof(
      { depthSize: 'small', maxDepth: 10 },
      { weight: 4, arbitrary: fieldName(columns) },
      fc.tuple(fc.constantFrom('', 'alias:', 'x y:', '"q":'), fieldName(columns), fc.constantFrom('', '::text', '::int', '::json', '::bad type', '::'))
        .map(([a, f, c]) => `${a}${f}${c}`),
      fc.tuple(
        fc.constantFrom('', 'e:', '...'),
        fc.constantFrom(...names, 'nope'),
        fc.constantFrom('', '!inner', '!left', '!nope', '!organizations!inner'),
        tie('list'),
      ).map(([prefix, name, hint, inner]) => `${prefix}${name}${hint}(${inner})`),
    ),
    list: fc.array(tie('item'), { minLength: 0, maxLength: 4 }).map((items) => items.join(',')),
  }));
  return item.list;
}

const prefer = fc
  .subarray([
    'return=representation', 'return=minimal', 'return=headers-only', 'count=exact', 'count=planned', 'count=estimated',
    'resolution=merge-duplicates', 'resolution=ignore-duplicates', 'missing=default', 'handling=strict', 'handling=lenient',
    'tx=rollback', 'tx=commit', 'params=single-object', 'max-affected=1', `x=${MARKER}`, 'timezone=UTC',
  ])
  .map((prefs) => prefs.join(', '));

const range = fc.oneof(
  fc.tuple(fc.integer({ min: -5, max: 2000 }), fc.integer({ min: -5, max: 2000 })).map(([a, b]) => `${a}-${b}`),
  fc.nat(3000).map((a) => `${a}-`),
  fc.constantFrom('-5', 'items=0-9', 'bytes=0-1', '', '9'.repeat(30) + '-' + '9'.repeat(31), 'a-b'),
);

const accept = fc.constantFrom(
  'application/json', 'text/csv', 'application/vnd.pgrst.object+json', 'application/vnd.pgrst.object', '*/*',
  'application/geo+json', 'text/html', 'application/json;q=0.1, text/csv', 'garbage/', '',
);

const contentType = fc.constantFrom('application/json', 'text/csv', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', '');

/** A JSON-ish body: objects keyed by real columns with marked values, arrays of them, any JSON, junk text. */
function body(columns: string[]): fc.Arbitrary<string | undefined> {
  const cell = fc.oneof(
    markedValue,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(markedValue, { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', MARKER), markedValue, { maxKeys: 2 }),
  );
  const row = fc.dictionary(fc.oneof(fc.constantFrom(...columns), fc.constantFrom('nope', '')), cell, { maxKeys: 5 });
  return fc.oneof(
    row.map((r) => JSON.stringify(r)),
    fc.array(row, { maxLength: 4 }).map((rows) => JSON.stringify(rows)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    markedValue,
    fc.constantFrom('', '{', '[', 'null', '[]', '{}', `${columns[0] ?? 'id'}\n${MARKER}`),
    fc.constant(undefined),
  );
}

/** A query string: filters, logic trees, select, order, limit/offset, columns, on_conflict, junk pairs. */
function queryString(columns: string[], embeds: string[]): fc.Arbitrary<string> {
  const encode = (s: string) => encodeURIComponent(wellFormed(s));
  const pair = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fieldName(columns), operation).map(([k, v]) => `${encode(k)}=${encode(v)}`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('or', 'and', 'not.or', 'not.and', `${embeds[0] ?? 'x'}.or`), logicTree(columns, 13))
        .map(([k, v]) => `${k}=${encode(v)}`),
    },
    { weight: 2, arbitrary: selectList(columns, embeds).map((s) => `select=${encode(s)}`) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fieldName(columns), fc.constantFrom('', '.asc', '.desc', '.nullsfirst', '.desc.nullslast', '.x')), { maxLength: 3 })
        .map((terms) => `order=${encode(terms.map(([c, d]) => `${c}${d}`).join(','))}`),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('limit', 'offset', `${embeds[0] ?? 'x'}.limit`), rawValue).map(([k, v]) => `${k}=${encode(v)}`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('columns', 'on_conflict'), fc.subarray(columns)).map(([k, v]) => `${k}=${encode(v.join(','))}`) },
    { weight: 1, arbitrary: fc.tuple(rawValue, markedValue).map(([k, v]) => `${encode(k)}=${encode(v)}`) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '=', '&&', 'select', 'a=%E0%A4%A', `x=${MARKER}%00`) },
  );
  const validPair = fc.oneof(
    { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...columns), validOperation).map(([k, v]) => `${encode(k)}=${encode(v)}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...columns), validOperation, fc.constantFrom(...columns), validOperation, fc.constantFrom('or', 'and', 'not.or'))
        .map(([a, x, b, y, op]) => `${op}=${encode(`(${a}.${x},not.and(${b}.${y},${a}.is.null))`)}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.subarray(columns, { minLength: 1 }), fc.subarray(embeds))
        .map(([cols, rels]) => `select=${encode([...cols, ...rels.map((r) => `${r}(*)`)].join(','))}`),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...columns), fc.constantFrom('asc', 'desc.nullslast')).map(([c, d]) => `order=${c}.${d}`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('limit', 'offset'), fc.nat(2000)).map(([k, v]) => `${k}=${v}`) },
  );
  return fc.oneof(
    fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&')),
    fc.array(validPair, { maxLength: 5 }).map((pairs) => pairs.join('&')),
    fc.array(validPair, { maxLength: 5 }).map((pairs) => pairs.join('&')),
  );
}

export const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS', 'PUT'] as const;

/** A whole engine request against `shape`. */
export function engineRequest(shape: SchemaShape): fc.Arbitrary<EngineRequest> {
  const target = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...shape.tables) },
    { weight: 1, arbitrary: fc.constant<SchemaShape['tables'][number]>({ name: 'nope', columns: ['id'], embeds: [] }) },
  );
  return target.chain((table) =>
    fc.record({
      method: fc.constantFrom(...METHODS),
      path: fc.oneof(
        { weight: 8, arbitrary: fc.constant(table.name) },
        { weight: 1, arbitrary: fc.constantFrom(...shape.functions, 'nope').map((f) => `rpc/${f}`) },
        { weight: 1, arbitrary: fc.constantFrom('', 'rpc/', `${table.name}/1`, '%25', 'r%C3%A9sum%C3%A9', MARKER.toLowerCase()) },
      ),
      query: queryString(table.columns, table.embeds),
      headers: fc.oneof(
        fc.record({ prefer, range, accept, 'content-type': contentType, 'range-unit': fc.constantFrom('items', 'bytes') }, { requiredKeys: [] }),
        fc.record({ prefer: fc.constantFrom('return=representation', 'count=exact', 'tx=rollback'), 'content-type': fc.constant('application/json') }, { requiredKeys: ['content-type'] }),
      ),
      body: body(table.columns),
    }),
  );
}
