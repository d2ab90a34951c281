import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/errors/api-error.js';
import { parseFilterValue, parseLogicTree } from '../../src/query/parse/filter.js';
import { negotiateAccept, parseContentType, parsePrefer, parseRangeHeader } from '../../src/query/parse/headers.js';
import { parseJsonBody } from '../../src/query/parse/body.js';
import { parseOrder } from '../../src/query/parse/order.js';
import { parseQueryString } from '../../src/query/parse/query-string.js';
import { parseSelect } from '../../src/query/parse/select.js';

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('parse select', () => {
  it('columns, aliases, casts, JSON paths', () => {
    assert.deepEqual(parseSelect('id,alias:name,amount::text,data->a->>b,data->0,"quoted name"'), [
      { type: 'field', field: { name: 'id', jsonPath: [] }, alias: undefined, cast: undefined },
      { type: 'field', field: { name: 'name', jsonPath: [] }, alias: 'alias', cast: undefined },
      { type: 'field', field: { name: 'amount', jsonPath: [] }, alias: undefined, cast: 'text' },
      {
        type: 'field',
        field: { name: 'data', jsonPath: [{ arrow: '->', key: 'a', isIndex: false }, { arrow: '->>', key: 'b', isIndex: false }] },
        alias: undefined,
        cast: undefined,
      },
      { type: 'field', field: { name: 'data', jsonPath: [{ arrow: '->', key: '0', isIndex: true }] }, alias: undefined, cast: undefined },
      { type: 'field', field: { name: 'quoted name', jsonPath: [] }, alias: undefined, cast: undefined },
    ]);
  });

  it('embeds with alias, hint, join type, spread and nesting', () => {
    const [star, embed, spread] = parseSelect('*,c:clients!client_fk!inner(id,tasks!left(*)),...orgs(name)');
    assert.deepEqual(star, { type: 'star' });
    assert.deepEqual(embed, {
      type: 'embed',
      name: 'clients',
      alias: 'c',
      hint: 'client_fk',
      join: 'inner',
      spread: false,
      select: [
        { type: 'field', field: { name: 'id', jsonPath: [] }, alias: undefined, cast: undefined },
        { type: 'embed', name: 'tasks', alias: undefined, hint: undefined, join: 'left', spread: false, select: [{ type: 'star' }] },
      ],
    });
    assert.equal(spread?.type === 'embed' && spread.spread, true);
    const empty = parseSelect('id,clients()')[1];
    assert.deepEqual(empty?.type === 'embed' ? empty.select : null, []);
  });

  for (const bad of ['id,', 'id!hint', 'name::', 'rel(id', 'a:b:c']) {
    it(`rejects ${bad} with PGRST100`, () => {
      const error = apiError(() => parseSelect(bad));
      assert.equal(error.code, 'PGRST100');
      assert.equal(error.status, 400);
      assert.match(error.message, /^"failed to parse select parameter \(/);
    });
  }
});

describe('parse filters', () => {
  const cases: [string, unknown][] = [
    ['eq.5', { negated: false, operation: { kind: 'simple', operator: 'eq', value: '5', quantifier: undefined } }],
    ['not.like.a*b', { negated: true, operation: { kind: 'simple', operator: 'like', value: 'a*b', quantifier: undefined } }],
    ['eq.a.b.c', { negated: false, operation: { kind: 'simple', operator: 'eq', value: 'a.b.c', quantifier: undefined } }],
    ['in.(1,"a,b","q\\"x",)', { negated: false, operation: { kind: 'in', values: ['1', 'a,b', 'q"x', ''] } }],
    ['is.NULL', { negated: false, operation: { kind: 'is', value: 'null' } }],
    ['not.is.true', { negated: true, operation: { kind: 'is', value: 'true' } }],
    ['fts(english).cat & dog', { negated: false, operation: { kind: 'fts', operator: 'fts', language: 'english', value: 'cat & dog' } }],
    ['wfts.a b', { negated: false, operation: { kind: 'fts', operator: 'wfts', language: undefined, value: 'a b' } }],
    ['like(any).{a*,b*}', { negated: false, operation: { kind: 'simple', operator: 'like', value: '{a*,b*}', quantifier: 'any' } }],
    ['gt(all).{1,2}', { negated: false, operation: { kind: 'simple', operator: 'gt', value: '{1,2}', quantifier: 'all' } }],
    ['isdistinct.x', { negated: false, operation: { kind: 'simple', operator: 'isdistinct', value: 'x', quantifier: undefined } }],
  ];
  for (const [input, expected] of cases) {
    it(input, () => assert.deepEqual(parseFilterValue(input), expected));
  }
  for (const op of ['neq', 'gte', 'lt', 'lte', 'ilike', 'match', 'imatch', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj']) {
    it(`operator ${op}`, () => {
      const parsed = parseFilterValue(`${op}.v`);
      assert.deepEqual(parsed.operation, { kind: 'simple', operator: op, value: 'v', quantifier: undefined });
    });
  }
  it('unknown operators and modifiers', () => {
    const error = apiError(() => parseFilterValue('noop.1'));
    assert.equal(error.message, '"failed to parse filter (noop.1)" (line 1, column 6)');
    assert.equal(error.details, 'unknown single value operator noop');
    assert.equal(apiError(() => parseFilterValue('cs(any).{1}')).code, 'PGRST100');
    assert.equal(apiError(() => parseFilterValue('is.maybe')).code, 'PGRST100');
    assert.equal(apiError(() => parseFilterValue('in.1,2')).code, 'PGRST100');
    assert.equal(apiError(() => parseFilterValue('eq')).code, 'PGRST100');
  });
});

describe('parse logic trees', () => {
  it('nested and/or/not with quoting and arrays', () => {
    const tree = parseLogicTree('or', false, '(a.eq.1,and(b.in.(1,2),not.or(c.is.null,d.eq."x,)y")),e.cs.{1,2},f->>g.like.*z)');
    assert.equal(tree.type, 'expr');
    if (tree.type !== 'expr') return;
    assert.equal(tree.operator, 'or');
    assert.equal(tree.children.length, 4);
    const and = tree.children[1];
    assert.equal(and?.type === 'expr' && and.operator, 'and');
    const inner = and?.type === 'expr' ? and.children[1] : undefined;
    assert.equal(inner?.type === 'expr' && inner.negated, true);
    const quoted = inner?.type === 'expr' ? inner.children[1] : undefined;
    assert.deepEqual(quoted?.type === 'filter' ? quoted.filter.operation : null, {
      kind: 'simple',
      operator: 'eq',
      value: 'x,)y',
      quantifier: undefined,
    });
    const array = tree.children[2];
    assert.deepEqual(array?.type === 'filter' ? array.filter.operation : null, {
      kind: 'simple',
      operator: 'cs',
      value: '{1,2}',
      quantifier: undefined,
    });
    const json = tree.children[3];
    assert.deepEqual(json?.type === 'filter' ? json.filter.field : null, {
      name: 'f',
      jsonPath: [{ arrow: '->>', key: 'g', isIndex: false }],
    });
  });
  it('error messages show the value as given, columns counted with the operator', () => {
    const error = apiError(() => parseLogicTree('or', false, '(id.eq.1'));
    assert.equal(error.message, '"failed to parse logic tree ((id.eq.1)" (line 1, column 11)');
  });
  it('negated root and depth limit', () => {
    const tree = parseLogicTree('and', true, '(a.eq.1)');
    assert.equal(tree.type === 'expr' && tree.negated, true);
    assert.equal(apiError(() => parseLogicTree('or', false, `(${'or('.repeat(3)}a.eq.1${')'.repeat(3)})`, 2)).code, 'PGRST100');
    for (const bad of ['()', '(a.eq.1', 'a.eq.1', '(a.zz.1)']) {
      assert.equal(apiError(() => parseLogicTree('or', false, bad)).code, 'PGRST100', bad);
    }
  });
});

describe('parse order', () => {
  it('directions, nulls, json paths, related', () => {
    assert.deepEqual(parseOrder('a.desc.nullslast,b,c->>d.asc,rel(e).nullsfirst'), [
      { relation: undefined, field: { name: 'a', jsonPath: [] }, direction: 'desc', nulls: 'last' },
      { relation: undefined, field: { name: 'b', jsonPath: [] }, direction: undefined, nulls: undefined },
      { relation: undefined, field: { name: 'c', jsonPath: [{ arrow: '->>', key: 'd', isIndex: false }] }, direction: 'asc', nulls: undefined },
      { relation: 'rel', field: { name: 'e', jsonPath: [] }, direction: undefined, nulls: 'first' },
    ]);
    for (const bad of ['id.ac', 'id.descc', 'id.asc.nlsfst', 'rel(a,b)']) {
      assert.equal(apiError(() => parseOrder(bad)).code, 'PGRST100', bad);
    }
  });
});

describe('parse query string', () => {
  it('keeps order and repeated keys, routes embedded params, canonicalises', () => {
    const q = parseQueryString('id=gt.1&id=lt.5&select=id,projects(id)&projects.order=id.desc&projects.limit=2&projects.offset=1&limit=10&offset=3&projects.id=eq.2&not.or=(a.eq.1)&columns=a,b&on_conflict=a', { isRpc: false });
    assert.deepEqual(q.filters.map((f) => [f.path, f.filter.field.name]), [[[], 'id'], [[], 'id'], [['projects'], 'id']]);
    assert.deepEqual(q.order.map((o) => o.path), [['projects']]);
    assert.deepEqual(q.ranges.get('projects'), { offset: 1, limit: 2 });
    assert.deepEqual(q.ranges.get(''), { offset: 3, limit: 10 });
    assert.equal(q.logic[0]?.tree.type === 'expr' && q.logic[0].tree.negated, true);
    assert.deepEqual(q.columns, ['a', 'b']);
    assert.deepEqual(q.onConflict, ['a']);
    assert.equal(q.canonical.startsWith('columns=a%2Cb&id=gt.1&id=lt.5&limit=10'), true);
  });
  it('decodes + and percent escapes; rpc arguments', () => {
    const q = parseQueryString('name=eq.a+b%2Cc&x=1&y=eq.2', { isRpc: true });
    assert.deepEqual(q.rpcArgs, [['x', '1']]);
    assert.deepEqual(q.filters.map((f) => f.filter.operation), [
      { kind: 'simple', operator: 'eq', value: 'a b,c', quantifier: undefined },
      { kind: 'simple', operator: 'eq', value: '2', quantifier: undefined },
    ]);
    assert.deepEqual(parseQueryString('x=1', { isRpc: true }).filters, []);
  });
  it('a non-filter on a table is a parse error; bad limit; embedding depth', () => {
    assert.equal(apiError(() => parseQueryString('name=bob', { isRpc: false })).code, 'PGRST100');
    assert.equal(apiError(() => parseQueryString('limit=abc', { isRpc: false })).code, 'PGRST100');
    assert.equal(apiError(() => parseQueryString('rel.offset=99999999999999999999999', { isRpc: false })).code, 'PGRST100');
    assert.equal(apiError(() => parseQueryString('select=a(b(c(*)))', { isRpc: false, maxEmbedDepth: 2 })).code, 'PGRST100');
    assert.equal(apiError(() => parseQueryString('x=%E0%A4%A', { isRpc: false })).code, 'PGRST100');
  });
});

describe('parse headers and body', () => {
  it('Prefer: first wins, unknown collected', () => {
    const prefs = parsePrefer(
      'return=representation, count=exact,tx=rollback, return=minimal, foo, missing=default, resolution=merge-duplicates, handling=strict, max-affected=3, max-affected=9',
    );
    assert.deepEqual(prefs, {
      return: 'representation',
      count: 'exact',
      resolution: 'merge-duplicates',
      missing: 'default',
      handling: 'strict',
      tx: 'rollback',
      maxAffected: 3,
      timezone: undefined,
      params: undefined,
      invalid: ['foo'],
    });
    // PostgREST reads max-affected as an integer; another value is ignored, and is not an invalid preference.
    assert.equal(parsePrefer('max-affected=many').maxAffected, undefined);
    assert.deepEqual(parsePrefer('max-affected=many').invalid, []);
  });
  it('Prefer: timezone= only for a zone PostgreSQL knows (exact spelling); params=single-object is known', () => {
    const zones = new Set(['America/Los_Angeles', 'UTC']);
    assert.equal(parsePrefer('timezone=America/Los_Angeles', zones).timezone, 'America/Los_Angeles');
    assert.deepEqual(parsePrefer('timezone=america/los_angeles', zones).invalid, ['timezone=america/los_angeles']);
    // The first one decides, as for every preference; a later one is then not invalid.
    assert.deepEqual(parsePrefer('timezone=UTC, timezone=Mars/Olympus', zones), {
      ...parsePrefer(undefined), timezone: 'UTC',
    });
    assert.deepEqual(parsePrefer('params=single-object', zones), { ...parsePrefer(undefined), params: 'single-object' });
  });
  it('Accept negotiation', () => {
    assert.equal(negotiateAccept(undefined), 'json');
    assert.equal(negotiateAccept('application/vnd.pgrst.object+json'), 'object');
    assert.equal(negotiateAccept('text/xml, text/csv'), 'csv');
    assert.equal(negotiateAccept('text/csv;q=0.5, application/json'), 'json');
    assert.equal(negotiateAccept('*/*'), 'json');
    const error = apiError(() => negotiateAccept('text/xml'));
    assert.equal(error.status, 406);
    assert.equal(error.message, 'None of these media types are available: text/xml');
    assert.equal(apiError(() => negotiateAccept('text/csv', false)).status, 406);
  });
  it('Content-Type', () => {
    assert.equal(parseContentType('application/json; charset=utf-8', true), 'json');
    assert.equal(parseContentType(undefined, false), 'json');
    assert.equal(parseContentType('text/csv', true), 'csv');
    assert.equal(apiError(() => parseContentType('text/csv', false)).status, 415);
  });
  it('Range header', () => {
    assert.deepEqual(parseRangeHeader('0-9'), { offset: 0, limit: 10 });
    assert.deepEqual(parseRangeHeader('5-'), { offset: 5, limit: undefined });
    assert.equal(parseRangeHeader('bogus'), undefined);
    assert.equal(apiError(() => parseRangeHeader('9-1')).status, 416);
  });
  it('JSON body', () => {
    assert.deepEqual(parseJsonBody('{"a":1}', { allowArray: true, requireSameKeys: true }), {
      raw: '{"a":1}',
      kind: 'object',
      keys: ['a'],
      rowCount: 1,
      rowKeys: [['a']],
    });
    assert.equal(parseJsonBody('[{"a":1},{"a":2}]', { allowArray: true, requireSameKeys: true }).rowCount, 2);
    for (const bad of ['', '{', '1', '"x"', '[1]', 'null']) {
      assert.equal(apiError(() => parseJsonBody(bad, { allowArray: true, requireSameKeys: true })).message, 'Empty or invalid json', bad);
    }
    assert.equal(apiError(() => parseJsonBody('[{"a":1},{"b":2}]', { allowArray: true, requireSameKeys: true })).message, 'All object keys must match');
    assert.equal(parseJsonBody('[{"a":1},{"b":2}]', { allowArray: true, requireSameKeys: false }).rowCount, 2);
    assert.equal(apiError(() => parseJsonBody('[{"a":1}]', { allowArray: false, requireSameKeys: false })).code, 'PGRST102');
  });
});
