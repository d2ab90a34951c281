import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { SchemaCache } from '../../src/schema/types.js';
import { forEachBackend } from '../support/databases.js';
import { createFixture, engineClient, fixtureCache } from './fixture.js';

type Row = Record<string, unknown>;

forEachBackend('engine filters', (ctx) => {
  let cache: SchemaCache;
  const request = engineClient(() => ctx.db, () => cache);
  const ids = async (query: string): Promise<unknown[]> => {
    const res = await request('GET', `things?select=id&${query}`);
    assert.equal(res.status, 200, `${query}: ${res.body}`);
    return (res.json as Row[]).map((row) => row.id);
  };
  const error = async (query: string): Promise<{ status: number; body: Row }> => {
    const res = await request('GET', `things?${query}`);
    return { status: res.status, body: res.json as Row };
  };

  before(async () => {
    await createFixture(ctx.db);
    cache = await fixtureCache(ctx.db);
  });

  const cases: [string, number[]][] = [
    ['id=eq.2', [2]],
    ['id=neq.2', [1, 3, 4]],
    ['amount=gt.2', [2, 4]],
    ['amount=gte.2.5', [2, 4]],
    ['amount=lt.2.5', [1]],
    ['amount=lte.2.5', [1, 2]],
    ['name=like.*et*', [2]],
    ['name=like.*a', [1, 2, 3]],
    ['name=ilike.gAm*', [3]],
    ['name=match.^[ab]', [1, 2, 4]],
    ['name=imatch.^g', [3]],
    ['id=in.(1,3)', [1, 3]],
    ['name=in.("a,b \\"quoted\\"",beta)', [2, 4]],
    ['active=is.null', [3]],
    ['active=is.true', [1, 4]],
    ['active=is.false', [2]],
    ['active=is.unknown', [3]],
    ['active=not.is.null', [1, 2, 4]],
    ['active=isdistinct.true', [2, 3]],
    ['content=fts.fox', [1]],
    ['doc=fts(english).jumping', [3]],
    ['content=plfts.lazy dogs', [2]],
    ['doc=phfts(english).quick brown', [1]],
    ['doc=wfts(english).cats or fox', [1, 3]],
    ['doc=not.fts(english).fox', [2, 3]],
    ['tags=cs.{b}', [1, 2]],
    ['tags=cd.{a,b,c}', [1, 2, 3]],
    ['nums=ov.{1,5}', [1, 2]],
    ['data=cs.{"k":"v"}', [1]],
    ['data=cd.{"k":"w","n":2,"o":{"x":20},"extra":1}', [2]],
    ['during=cs.[2,3)', [1]],
    ['during=cd.[0,12)', [1, 2, 4]],
    ['during=ov.[4,6)', [1, 2]],
    ['during=sl.[10,20)', [1, 2]],
    ['during=sr.[6,7)', [3]],
    ['during=nxr.[0,6)', [1]],
    ['during=nxl.[5,6)', [2, 3]],
    ['during=adj.[10,20)', [2, 3]],
    ['id=eq(any).{1,3}', [1, 3]],
    ['name=like(any).{a*,b*}', [1, 2, 4]],
    ['name=like(all).{*a*,*l*}', [1]],
    ['amount=gt(all).{1,2}', [2, 4]],
    ['id=not.eq.1', [2, 3, 4]],
    ['id=not.in.(1,2)', [3, 4]],
    ['born=gte.2024-01-01', [1, 2]],
    ['mood=eq.happy', [1]],
    ['mood=in.(ok,sad)', [2, 3]],
    ['data->>k=eq.w', [2]],
    ['data->n=gt.1', [2, 3]],
    ['data->o->>x=eq.10', [1]],
    ['data->arr=cs.[2]', [1]],
    ['or=(id.eq.1,id.eq.3)', [1, 3]],
    ['or=(name.ilike.*A*,and(amount.gt.2,active.is.true))', [1, 2, 3, 4]],
    ['and=(id.gt.1,or(active.is.null,amount.gt.3))', [3, 4]],
    ['not.or=(id.eq.1,id.eq.2)', [3, 4]],
    ['or=(id.eq.1,not.and(id.gt.0,id.lt.4))', [1, 4]],
    ['or=(name.in.(alpha,beta),id.eq.4)', [1, 2, 4]],
    ['or=(tags.cs.{c},name.eq."a,b \\"quoted\\"")', [2, 4]],
    ['or=(data->>k.eq.v,data->n.eq.3)', [1, 3]],
    ['id=gt.1&id=lt.4', [2, 3]],
    ['name=eq.it%27s', []],
    ['data->>k=eq.it%27s', [3]],
  ];
  for (const [query, expected] of cases) {
    it(query, async () => {
      assert.deepEqual(await ids(query), expected);
    });
  }

  it('filters on embedded resources and or= inside an embed', async () => {
    const res = await request('GET', 'clients?select=id,projects(id)&projects.or=(id.eq.1,id.eq.4)&id=lte.2');
    assert.deepEqual(res.json, [
      { id: 1, projects: [{ id: 1 }] },
      { id: 2, projects: [{ id: 4 }] },
    ]);
  });

  it('a value with SQL in it stays a parameter', async () => {
    const hostile = encodeURIComponent("'; drop table fixture.things; --");
    assert.deepEqual(await ids(`name=eq.${hostile}`), []);
    assert.deepEqual(await ids(`or=(name.eq.${hostile},id.eq.1)`), [1]);
    const quotedColumn = await request('GET', `things?select=${encodeURIComponent('"id; drop table x; --"')}`);
    assert.equal(quotedColumn.status, 400);
    assert.equal((quotedColumn.json as Row).code, '42703');
    assert.deepEqual(await ids('id=eq.1'), [1]);
  });

  it('unknown columns, operators and bad values are 400s with PostgREST codes', async () => {
    assert.deepEqual(await error('nope=eq.1'), {
      status: 400,
      body: { code: '42703', message: 'column things.nope does not exist', details: null, hint: null },
    });
    const op = await error('id=noop.1');
    assert.equal(op.status, 400);
    assert.equal(op.body.code, 'PGRST100');
    assert.equal(op.body.details, 'unknown single value operator noop');
    assert.equal(op.body.message, '"failed to parse filter (noop.1)" (line 1, column 6)');
    const value = await error('id=eq.abc');
    assert.equal(value.status, 400);
    assert.equal(value.body.code, '22P02');
    const date = await error('born=eq.notadate');
    assert.equal(date.status, 400);
    assert.equal(date.body.code, '22007');
    const logic = await error('or=(id.eq.1');
    assert.equal(logic.status, 400);
    assert.equal(logic.body.code, 'PGRST100');
    const select = await error('select=id,');
    assert.equal(select.body.code, 'PGRST100');
    const order = await error('order=id.sideways');
    assert.equal(order.body.code, 'PGRST100');
    const deep = await error(`or=${'or('.repeat(11)}id.eq.1${')'.repeat(11)}`.replace('or=or(', 'or=('));
    assert.equal(deep.body.code, 'PGRST100');
  });
});
