import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { SchemaCache } from '../../src/schema/types.js';
import { forEachBackend } from '../support/databases.js';
import { createFixture, engineClient, FIXTURE_ROLE, fixtureCache } from './fixture.js';

type Row = Record<string, unknown>;

forEachBackend('engine writes', (ctx) => {
  let cache: SchemaCache;
  let roleCache: SchemaCache;
  const request = engineClient(() => ctx.db, () => cache);
  const rows = async (sql: string): Promise<Row[]> => (await ctx.db.query(sql)).rows;

  before(async () => {
    await createFixture(ctx.db);
    cache = await fixtureCache(ctx.db);
    roleCache = await fixtureCache(ctx.db, FIXTURE_ROLE);
  });

  it('POST one object: 201, no body, Content-Range */*', async () => {
    const res = await request('POST', 'clients', { body: { id: 10, name: 'Ten' } });
    assert.equal(res.status, 201);
    assert.equal(res.body, undefined);
    assert.equal(res.headers['Content-Range'], '*/*');
    assert.equal(res.headers['Location'], undefined);
    assert.deepEqual(await rows('SELECT name FROM fixture.clients WHERE id = 10'), [{ name: 'Ten' }]);
  });

  it('POST bulk with return=representation, select and count', async () => {
    const res = await request('POST', 'clients?select=id,name', {
      headers: { Prefer: 'return=representation, count=exact' },
      body: [
        { id: 11, name: 'Eleven' },
        { id: 12, name: 'Twelve' },
      ],
    });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json, [
      { id: 11, name: 'Eleven' },
      { id: 12, name: 'Twelve' },
    ]);
    assert.equal(res.headers['Content-Range'], '*/2');
    assert.equal(res.headers['Preference-Applied'], 'return=representation, count=exact');
    assert.equal(res.headers['Content-Type'], 'application/json; charset=utf-8');
  });

  it('POST representation can embed related rows', async () => {
    const res = await request('POST', 'projects?select=name,clients(name)', {
      headers: { Prefer: 'return=representation' },
      body: { id: 20, name: 'Azure', client_id: 1 },
    });
    assert.deepEqual(res.json, [{ name: 'Azure', clients: { name: 'Microsoft' } }]);
  });

  it('return=headers-only gives PostgREST Location', async () => {
    const res = await request('POST', 'clients', { headers: { Prefer: 'return=headers-only' }, body: { id: 13, name: 'x' } });
    assert.equal(res.status, 201);
    assert.equal(res.headers['Location'], '/clients?id=eq.13');
    const based = await request('POST', 'clients', {
      headers: { Prefer: 'return=headers-only' },
      body: { id: 14, name: 'y' },
      options: { basePath: '/v1' },
    });
    assert.equal(based.headers['Location'], '/v1/clients?id=eq.14');
  });

  it('columns= picks the columns: other keys are ignored, absent keys are null', async () => {
    const res = await request('POST', 'items?columns=name,note&select=name,qty,note', {
      headers: { Prefer: 'return=representation' },
      body: [{ name: 'c1', qty: 4, note: 'n' }, { name: 'c2' }],
    });
    assert.equal(res.status, 201, res.body);
    assert.deepEqual(res.json, [
      { name: 'c1', qty: 1, note: 'n' },
      { name: 'c2', qty: 1, note: null },
    ]);
    const unknown = await request('POST', 'items?columns=name,nope', { body: { name: 'x' } });
    assert.equal((unknown.json as Row).code, 'PGRST204');
  });

  it('missing=default', async () => {
    const res = await request('POST', 'items?columns=name,qty,note&select=name,qty,note,secret', {
      headers: { Prefer: 'return=representation, missing=default' },
      body: [{ name: 'd1' }, { name: 'd2', qty: 7, note: 'n' }],
    });
    assert.equal(res.status, 201, res.body);
    assert.deepEqual(res.json, [
      { name: 'd1', qty: 1, note: null, secret: 'hidden' },
      { name: 'd2', qty: 7, note: 'n', secret: 'hidden' },
    ]);
    assert.equal(res.headers['Preference-Applied'], 'missing=default, return=representation');
  });

  it('bulk objects with different keys are refused', async () => {
    const res = await request('POST', 'items', { body: [{ name: 'a' }, { name: 'b', qty: 2 }] });
    assert.equal(res.status, 400);
    assert.deepEqual(res.json, { code: 'PGRST102', message: 'All object keys must match', details: null, hint: null });
  });

  it('upsert: merge-duplicates updates, ignore-duplicates skips', async () => {
    const merge = await request('POST', 'items?on_conflict=name&select=name,qty', {
      headers: { Prefer: 'resolution=merge-duplicates, return=representation' },
      body: [{ name: 'first', qty: 50 }, { name: 'brand new', qty: 1 }],
    });
    assert.equal(merge.status, 201, merge.body);
    assert.deepEqual(merge.json, [
      { name: 'first', qty: 50 },
      { name: 'brand new', qty: 1 },
    ]);
    assert.equal(merge.headers['Preference-Applied'], 'resolution=merge-duplicates, return=representation');
    const ignore = await request('POST', 'items?on_conflict=name&select=name,qty', {
      headers: { Prefer: 'resolution=ignore-duplicates, return=representation' },
      body: { name: 'first', qty: 99 },
    });
    assert.deepEqual(ignore.json, []);
    assert.deepEqual(await rows(`SELECT qty FROM fixture.items WHERE name = 'first'`), [{ qty: 50 }]);
    const byPk = await request('POST', 'clients', {
      headers: { Prefer: 'resolution=merge-duplicates' },
      body: { id: 1, name: 'Microsoft Corp' },
    });
    assert.equal(byPk.status, 200, 'all rows updated: 200 as PostgREST');
    assert.deepEqual(await rows('SELECT name FROM fixture.clients WHERE id = 1'), [{ name: 'Microsoft Corp' }]);
  });

  it('conflicts and constraint violations map to PostgREST statuses', async () => {
    const dup = await request('POST', 'clients', { body: { id: 2, name: 'again' } });
    assert.equal(dup.status, 409);
    assert.equal((dup.json as Row).code, '23505');
    assert.match(String((dup.json as Row).details), /Key \(id\)=\(2\) already exists/);
    const fk = await request('POST', 'projects', { body: { id: 99, name: 'x', client_id: 999 } });
    assert.equal(fk.status, 409);
    assert.equal((fk.json as Row).code, '23503');
    const notNull = await request('POST', 'clients', { body: { id: 98 } });
    assert.equal(notNull.status, 400);
    assert.equal((notNull.json as Row).code, '23502');
    const badValue = await request('POST', 'clients', { body: { id: 'abc', name: 'x' } });
    assert.equal(badValue.status, 400);
    assert.equal((badValue.json as Row).code, '22P02');
  });

  it('unknown body columns are PGRST204; generated columns are ignored, or refused under handling=strict', async () => {
    const unknown = await request('POST', 'clients', { body: { id: 30, nope: 1 } });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.json, {
      code: 'PGRST204',
      message: "Could not find the 'nope' column of 'clients' in the schema cache",
      details: null,
      hint: null,
    });
    const generated = await request('POST', 'things?select=id,name_upper', {
      headers: { Prefer: 'return=representation' },
      body: { id: 30, name: 'delta', name_upper: 'NOPE' },
    });
    assert.equal(generated.status, 201, generated.body);
    assert.deepEqual(generated.json, [{ id: 30, name_upper: 'DELTA' }]);
    const strict = await request('POST', 'things', {
      headers: { Prefer: 'handling=strict' },
      body: { id: 31, name: 'eps', name_upper: 'NOPE' },
    });
    assert.equal(strict.status, 400);
    assert.equal((strict.json as Row).code, 'SK407');
    const badPref = await request('GET', 'clients', { headers: { Prefer: 'handling=strict, bogus=1' } });
    assert.equal(badPref.status, 400);
    assert.deepEqual(badPref.json, {
      code: 'PGRST122',
      message: 'Invalid preferences given with handling=strict',
      details: 'Invalid preferences: bogus=1',
      hint: null,
    });
    const lenient = await request('GET', 'clients?id=eq.2', { headers: { Prefer: 'bogus=1' } });
    assert.equal(lenient.status, 200);
  });

  it('columns the role may not write are ignored (strict: refused)', async () => {
    const res = await request('POST', 'items?select=name,secret', {
      cache: roleCache,
      headers: { Prefer: 'return=representation' },
      body: { name: 'role row', secret: 'mine' },
    });
    assert.equal(res.status, 201, res.body);
    assert.deepEqual(res.json, [{ name: 'role row', secret: 'hidden' }]);
    const strict = await request('PATCH', 'items?name=eq.first', {
      cache: roleCache,
      headers: { Prefer: 'handling=strict' },
      body: { secret: 'x' },
    });
    assert.equal(strict.status, 400);
    assert.equal((strict.json as Row).code, 'SK407');
  });

  it('PATCH updates every matching row: 204, or 200 with representation', async () => {
    const none = await request('PATCH', 'projects?client_id=eq.2', { body: { name: 'Apple thing' } });
    assert.equal(none.status, 204);
    assert.equal(none.headers['Content-Range'], '0-1/*');
    const rep = await request('PATCH', 'projects?id=eq.3&select=id,name', {
      headers: { Prefer: 'return=representation, count=exact' },
      body: { name: 'iOS' },
    });
    assert.equal(rep.status, 200);
    assert.deepEqual(rep.json, [{ id: 3, name: 'iOS' }]);
    assert.equal(rep.headers['Content-Range'], '0-0/1');
    const nothing = await request('PATCH', 'projects?id=eq.999', { body: { name: 'x' } });
    assert.equal(nothing.status, 204);
    assert.equal(nothing.headers['Content-Range'], '*/*');
    const orFilter = await request('PATCH', 'projects?or=(id.eq.1,id.eq.2)&select=id', {
      headers: { Prefer: 'return=representation' },
      body: { name: 'Windows' },
    });
    assert.deepEqual(orFilter.json, [{ id: 1 }, { id: 2 }]);
    const array = await request('PATCH', 'projects?id=eq.1', { body: [{ name: 'x' }] });
    assert.equal(array.status, 400);
    assert.equal((array.json as Row).code, 'PGRST102');
  });

  it('DELETE: 204, or 200 with the deleted rows', async () => {
    await request('POST', 'clients', { body: [{ id: 40, name: 'd40' }, { id: 41, name: 'd41' }, { id: 42, name: 'd42' }] });
    const minimal = await request('DELETE', 'clients?id=eq.40');
    assert.equal(minimal.status, 204);
    assert.equal(minimal.headers['Content-Range'], '*/*');
    const rep = await request('DELETE', 'clients?id=in.(41,42)', { headers: { Prefer: 'return=representation, count=exact' } });
    assert.equal(rep.status, 200);
    assert.deepEqual(rep.json, [
      { id: 41, name: 'd41' },
      { id: 42, name: 'd42' },
    ]);
    assert.equal(rep.headers['Content-Range'], '*/2');
    assert.deepEqual(await rows('SELECT id FROM fixture.clients WHERE id >= 40'), []);
  });

  it('PATCH/DELETE without a filter: refused when required, whole table otherwise', async () => {
    const refused = await request('DELETE', 'logs', { options: { requireFilterForWrites: true } });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json, { code: 'SK400', message: 'a filter is required for PATCH and DELETE', details: null, hint: null });
    const patch = await request('PATCH', 'logs', { body: { line: 'x' }, options: { requireFilterForWrites: true } });
    assert.equal(patch.status, 400);
    assert.deepEqual(await rows('SELECT line FROM fixture.logs'), [{ line: 'started' }]);
    const allowed = await request('PATCH', 'logs', { body: { line: 'all' } });
    assert.equal(allowed.status, 204);
    assert.deepEqual(await rows('SELECT line FROM fixture.logs'), [{ line: 'all' }]);
  });

  it('Prefer: tx=rollback answers as usual and leaves nothing behind', async () => {
    const res = await request('POST', 'clients?select=id', {
      headers: { Prefer: 'tx=rollback, return=representation' },
      body: { id: 50, name: 'ghost' },
    });
    assert.equal(res.status, 201);
    assert.equal(res.rollback, true);
    assert.deepEqual(res.json, [{ id: 50 }]);
    assert.equal(res.headers['Preference-Applied'], 'return=representation, tx=rollback');
    assert.deepEqual(await rows('SELECT id FROM fixture.clients WHERE id = 50'), []);
  });

  it('single-object Accept on a write: the object, or 406 and nothing written', async () => {
    const one = await request('POST', 'clients', {
      headers: { Prefer: 'return=representation', Accept: 'application/vnd.pgrst.object+json' },
      body: { id: 60, name: 'sixty' },
    });
    assert.equal(one.status, 201);
    assert.deepEqual(one.json, { id: 60, name: 'sixty' });
    const two = await request('POST', 'clients', {
      headers: { Prefer: 'return=representation', Accept: 'application/vnd.pgrst.object+json' },
      body: [{ id: 61, name: 'a' }, { id: 62, name: 'b' }],
    });
    assert.equal(two.status, 406);
    assert.equal(two.rollback, true);
    assert.deepEqual(await rows('SELECT id FROM fixture.clients WHERE id IN (61, 62)'), []);
  });

  it('malformed JSON is 400 PGRST102; wrong Content-Type 415', async () => {
    const bad = await request('POST', 'clients', { body: '{"id": 1,' });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json, { code: 'PGRST102', message: 'Empty or invalid json', details: null, hint: null });
    const empty = await request('POST', 'clients', { body: '' });
    assert.equal(empty.status, 400);
    const xml = await request('POST', 'clients', { headers: { 'Content-Type': 'application/xml' }, body: '<a/>' });
    assert.equal(xml.status, 415);
    assert.equal((xml.json as Row).code, 'PGRST107');
  });

  it('a hostile value in a body is data', async () => {
    const name = "'); drop table fixture.clients; --";
    const res = await request('POST', 'clients?select=name', {
      headers: { Prefer: 'return=representation' },
      body: { id: 70, name },
    });
    assert.deepEqual(res.json, [{ name }]);
    assert.equal((await rows('SELECT count(*)::int AS n FROM fixture.clients WHERE id = 70'))[0]?.n, 1);
  });

  it('tenant option: reads, embeds, writes and deletes only see the tenant rows', async () => {
    const tenant = { column: 'org', value: 'org-a' };
    const read = await request('GET', 'accounts?select=id', { options: { tenant } });
    assert.deepEqual(read.json, [{ id: 1 }, { id: 2 }]);
    const other = await request('GET', 'accounts?id=eq.3', { options: { tenant } });
    assert.deepEqual(other.json, []);
    const patch = await request('PATCH', 'accounts?id=eq.3', { body: { name: 'hacked' }, options: { tenant } });
    assert.equal(patch.headers['Content-Range'], '*/*');
    const del = await request('DELETE', 'accounts?id=gt.0', {
      headers: { Prefer: 'return=representation' },
      options: { tenant },
    });
    assert.deepEqual((del.json as Row[]).map((r) => r.id), [1, 2]);
    const insert = await request('POST', 'accounts?select=id,org', {
      headers: { Prefer: 'return=representation' },
      body: { id: 4, org: 'org-b', name: 'sneaky' },
      options: { tenant },
    });
    assert.equal(insert.status, 201, insert.body);
    assert.deepEqual(insert.json, [{ id: 4, org: 'org-a' }]);
    assert.deepEqual(await rows(`SELECT id, name FROM fixture.accounts ORDER BY id`), [
      { id: 3, name: 'B one' },
      { id: 4, name: 'sneaky' },
    ]);
  });

  it('one statement per write request', async () => {
    const res = await request('POST', 'projects?select=name,clients(name,projects(name))', {
      headers: { Prefer: 'return=representation, count=exact' },
      body: [{ id: 80, name: 'p80', client_id: 2 }],
    });
    assert.equal(res.status, 201);
    assert.equal(res.statements.length, 1);
  });
});

forEachBackend('engine CSV insert', (ctx) => {
  let cache: SchemaCache;
  const request = engineClient(() => ctx.db, () => cache);
  before(async () => {
    await createFixture(ctx.db);
    cache = await fixtureCache(ctx.db);
  });
  it('POST text/csv inserts the rows; NULL is null', async () => {
    const res = await request('POST', 'items?select=name,qty,note', {
      headers: { 'Content-Type': 'text/csv', Prefer: 'return=representation' },
      body: 'name,qty,note\ncsv one,3,NULL\n"csv, ""two""",4,"NULL"\n',
    });
    assert.equal(res.status, 201, res.body);
    assert.deepEqual(res.json, [
      { name: 'csv one', qty: 3, note: null },
      { name: 'csv, "two"', qty: 4, note: 'NULL' },
    ]);
  });
});
