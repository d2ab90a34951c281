/**
 * Edges of the query-string parser that test/query/parse.test.ts does not reach: the exact depth limits (the last
 * accepted level and the first refused one), filters told from RPC arguments, parameters without a value,
 * limit/offset spellings, full-text languages, `(any)`/`(all)` on each operator, and the regex-safety reader's
 * bracket expressions and quantifier forms. Run by the mutation run of src/query/parse (scripts/mutation-modules.js).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors/api-error.js';
import { hasOperator, parseFilterValue, parseLogicTree } from '../../src/query/parse/filter.js';
import { parseColumnList, parseOrder } from '../../src/query/parse/order.js';
import { parseQueryString, splitQueryString } from '../../src/query/parse/query-string.js';
import { MAX_QUANTIFIERS, unsafeRegexReason } from '../../src/query/parse/regex-safety.js';

/** The PGRST100 a client gets, as `message | details`. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'PGRST100');
    return `${error.message} | ${error.details ?? ''}`;
  }
  assert.fail('expected a 400 PGRST100');
}

const nested = (operator: string, levels: number) => `(${`${operator}(`.repeat(levels - 1)}a.eq.1${')'.repeat(levels - 1)})`;

describe('depth limits', () => {
  it('logic trees: exactly maxDepth levels accepted, one more refused at the level that is too deep', () => {
    assert.equal(parseLogicTree('or', false, nested('and', 3), 3).type, 'expr');
    assert.equal(refusal(() => parseLogicTree('or', false, nested('and', 4), 3)), '"failed to parse logic tree ((and(and(and(a.eq.1)))))" (line 1, column 12) | logic trees may be nested at most 3 levels deep');
    assert.equal(parseLogicTree('or', false, nested('or', 10)).type, 'expr', 'the default is 10 levels');
    assert.match(refusal(() => parseLogicTree('or', false, nested('or', 11))), /at most 10 levels deep/);
    assert.match(refusal(() => parseQueryString(`or=${nested('or', 3)}`, { isRpc: false, maxLogicDepth: 2 })), /at most 2 levels deep/);
    assert.equal(parseQueryString(`or=${nested('or', 2)}`, { isRpc: false, maxLogicDepth: 2 }).logic.length, 1);
  });

  it('embedding: exactly maxEmbedDepth levels accepted, one more refused', () => {
    assert.equal(parseQueryString('select=a(b(*))', { isRpc: false, maxEmbedDepth: 2 }).select.length, 1);
    assert.equal(
      refusal(() => parseQueryString('select=a(b(c(*)))', { isRpc: false, maxEmbedDepth: 2 })),
      '"failed to parse select parameter (a(b(c(*))))" | embedding may be nested at most 2 levels deep',
    );
    assert.equal(parseQueryString('select=a(b(c(d(*))))', { isRpc: false }).select.length, 1, 'no limit unless given');
  });
});

describe('query string', () => {
  it('a parameter without "=" is a typo on a table, ignored on an RPC and for reserved names', () => {
    assert.equal(
      refusal(() => parseQueryString('first_name', { isRpc: false })),
      '"failed to parse filter (first_name)" | the parameter "first_name" has no value: a filter is written column=operator.value, e.g. first_name=eq.x',
    );
    const ignored = parseQueryString('select&columns&on_conflict&order&limit&offset&and&or&rel.order&rel.limit&&', { isRpc: false });
    assert.deepEqual([ignored.filters, ignored.order, ignored.logic, [...ignored.ranges]], [[], [], [], []]);
    assert.deepEqual(ignored.select, [{ type: 'star' }]);
    assert.equal(parseQueryString('anything', { isRpc: true }).rpcArgs.length, 0);
    assert.match(refusal(() => parseQueryString('rel.other', { isRpc: false })), /failed to parse filter \(rel\.other\)/);
  });

  it('limit and offset: whole numbers, signs and surrounding spaces as PostgREST reads them, per embed path', () => {
    const q = parseQueryString('limit= 7 &offset=-2&a.b.limit=0&a.b.offset=3', { isRpc: false });
    assert.deepEqual(q.ranges.get(''), { offset: -2, limit: 7 });
    assert.deepEqual(q.ranges.get('a.b'), { offset: 3, limit: 0 });
    assert.deepEqual(parseQueryString('offset=4', { isRpc: false }).ranges.get(''), { offset: 4, limit: undefined });
    for (const bad of ['1.5', '1e3', '', '+', '0x10', '9007199254740993', '1 2']) {
      assert.equal(refusal(() => parseQueryString(`limit=${encodeURIComponent(bad)}`, { isRpc: false })), `"failed to parse limit parameter (${bad})" (line 1, column 1) | expecting digit`, bad);
    }
    assert.match(refusal(() => parseQueryString('offset=x', { isRpc: false })), /failed to parse offset parameter \(x\)/);
  });

  it('a logic tree after an embed path, negated or not', () => {
    const q = parseQueryString('rel.not.and=(a.eq.1)&rel.or=(b.eq.2)&not.rel.or=(c.eq.3)', { isRpc: false });
    assert.deepEqual(q.logic.map(({ path, tree }) => [path, tree.type === 'expr' && tree.operator, tree.type === 'expr' && tree.negated]), [
      [['rel'], 'and', true],
      [['rel'], 'or', false],
      [['not', 'rel'], 'or', false],
    ]);
  });

  it('on an RPC: a value without an operator is an argument, unless the key names an embed', () => {
    const q = parseQueryString('n=5&when=2026-01-01&label=is&tag=in&f=not.x&g=not.eq.1&h=eq.2&rel.x=eq.1&k=a(any)&m=like(any).x', { isRpc: true });
    assert.deepEqual(q.rpcArgs, [['n', '5'], ['when', '2026-01-01'], ['label', 'is'], ['tag', 'in'], ['f', 'not.x'], ['k', 'a(any)']]);
    assert.deepEqual(q.filters.map(({ filter }) => filter.field.name), ['g', 'h', 'x', 'm']);
  });

  it('hasOperator: PostgREST’s test of whether a value is a filter', () => {
    for (const value of ['eq.1', 'not.eq.1', 'not.x.y', 'is.null', 'in.(1)', 'is.', 'fts(english).x', 'like(any).{a}', 'wfts.x', 'adj.x']) {
      assert.equal(hasOperator(value), true, value);
    }
    for (const value of ['eq', 'not.eq', 'not', 'is', 'in', 'x.y', '5', 'fts', 'eqx.1', 'x(any).y', '']) {
      assert.equal(hasOperator(value), false, value);
    }
  });

  it('splits on & and the first =, decodes + and percent escapes, drops empty parts', () => {
    assert.deepEqual(splitQueryString('a=1=2&&b&c=&d+e=f%2Bg'), [['a', '1=2'], ['b', undefined], ['c', ''], ['d e', 'f+g']]);
    assert.deepEqual(splitQueryString(''), []);
    assert.equal(refusal(() => splitQueryString('a=%zz')), 'Invalid percent-encoding in the query string | %zz');
  });

  it('the canonical form: keys sorted, values encoded, a missing value empty', () => {
    assert.equal(parseQueryString('b=eq.2&a=eq.x y&c&A=eq.1', { isRpc: true }).canonical, 'A=eq.1&a=eq.x+y&b=eq.2&c=');
  });
});

describe('filters', () => {
  it('is.<value> in any case; the value must be null, unknown, true or false', () => {
    for (const [input, value] of [['is.Unknown', 'unknown'], ['is.FALSE', 'false'], ['is.true', 'true']] as const) {
      assert.deepEqual(parseFilterValue(input).operation, { kind: 'is', value });
    }
    assert.equal(refusal(() => parseFilterValue('is.nul')), '"failed to parse filter (is.nul)" (line 1, column 4) | unexpected "n" expecting null or trilean value (unknown, true, false)');
    assert.match(refusal(() => parseFilterValue('is.nullx')), /expecting end of input/);
  });

  it('(any) and (all) only on the operators that take them', () => {
    for (const op of ['eq', 'like', 'ilike', 'gt', 'gte', 'lt', 'lte', 'match', 'imatch']) {
      assert.equal(parseFilterValue(`${op}(all).{1}`).operation.kind, 'simple', op);
    }
    for (const op of ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj', 'isdistinct']) {
      assert.equal(refusal(() => parseFilterValue(`${op}(any).{1}`)), `"failed to parse filter (${op}(any).{1})" (line 1, column ${op.length + 7}) | unknown single value operator ${op}(any)`, op);
    }
    assert.match(refusal(() => parseFilterValue('eq(any)')), /expecting delimiter \(\.\)/);
    assert.match(refusal(() => parseFilterValue('eq(some).1')), /\(line 1, column 3\) \| unexpected "\(" expecting delimiter \(\.\)/);
    assert.match(refusal(() => parseFilterValue('noop')), /expecting delimiter \(\.\)/);
  });

  it('full-text search: a language of letters, digits, _, $ and spaces; then the delimiter', () => {
    assert.deepEqual(parseFilterValue('plfts( simple ).a').operation, { kind: 'fts', operator: 'plfts', language: 'simple', value: 'a' });
    assert.deepEqual(parseFilterValue('phfts(pg_catalog$x 2).a').operation, { kind: 'fts', operator: 'phfts', language: 'pg_catalog$x 2', value: 'a' });
    assert.match(refusal(() => parseFilterValue("fts(english');drop).a")), /expecting letter or digit/);
    assert.match(refusal(() => parseFilterValue('fts().a')), /expecting letter or digit/);
    assert.match(refusal(() => parseFilterValue('fts(english.a')), /expecting "\)"/);
    assert.match(refusal(() => parseFilterValue('fts(english)a')), /expecting delimiter/);
    assert.match(refusal(() => parseFilterValue('fts')), /expecting delimiter/);
  });

  it('in-lists: spaces around the parentheses, a quoted element only when it is the whole element', () => {
    assert.deepEqual(parseFilterValue('in. ( 1 ,"a")').operation, { kind: 'in', values: ['1 ', 'a'] });
    assert.deepEqual(parseFilterValue('in.("a"b,"c")').operation, { kind: 'in', values: ['"a"b', 'c'] });
    assert.match(refusal(() => parseFilterValue('in.(1')), /expecting "\)" or ","/);
    assert.match(refusal(() => parseFilterValue('in.(1)x')), /expecting end of input/);
  });

  it('values inside logic trees: quoted, {…} kept whole, or up to , and )', () => {
    const values = (tree: ReturnType<typeof parseLogicTree>) =>
      tree.type === 'expr' ? tree.children.map((child) => (child.type === 'filter' && child.filter.operation.kind === 'simple' ? child.filter.operation.value : null)) : [];
    assert.deepEqual(values(parseLogicTree('or', false, '(a.eq."x,y",b.cs.{1,2},c.eq."q"r,e.eq.)')), ['x,y', '{1,2}', '"q"r', '']);
    assert.match(refusal(() => parseLogicTree('or', false, '(d.cs.{1,{2}})')), /unexpected "\{" expecting field name/, 'a nested {…} is not kept whole');
    assert.deepEqual(values(parseLogicTree('and', false, '( a.eq.1 , b.eq."2")')), ['1 ', '2']);
  });

  it('a logic tree needs its parentheses and a field in each', () => {
    assert.match(refusal(() => parseLogicTree('or', false, '(a.eq.1)x')), /expecting end of input/);
    assert.match(refusal(() => parseLogicTree('or', false, '(a.eq.1,)')), /expecting field name/);
    assert.match(refusal(() => parseLogicTree('or', false, '(a)')), /expecting delimiter \(\.\)/);
    assert.match(refusal(() => parseLogicTree('or', false, '')), /expecting delimiter \(\.\)/);
    const negated = parseLogicTree('or', false, '(not.and(a.eq.1),b.not.eq.2)');
    assert.ok(negated.type === 'expr');
    assert.deepEqual(negated.children.map((child) => (child.type === 'expr' ? child.negated : child.filter.negated)), [true, true]);
  });
});

describe('order and column lists', () => {
  it('each direction with each nulls position; anything else names what was expected', () => {
    assert.deepEqual(parseOrder(' a.asc.nullsfirst , b.desc.nullslast,c.nullslast').map(({ direction, nulls }) => [direction, nulls]), [
      ['asc', 'first'],
      ['desc', 'last'],
      [undefined, 'last'],
    ]);
    assert.equal(refusal(() => parseOrder('a.up')), '"failed to parse order (a.up)" (line 1, column 3) | unexpected "u" expecting "asc", "desc", "nullsfirst" or "nullslast"');
    assert.equal(refusal(() => parseOrder('a.asc.down')), '"failed to parse order (a.asc.down)" (line 1, column 7) | unexpected "d" expecting "nullsfirst" or "nullslast"');
    assert.match(refusal(() => parseOrder('a.nullsfirst.asc')), /expecting "," or end of input/);
    assert.match(refusal(() => parseOrder('rel(a')), /expecting "\)"/);
  });

  it('columns and on_conflict: names separated by commas', () => {
    assert.deepEqual(parseColumnList('a , b,c', 'columns parameter'), ['a', 'b', 'c']);
    assert.match(refusal(() => parseColumnList('a;b', 'columns parameter')), /failed to parse columns parameter \(a;b\).*expecting "," or end of input/);
  });
});

describe('regex safety', () => {
  it('bracket expressions are single atoms, whatever they hold', () => {
    for (const pattern of ['[^]a+*]+', '[]+]+', '[[:digit:]+*]+', '[[.hyphen.]+]+', '[[=e=]+]+', '[\\]+]+', '(a[)]+)', '[a-z', '[[:alpha:']) {
      assert.equal(unsafeRegexReason(pattern), undefined, pattern);
    }
    assert.match(unsafeRegexReason('([[:alpha:]]+)*') ?? '', /quantified group/);
    assert.match(unsafeRegexReason('([^]]+)*') ?? '', /quantified group/);
  });

  it('quantifiers: *, +, ?, {m}, {m,}, {m,n}, each maybe lazy, count once; a brace without digits is a literal', () => {
    assert.equal(unsafeRegexReason('a{2,}?b{3}'), undefined);
    assert.match(unsafeRegexReason('(a{2,}?)+') ?? '', /quantified group/);
    assert.match(unsafeRegexReason('(a{2})+') ?? '', /quantified group/);
    assert.equal(unsafeRegexReason('(a{x})+'), undefined);
    assert.equal(unsafeRegexReason('(a{,2})+'), undefined);
    assert.equal(unsafeRegexReason('x+?'.repeat(MAX_QUANTIFIERS)), undefined, 'a lazy marker is part of its quantifier');
    assert.equal(unsafeRegexReason('x{1,2}'.repeat(MAX_QUANTIFIERS)), undefined);
    assert.match(unsafeRegexReason(`${'x*'.repeat(MAX_QUANTIFIERS)}y*`) ?? '', /^a pattern may hold at most 20 quantifiers \(\*, \+, \?, \{m,n\}\)$/);
  });

  it('a quantifier needs an atom: after |, ^, ( or another quantifier it is no quantifier', () => {
    assert.equal(unsafeRegexReason('(|+a)*'), undefined);
    assert.equal(unsafeRegexReason('(^*a)*'), undefined);
    assert.equal(unsafeRegexReason('(+a)*'), undefined);
    assert.equal(unsafeRegexReason('(?:*a)*'), undefined);
    assert.equal(unsafeRegexReason('(a**)'), undefined);
    assert.equal(unsafeRegexReason('a**'.repeat(MAX_QUANTIFIERS)), undefined, 'the second * of ** is not counted');
  });

  it('a group holding a quantifier is safe until the group itself is quantified, at any depth', () => {
    assert.equal(unsafeRegexReason('(a+)b*'), undefined);
    assert.equal(unsafeRegexReason('(a+)(b)*'), undefined);
    assert.equal(unsafeRegexReason('(a+))*'), undefined, 'an unmatched ) closes no group');
    assert.match(unsafeRegexReason('((a+))*') ?? '', /quantified group/);
    assert.match(unsafeRegexReason('(?=a+)*') ?? '', /quantified group/);
    assert.match(unsafeRegexReason('(?<!a+){2}') ?? '', /^a quantified group may not hold a quantifier itself, as in \(a\+\)\*$/);
    assert.match(unsafeRegexReason('(?!a?)+') ?? '', /quantified group/);
    assert.match(unsafeRegexReason('(?<=a*)?') ?? '', /quantified group/);
  });

  it('escapes: \\1 to \\9 are back references, any other escaped character an atom', () => {
    assert.equal(unsafeRegexReason('\\(a+\\)*'), undefined);
    assert.equal(unsafeRegexReason('a\\'), undefined);
    assert.equal(unsafeRegexReason('(a)\\0'), undefined);
    assert.equal(unsafeRegexReason('\\5'), 'back references (\\1 … \\9) are not supported');
    assert.equal(unsafeRegexReason('(?i)a'), 'embedded options ((?…) at the start) and *** directors are not supported');
    assert.equal(unsafeRegexReason('a(?i)'), undefined, 'options only count at the start');
    assert.equal(unsafeRegexReason('**a'), undefined);
  });
});
