import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/errors/api-error.js';
import { parseRequest } from '../../src/query/parse/request.js';
import { planRequest, topLevelRange } from '../../src/query/plan/index.js';
import type { ColumnExpr, EngineOptions, Plan } from '../../src/query/plan/types.js';
import { arrayLiteral, operationSql } from '../../src/query/sql/condition.js';
import { Params, quoteIdent } from '../../src/query/sql/quote.js';
import { buildStatement } from '../../src/query/sql/statement.js';
import { contentRange, rangeStatus } from '../../src/query/response.js';
import { parseFilterValue } from '../../src/query/parse/filter.js';
import { parseQueryString } from '../../src/query/parse/query-string.js';
import { memoryCache } from './memory-cache.js';

const OPTIONS: EngineOptions = { maxRows: 1000, requireFilterForWrites: false, basePath: '' };

function plan(method: string, pathAndQuery: string, init: { body?: unknown; headers?: Record<string, string>; options?: Partial<EngineOptions> } = {}): Plan {
  const [path = '', query = ''] = pathAndQuery.split(/\?(.*)/s);
  const parsed = parseRequest({
    method,
    path,
    query,
    headers: init.headers ?? {},
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return planRequest(parsed, memoryCache(), { ...OPTIONS, ...init.options });
}

function sql(method: string, pathAndQuery: string, init: Parameters<typeof plan>[2] = {}): { text: string; values: (string | null)[] } {
  return buildStatement(plan(method, pathAndQuery, init));
}

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('quoteIdent', () => {
  const cases: [string, string][] = [
    ['id', '"id"'],
    ['Mixed Case', '"Mixed Case"'],
    ['a"b', '"a""b"'],
    ['"; drop table x; --', '"""; drop table x; --"'],
    ['', '""'],
  ];
  for (const [input, expected] of cases) it(JSON.stringify(input), () => assert.equal(quoteIdent(input), expected));
  it('refuses NUL', () => assert.throws(() => quoteIdent('a\u0000b')));
});

describe('operator SQL', () => {
  const text: ColumnExpr = {
    column: 'name',
    jsonPath: [],
    info: { name: 'name', type: 'text', udtName: 'text' } as ColumnExpr['info'],
  };
  const int: ColumnExpr = { column: 'n', jsonPath: [], info: { name: 'n', type: 'integer', udtName: 'int4' } as ColumnExpr['info'] };
  const range: ColumnExpr = { column: 'r', jsonPath: [], info: { name: 'r', type: 'int4range', udtName: 'int4range' } as ColumnExpr['info'] };
  const vector: ColumnExpr = { column: 'v', jsonPath: [], info: { name: 'v', type: 'tsvector', udtName: 'tsvector' } as ColumnExpr['info'] };
  const cases: [string, ColumnExpr, string, (string | null)[]][] = [
    ['eq.1', int, 'c = $1', ['1']],
    ['neq.1', int, 'c <> $1', ['1']],
    ['gt.1', int, 'c > $1', ['1']],
    ['gte.1', int, 'c >= $1', ['1']],
    ['lt.1', int, 'c < $1', ['1']],
    ['lte.1', int, 'c <= $1', ['1']],
    ['like.a*b', text, 'c LIKE $1', ['a%b']],
    ['ilike.*x', text, 'c ILIKE $1', ['%x']],
    ['like.1*', int, 'c::text LIKE $1', ['1%']],
    ['match.^a', text, 'c ~ $1', ['^a']],
    ['imatch.^a', text, 'c ~* $1', ['^a']],
    ['isdistinct.x', text, 'c IS DISTINCT FROM $1', ['x']],
    ['in.(1,2)', int, 'c = ANY($1)', ['{"1","2"}']],
    ['is.null', int, 'c IS NULL', []],
    ['is.unknown', int, 'c IS UNKNOWN', []],
    ['cs.[1,2)', range, 'c @> $1::int4range', ['[1,2)']],
    ['cd.[1,2)', range, 'c <@ $1::int4range', ['[1,2)']],
    ['ov.[1,2)', range, 'c && $1::int4range', ['[1,2)']],
    ['sl.[1,2)', range, 'c << $1::int4range', ['[1,2)']],
    ['sr.[1,2)', range, 'c >> $1::int4range', ['[1,2)']],
    ['nxr.[1,2)', range, 'c &< $1::int4range', ['[1,2)']],
    ['nxl.[1,2)', range, 'c &> $1::int4range', ['[1,2)']],
    ['adj.[1,2)', range, 'c -|- $1::int4range', ['[1,2)']],
    ['fts.cat', vector, 'c @@ to_tsquery($1)', ['cat']],
    ['plfts(english).cat', text, 'to_tsvector($1::regconfig, c) @@ plainto_tsquery($1::regconfig, $2)', ['english', 'cat']],
    ['phfts.a b', vector, 'c @@ phraseto_tsquery($1)', ['a b']],
    ['wfts.a or b', vector, 'c @@ websearch_to_tsquery($1)', ['a or b']],
    ['eq(any).{1,2}', int, 'c = ANY($1)', ['{1,2}']],
    ['like(all).{a*,*b}', text, 'c LIKE ALL($1)', ['{a%,%b}']],
  ];
  for (const [filter, expr, expected, values] of cases) {
    it(filter, () => {
      const params = new Params();
      const { operation } = parseFilterValue(filter);
      assert.equal(operationSql('c', expr, operation, params), expected);
      assert.deepEqual(params.values, values);
    });
  }
  it('array literals escape quotes and backslashes', () => {
    assert.equal(arrayLiteral(['a', 'b"c', 'd\\e', 'x,y']), '{"a","b\\"c","d\\\\e","x,y"}');
  });
});

describe('statements', () => {
  it('a read is one SELECT with lateral embeds, limited to maxRows, values as parameters', () => {
    const s = sql('GET', 'clients?select=name,projects(name)&name=eq.x%27y&projects.name=like.a*');
    assert.match(s.text, /^SELECT NULL::bigint AS total, count\(\*\) AS page_total, coalesce\(json_agg\("pgrst_t"\), '\[\]'::json\)::text AS body FROM \(SELECT /);
    assert.match(s.text, /LEFT JOIN LATERAL \(SELECT json_agg\("pgrst_2_r"\) AS "pgrst_body" FROM \(SELECT "pgrst_1"\."name" AS "name" FROM "api"\."projects" AS "pgrst_1" WHERE "pgrst_1"\."client_id" = "pgrst_0"\."id" AND "pgrst_1"\."name" LIKE \$\d/);
    assert.match(s.text, /ORDER BY "pgrst_0"\."id" LIMIT 1000\)/);
    assert.ok(!s.text.includes("x'y"));
    assert.deepEqual([...s.values].sort(), ['a%', "x'y"]);
  });

  it('exact counts add a count sub-select over the same filters', () => {
    const s = sql('GET', 'clients?id=gt.1', { headers: { prefer: 'count=exact' } });
    assert.match(s.text, /^SELECT \(SELECT count\(\*\) FROM \(SELECT 1 FROM "api"\."clients" AS "pgrst_0" WHERE "pgrst_0"\."id" > \$1\) AS "pgrst_c"\) AS total/);
  });

  it('!inner turns the embed into an INNER JOIN', () => {
    const s = sql('GET', 'clients?select=id,projects!inner(id)');
    assert.match(s.text, /INNER JOIN LATERAL \(SELECT json_agg\("pgrst_2_r"\) AS "pgrst_body" .*\) AS "pgrst_2" ON "pgrst_2"\."pgrst_body" IS NOT NULL/);
  });

  it('inserts read the raw body through json_populate_recordset', () => {
    const body = [{ name: 'a' }, { name: 'b' }];
    const s = sql('POST', 'clients', { body });
    assert.match(s.text, /^WITH "pgrst_source" AS \(INSERT INTO "api"\."clients" AS "pgrst_ins" \("name"\) SELECT "pgrst_r"\."name" FROM json_populate_recordset\(NULL::"api"\."clients", CASE WHEN json_typeof\(\$1::json\)/);
    assert.equal(s.values[0], JSON.stringify(body));
    assert.match(s.text, /RETURNING 1 AS "pgrst_one"\)/);
  });

  it('upsert adds ON CONFLICT', () => {
    const merge = sql('POST', 'clients', { body: { id: 1, name: 'a' }, headers: { prefer: 'resolution=merge-duplicates' } });
    assert.match(merge.text, /ON CONFLICT \("id"\) DO UPDATE SET "name" = EXCLUDED\."name"/);
    const ignore = sql('POST', 'clients?on_conflict=name', { body: { id: 1, name: 'a' }, headers: { prefer: 'resolution=ignore-duplicates' } });
    assert.match(ignore.text, /ON CONFLICT \("name"\) DO NOTHING/);
  });

  it('update and delete filter the target; tenant predicates everywhere', () => {
    const tenant = { column: 'org_id', value: '7' };
    const update = sql('PATCH', 'projects?id=eq.1', { body: { name: 'x' }, options: { tenant } });
    assert.match(update.text, /UPDATE "api"\."projects" AS "pgrst_0" SET "name" = "pgrst_r"\."name" FROM json_populate_record\(NULL::"api"\."projects", \$\d::json\) AS "pgrst_r" WHERE "pgrst_0"\."org_id" = \$\d AND "pgrst_0"\."id" = \$\d/);
    assert.ok(update.values.includes('7'));
    const read = sql('GET', 'clients?select=id,projects(id)', { options: { tenant } });
    // Each table read is filtered, the parent in its page (and again outside it: src/query/sql/read.ts, pageFirstSql).
    assert.match(read.text, /FROM "api"\."clients" AS "pgrst_0" WHERE "pgrst_0"\."org_id" = \$\d/);
    assert.match(read.text, /FROM "api"\."projects" AS "pgrst_1" WHERE [^)]* AND "pgrst_1"\."org_id" = \$\d/);
    const del = sql('DELETE', 'projects?id=eq.1', { options: { tenant } });
    assert.match(del.text, /DELETE FROM "api"\."projects" AS "pgrst_0" WHERE "pgrst_0"\."org_id" = \$1 AND "pgrst_0"\."id" = \$2/);
  });
});

describe('plan errors', () => {
  it('unknown table, column, relationship', () => {
    assert.equal(apiError(() => plan('GET', 'client')).code, 'PGRST205');
    assert.equal(apiError(() => plan('GET', 'client')).hint, "Perhaps you meant the table 'api.clients'");
    assert.deepEqual(apiError(() => plan('GET', 'clients?select=nope')).toBody(), {
      code: '42703',
      message: 'column clients.nope does not exist',
      details: null,
      hint: null,
    });
    assert.equal(apiError(() => plan('GET', 'clients?order=nope')).code, '42703');
    assert.equal(apiError(() => plan('GET', 'clients?select=readonly(*)')).code, 'PGRST200');
    assert.equal(apiError(() => plan('POST', 'clients', { body: { nope: 1 } })).code, 'PGRST204');
  });
  it('405 with Allow from privileges', () => {
    const error = apiError(() => plan('POST', 'readonly', { body: { id: 1 } }));
    assert.equal(error.status, 405);
    assert.deepEqual(error.headers, { Allow: 'OPTIONS,GET,HEAD' });
  });
  it('generated columns: ignored, or refused with handling=strict', () => {
    const p = plan('POST', 'generated', { body: { id: 1, upper: 'X' } });
    assert.deepEqual(p.type === 'insert' ? p.columns.map((c) => c.name) : null, ['id']);
    assert.equal(apiError(() => plan('POST', 'generated', { body: { id: 1, upper: 'X' }, headers: { prefer: 'handling=strict' } })).code, 'SK407');
  });
  it('filters required for PATCH/DELETE when configured', () => {
    const error = apiError(() => plan('DELETE', 'clients', { options: { requireFilterForWrites: true } }));
    assert.deepEqual(error.toBody(), { code: 'SK400', message: 'a filter is required for PATCH and DELETE', details: null, hint: null });
    assert.equal(plan('DELETE', 'clients?or=(id.eq.1,id.eq.2)', { options: { requireFilterForWrites: true } }).type, 'delete');
    const tenantOnly = apiError(() => plan('DELETE', 'projects', { options: { requireFilterForWrites: true, tenant: { column: 'org_id', value: '1' } } }));
    assert.equal(tenantOnly.code, 'SK400');
  });
});

describe('ranges and Content-Range', () => {
  it('limit/offset ∩ Range header, capped', () => {
    const q = (s: string) => parseQueryString(s, { isRpc: false });
    assert.deepEqual(topLevelRange(q(''), undefined, 1000), { offset: 0, limit: 1000 });
    assert.deepEqual(topLevelRange(q('limit=5000'), undefined, 1000), { offset: 0, limit: 1000 });
    assert.deepEqual(topLevelRange(q('limit=10&offset=5'), undefined, 1000), { offset: 5, limit: 10 });
    assert.deepEqual(topLevelRange(q('offset=5'), { offset: 0, limit: 10 }, 1000), { offset: 5, limit: 5 });
    assert.deepEqual(topLevelRange(q('limit=3'), { offset: 1, limit: 10 }, 1000), { offset: 1, limit: 2 });
    assert.equal(apiError(() => topLevelRange(q('limit=-1'), undefined, 1000)).status, 416);
  });
  it('PostgREST Content-Range and status', () => {
    assert.equal(contentRange(0, 9, undefined), '0-9/*');
    assert.equal(contentRange(0, 9, 120), '0-9/120');
    assert.equal(contentRange(0, -1, 0), '*/0');
    assert.equal(contentRange(5, 4, undefined), '*/*');
    assert.equal(rangeStatus(0, 9, undefined), 200);
    assert.equal(rangeStatus(0, 9, 10), 200);
    assert.equal(rangeStatus(0, 9, 120), 206);
    assert.equal(rangeStatus(200, 199, 120), 416);
  });
});

describe('bulk insert limit', () => {
  it('more rows than maxInsertRows is a 413', () => {
    const body = Array.from({ length: 3 }, (_, i) => ({ id: i, name: `n${i}` }));
    const error = apiError(() => plan('POST', 'clients', { body, options: { maxInsertRows: 2 } }));
    assert.equal(error.status, 413);
    assert.equal(error.code, 'SK440');
    assert.equal(plan('POST', 'clients', { body, options: { maxInsertRows: 3 } }).type, 'insert');
  });
});
