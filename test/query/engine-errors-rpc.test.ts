import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { SchemaCache } from '../../src/schema/types.js';
import { forEachBackend } from '../support/databases.js';
import { createFixture, engineClient, FIXTURE_ROLE, fixtureCache } from './fixture.js';

type Row = Record<string, unknown>;

forEachBackend('engine errors and rpc', (ctx) => {
  let cache: SchemaCache;
  let roleCache: SchemaCache;
  const request = engineClient(() => ctx.db, () => cache);

  before(async () => {
    await createFixture(ctx.db);
    cache = await fixtureCache(ctx.db);
    roleCache = await fixtureCache(ctx.db, FIXTURE_ROLE);
  });

  it('unknown table: 404 PGRST205 with a suggestion', async () => {
    const res = await request('GET', 'client');
    assert.equal(res.status, 404);
    assert.deepEqual(res.json, {
      code: 'PGRST205',
      message: "Could not find the table 'fixture.client' in the schema cache",
      details: null,
      hint: "Perhaps you meant the table 'fixture.clients'",
    });
    const far = await request('GET', 'zzzzzz');
    assert.equal((far.json as Row).hint, null);
  });

  it('unknown relationship: 400 PGRST200', async () => {
    const res = await request('GET', 'clients?select=*,tasks(*)');
    assert.equal(res.status, 400);
    assert.deepEqual(res.json, {
      code: 'PGRST200',
      message: "Could not find a relationship between 'clients' and 'tasks' in the schema cache",
      details: "Searched for a foreign key relationship between 'clients' and 'tasks' in the schema 'fixture', but no matches were found.",
      hint: null,
    });
    const typo = await request('GET', 'clients?select=*,project(*)');
    assert.equal((typo.json as Row).hint, "Perhaps you meant 'projects' instead of 'project'.");
    const hinted = await request('GET', 'clients?select=*,projects!nope(*)');
    assert.match(String((hinted.json as Row).details), /using the hint 'nope'/);
  });

  it('filters on embeds not in select: 400 PGRST108', async () => {
    const res = await request('GET', 'clients?projects.id=eq.1');
    assert.equal(res.status, 400);
    assert.equal((res.json as Row).code, 'PGRST108');
  });

  it('methods the role has no privilege for: 405 with Allow', async () => {
    const post = await request('POST', 'logs', { cache: roleCache, body: { id: 2, line: 'x' } });
    assert.equal(post.status, 405);
    assert.equal(post.headers['Allow'], 'OPTIONS,GET,HEAD');
    assert.equal((post.json as Row).code, 'SK405');
    const del = await request('DELETE', 'clients?id=eq.1', { cache: roleCache });
    assert.equal(del.status, 405);
    assert.equal(del.headers['Allow'], 'OPTIONS');
    const options = await request('OPTIONS', 'items', { cache: roleCache });
    assert.equal(options.headers['Allow'], 'OPTIONS,GET,HEAD,POST,PATCH,DELETE');
    const put = await request('PUT', 'clients?id=eq.1', { body: { id: 1, name: 'x' } });
    assert.equal(put.status, 405);
    assert.equal((put.json as Row).code, 'PGRST117');
    assert.equal(put.headers['Allow'], 'OPTIONS,GET,HEAD,POST,PATCH,DELETE');
  });

  it('limit on PATCH/DELETE is refused rather than ignored', async () => {
    const res = await request('DELETE', 'clients?id=gt.0&limit=1');
    assert.equal(res.status, 400);
    assert.equal((res.json as Row).code, 'SK402');
  });

  it('rpc: scalar via GET, setof table via POST with select and filters, setof scalar, void', async () => {
    const scalar = await request('GET', 'rpc/add_them?a=2&b=3');
    assert.equal(scalar.status, 200);
    assert.equal(scalar.body, '5');
    const defaulted = await request('GET', 'rpc/greet');
    assert.equal(defaulted.json, 'hello world');
    const posted = await request('POST', 'rpc/greet', { body: { name: 'you' } });
    assert.equal(posted.json, 'hello you');
    const table = await request('POST', 'rpc/projects_of?select=name,clients(name)&name=like.*7&order=id.desc', {
      body: { cid: 1 },
    });
    assert.equal(table.status, 200, table.body);
    assert.deepEqual(table.json, [{ name: 'Windows 7', clients: { name: 'Microsoft' } }]);
    const getTable = await request('GET', 'rpc/projects_of?cid=2&select=id', { headers: { Prefer: 'count=exact' } });
    assert.deepEqual(getTable.json, [{ id: 3 }, { id: 4 }]);
    assert.equal(getTable.headers['Content-Range'], '0-1/2');
    const ids = await request('GET', 'rpc/client_ids');
    assert.deepEqual(ids.json, [1, 2, 3]);
    const arrays = await request('POST', 'rpc/sum_all', { body: { nums: [1, 2, 3], extra: { add: 10 }, label: 'total' } });
    assert.equal(arrays.status, 200, arrays.body);
    assert.equal(arrays.json, 'total:16');
    const arraysGet = await request('GET', 'rpc/sum_all?nums=%7B4,5%7D');
    assert.equal(arraysGet.json, 'sum:9');
    const options = await request('OPTIONS', 'rpc/add_them');
    assert.equal(options.headers['Allow'], 'OPTIONS,GET,HEAD,POST');
    const volatileOptions = await request('OPTIONS', 'rpc/do_nothing');
    assert.equal(volatileOptions.headers['Allow'], 'OPTIONS,POST');
    const nothing = await request('POST', 'rpc/do_nothing');
    assert.equal(nothing.status, 204);
    assert.equal(nothing.body, undefined);
  });

  it('rpc: unknown function or arguments is 404 PGRST202', async () => {
    const res = await request('GET', 'rpc/add_them?a=1&c=2');
    assert.equal(res.status, 404);
    assert.deepEqual(res.json, {
      code: 'PGRST202',
      message: 'Could not find the function fixture.add_them(a, c) in the schema cache',
      details: 'Searched for the function fixture.add_them with parameters a, c, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function fixture.add_them(a, b)',
    });
    const typo = await request('POST', 'rpc/add_them2', { body: { a: 1, b: 2 } });
    assert.equal((typo.json as Row).hint, 'Perhaps you meant to call the function fixture.add_them');
    assert.equal(
      (typo.json as Row).details,
      'Searched for the function fixture.add_them2 with parameters a, b or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
    );
    const badArg = await request('GET', 'rpc/add_them?a=x&b=1');
    assert.equal(badArg.status, 400);
    assert.equal((badArg.json as Row).code, '22P02');
  });
});
