/**
 * How identifiers, JSON paths and conditions become SQL text, where plan-sql.test.ts does not look: type names
 * re-checked before they are written, JSON keys as parameters and indexes as integers, computed fields, when a
 * pattern compares the column as text, tenant and embed conditions, and/or/not trees. A wrong branch here is
 * wrong rows or user input in SQL text. Run by the mutation run of src/query/sql (scripts/mutation-modules.js).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { columnSql, conditionSql, jsonPathSql, mentionsEmbed, operationSql } from '../../src/query/sql/condition.js';
import { Params, qualified, safeTypeName } from '../../src/query/sql/quote.js';
import { parseFilterValue } from '../../src/query/parse/filter.js';
import type { ColumnExpr, Condition } from '../../src/query/plan/types.js';
import type { Routine } from '../../src/schema/types.js';

const info = (type: string, udtName: string) => ({ name: 'c', type, udtName }) as ColumnExpr['info'];
const column = (fields: Partial<ColumnExpr> = {}): ColumnExpr => ({ column: 'name', jsonPath: [], info: info('text', 'text'), ...fields });

function sql(build: (params: Params) => string): [string, (string | null)[]] {
  const params = new Params();
  return [build(params), params.values];
}

describe('identifiers and type names', () => {
  it('schema-qualified names quote each part', () => {
    assert.equal(qualified('api', 'my "table"'), '"api"."my ""table"""');
    assert.throws(() => qualified('api', 'a\u0000'), { message: 'identifier contains NUL' });
  });

  it('a type name is written only when it has the shape of one', () => {
    for (const type of ['integer', 'character varying', 'numeric(10,2)', 'text[]', 'int4range[][]', 'public."my type"', '_int4']) {
      assert.equal(safeTypeName(type), type);
    }
    for (const type of ['1int', 'text; drop table x', 'text[', "text'", 'a-b', '', ' text', 'text[]x']) {
      assert.throws(() => safeTypeName(type), { message: `unsafe type name: ${type}` }, type);
    }
  });

  it('parameters are numbered in the order they are added', () => {
    const params = new Params();
    assert.deepEqual([params.add('a'), params.add(null), params.add('c')], ['$1', '$2', '$3']);
    assert.deepEqual(params.values, ['a', null, 'c']);
  });
});

describe('JSON paths and columns', () => {
  it('keys are parameters, indexes integers written into the text; anything else is refused', () => {
    assert.deepEqual(sql((p) => jsonPathSql([{ arrow: '->', key: 'a b', isIndex: false }, { arrow: '->', key: '-1', isIndex: true }, { arrow: '->>', key: '007', isIndex: true }], p)), ['->$1::text->-1->>7', ['a b']]);
    assert.throws(() => jsonPathSql([{ arrow: '->', key: '1;drop', isIndex: true }], new Params()), { message: 'bad json index' });
    assert.throws(() => jsonPathSql([{ arrow: '->', key: '1.5', isIndex: true }], new Params()), { message: 'bad json index' });
  });

  it('a column of the node’s alias; with a path in parentheses; a computed field called with the row', () => {
    assert.deepEqual(sql((p) => columnSql('t', column(), p)), ['"t"."name"', []]);
    assert.deepEqual(sql((p) => columnSql('t', column({ column: 'data', jsonPath: [{ arrow: '->>', key: 'k', isIndex: false }] }), p)), ['("t"."data"->>$1::text)', ['k']]);
    const computed = { schema: 'api', name: 'full name' } as Routine;
    assert.deepEqual(sql((p) => columnSql('t', column({ column: 'full name', computed }), p)), ['"api"."full name"("t")', []]);
  });
});

describe('operators', () => {
  const op = (filter: string, expr: ColumnExpr) => sql((p) => operationSql('c', expr, parseFilterValue(filter).operation, p));

  it('patterns and regexes compare text: a non-text column, or a JSON value read with ->, is cast', () => {
    assert.deepEqual(op('like.a*', column({ info: info('character varying', 'varchar') })), ['c LIKE $1', ['a%']]);
    for (const udt of ['bpchar', 'citext', 'name']) assert.equal(op('ilike.a', column({ info: info(udt, udt) }))[0], 'c ILIKE $1', udt);
    assert.equal(op('match.a', column({ info: info('integer', 'int4') }))[0], 'c::text ~ $1');
    assert.equal(op('imatch.a', column({ info: undefined }))[0], 'c::text ~* $1');
    assert.equal(op('like.a', column({ jsonPath: [{ arrow: '->', key: 'k', isIndex: false }] }))[0], 'c::text LIKE $1');
    assert.equal(op('like.a', column({ info: info('jsonb', 'jsonb'), jsonPath: [{ arrow: '->>', key: 'k', isIndex: false }] }))[0], 'c LIKE $1');
    assert.deepEqual(op('eq.a*b', column()), ['c = $1', ['a*b']], '* is a wildcard only in patterns');
    assert.deepEqual(op('match.a*', column()), ['c ~ $1', ['a*']]);
    assert.deepEqual(op('gt.1', column({ info: info('integer', 'int4') })), ['c > $1', ['1']], 'no cast outside patterns');
  });

  it('range and array operators take the column’s type, unless they compare a JSON value or an unknown column', () => {
    assert.deepEqual(op('cs.{1}', column({ info: info('integer[]', '_int4') })), ['c @> $1::integer[]', ['{1}']]);
    assert.deepEqual(op('cs.{1}', column({ info: info('jsonb', 'jsonb'), jsonPath: [{ arrow: '->', key: 'k', isIndex: false }] })), ['c @> $1', ['{1}']]);
    assert.deepEqual(op('ov.{1}', column({ info: undefined })), ['c && $1', ['{1}']]);
    assert.throws(() => op('cs.{1}', column({ info: info('x; drop', 'x') })), /unsafe type name/);
    assert.deepEqual(op('eq.1', column({ info: info('integer', 'int4') })), ['c = $1', ['1']]);
  });

  it('full-text search: a tsvector column as it is; anything else through to_tsvector, with the language when given', () => {
    assert.deepEqual(op('fts.a', column()), ['to_tsvector(c) @@ to_tsquery($1)', ['a']]);
    assert.deepEqual(op('fts(simple).a', column({ info: info('tsvector', 'tsvector') })), ['c @@ to_tsquery($1::regconfig, $2)', ['simple', 'a']]);
    const jsonVector = column({ info: info('tsvector', 'tsvector'), jsonPath: [{ arrow: '->>', key: 'k', isIndex: false }] });
    assert.deepEqual(op('wfts.a', jsonVector), ['to_tsvector(c) @@ websearch_to_tsquery($1)', ['a']]);
  });

  it('is.<value> upper-cased; in-lists as one array parameter; a quantifier wraps the parameter', () => {
    assert.deepEqual(op('is.true', column()), ['c IS TRUE', []]);
    assert.deepEqual(op('is.FALSE', column()), ['c IS FALSE', []]);
    assert.deepEqual(op('in.(a,"b\\"c")', column()), ['c = ANY($1)', ['{"a","b\\"c"}']]);
    assert.deepEqual(op('gte(all).{1,2}', column({ info: info('integer', 'int4') })), ['c >= ALL($1)', ['{1,2}']]);
    assert.deepEqual(op('imatch(any).{^a}', column({ info: info('integer', 'int4') })), ['c::text ~* ANY($1)', ['{^a}']]);
  });
});

describe('conditions', () => {
  const filter = (value: string, negated = false): Condition => ({ kind: 'filter', expr: column(), negated, operation: parseFilterValue(value).operation });

  it('the tenant predicate compares the organization column with a parameter', () => {
    assert.deepEqual(sql((p) => conditionSql('t', { kind: 'tenant', column: 'organization_id', value: 'org-1' }, p)), ['"t"."organization_id" = $1', ['org-1']]);
  });

  it('an embed is null or not null by its body column', () => {
    assert.deepEqual(sql((p) => conditionSql('t', { kind: 'embed-null', embedAlias: 'e1', negated: false }, p)), ['"e1"."pgrst_body" IS NULL', []]);
    assert.deepEqual(sql((p) => conditionSql('t', { kind: 'embed-null', embedAlias: 'e1', negated: true }, p)), ['"e1"."pgrst_body" IS NOT NULL', []]);
  });

  it('filters, negated filters and nested and/or/not trees, parameters in reading order', () => {
    assert.deepEqual(sql((p) => conditionSql('t', filter('not.eq.a', true), p)), ['NOT ("t"."name" = $1)', ['a']]);
    const tree: Condition = {
      kind: 'logic', negated: true, operator: 'or', children: [
        filter('eq.a'),
        { kind: 'logic', negated: false, operator: 'and', children: [filter('eq.b'), filter('neq.c')] },
      ],
    };
    assert.deepEqual(sql((p) => conditionSql('t', tree, p)), ['NOT ("t"."name" = $1 OR ("t"."name" = $2 AND "t"."name" <> $3))', ['a', 'b', 'c']]);
  });

  it('mentionsEmbed finds an embed condition at any depth, and only that embed', () => {
    const embed = (alias: string): Condition => ({ kind: 'embed-null', embedAlias: alias, negated: false });
    const nested: Condition[] = [filter('eq.a'), { kind: 'logic', negated: false, operator: 'or', children: [filter('eq.b'), { kind: 'logic', negated: false, operator: 'and', children: [embed('e2')] }] }];
    assert.equal(mentionsEmbed(nested, 'e2'), true);
    assert.equal(mentionsEmbed(nested, 'e1'), false);
    assert.equal(mentionsEmbed([embed('e1')], 'e1'), true);
    assert.equal(mentionsEmbed([filter('eq.a'), { kind: 'tenant', column: 'e1', value: 'e1' }], 'e1'), false);
  });
});
