/**
 * The real `@supabase/postgrest-js` 1.x client, unchanged, against the engine: its `fetch` is routed straight to
 * runRequest (no HTTP server), so this checks the URL, header and body conventions end to end.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { PostgrestClient } from '@supabase/postgrest-js';
import { runRequest } from '../../src/query/run.js';
import type { SchemaCache } from '../../src/schema/types.js';
import { forEachBackend } from '../support/databases.js';
import { createFixture, DEFAULT_OPTIONS, fixtureCache } from './fixture.js';

class Rollback extends Error {}

forEachBackend('postgrest-js against the engine', (ctx) => {
  let cache: SchemaCache;
  const fetchAdapter = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key.toLowerCase()] = value;
    });
    const body = typeof init?.body === 'string' ? init.body : undefined;
    let response: Awaited<ReturnType<typeof runRequest>> | undefined;
    try {
      await ctx.db.transaction(async (tx) => {
        response = await runRequest(
          tx,
          { method: init?.method ?? 'GET', path: url.pathname.replace(/^\/rest\//, ''), query: url.search.slice(1), headers, body },
          cache,
          DEFAULT_OPTIONS,
        );
        if (response.rollback) throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
    const result = response as NonNullable<typeof response>;
    const nullBody = result.status === 204 || result.body === undefined;
    return new Response(nullBody ? null : String(result.body), { status: result.status, headers: result.headers });
  };
  const client = () => new PostgrestClient('http://engine.test/rest', { fetch: fetchAdapter as typeof fetch });

  before(async () => {
    await createFixture(ctx.db);
    cache = await fixtureCache(ctx.db);
  });

  it('select with embeds, filters, order, range and count', async () => {
    const { data, error, count, status } = await client()
      .from('clients')
      .select('name, projects(name)', { count: 'exact' })
      .in('id', [1, 2])
      .order('name', { ascending: true })
      .order('id', { foreignTable: 'projects', ascending: false })
      .range(0, 0);
    assert.equal(error, null);
    assert.equal(status, 206);
    assert.equal(count, 2);
    assert.deepEqual(data, [{ name: 'Apple', projects: [{ name: 'OSX' }, { name: 'IOS' }] }]);
  });

  it('filters: or, not, is, like, contains, textSearch, range operators, match', async () => {
    const things = () => client().from('things').select('id');
    const ids = async (q: PromiseLike<{ data: { id: number }[] | null; error: unknown }>) => {
      const { data, error } = await q;
      assert.equal(error, null);
      return (data ?? []).map((r) => r.id);
    };
    assert.deepEqual(await ids(things().or('id.eq.1,name.ilike.*GAM*').order('id')), [1, 3]);
    assert.deepEqual(await ids(things().not('active', 'is', null).order('id')), [1, 2, 4]);
    assert.deepEqual(await ids(things().is('active', null)), [3]);
    assert.deepEqual(await ids(things().like('name', '%et%')), [2]);
    assert.deepEqual(await ids(things().contains('tags', ['b']).order('id')), [1, 2]);
    assert.deepEqual(await ids(things().containedBy('tags', ['a', 'b', 'c']).order('id')), [1, 2, 3]);
    assert.deepEqual(await ids(things().overlaps('nums', [1, 5]).order('id')), [1, 2]);
    assert.deepEqual(await ids(things().contains('data', { k: 'v' })), [1]);
    assert.deepEqual(await ids(things().textSearch('doc', 'fox', { config: 'english' })), [1]);
    assert.deepEqual(await ids(things().textSearch('content', 'lazy dogs', { type: 'plain' })), [2]);
    assert.deepEqual(await ids(things().rangeAdjacent('during', '[10,20)').order('id')), [2, 3]);
    assert.deepEqual(await ids(things().rangeLt('during', '[10,20)').order('id')), [1, 2]);
    assert.deepEqual(await ids(things().match({ name: 'beta', active: false })), [2]);
    assert.deepEqual(await ids(things().in('name', ['x,(y)', 'beta', 'Gamma']).order('id')), [2, 3]);
    assert.deepEqual(await ids(things().filter('data->>k', 'eq', 'w')), [2]);
  });

  it('single, maybeSingle, head count, csv', async () => {
    const single = await client().from('clients').select('id,name').eq('id', 2).single();
    assert.deepEqual(single.data, { id: 2, name: 'Apple' });
    const notSingle = await client().from('clients').select('id').single();
    assert.equal(notSingle.status, 406);
    assert.equal(notSingle.error?.code, 'PGRST116');
    const maybe = await client().from('clients').select('id').eq('id', 99).maybeSingle();
    assert.equal(maybe.error, null);
    assert.equal(maybe.data, null);
    const head = await client().from('numbers').select('*', { count: 'exact', head: true });
    assert.equal(head.count, 1100);
    assert.equal(head.data, null);
    const csv = await client().from('clients').select('id,name').eq('id', 1).csv();
    assert.equal(csv.data, 'id,name\n1,Microsoft');
  });

  it('insert, upsert, update, delete, rollback', async () => {
    const nulls = await client().from('items').insert([{ name: 'js0', qty: 2 }, { name: 'js00' }]);
    assert.equal(nulls.status, 400, 'missing keys are null by default (defaultToNull)');
    assert.equal(nulls.error?.code, '23502');
    const inserted = await client()
      .from('items')
      .insert([{ name: 'js1', qty: 2 }, { name: 'js2' }], { defaultToNull: false })
      .select('name,qty');
    assert.equal(inserted.error, null, JSON.stringify(inserted.error));
    assert.equal(inserted.status, 201);
    assert.deepEqual(inserted.data, [
      { name: 'js1', qty: 2 },
      { name: 'js2', qty: 1 },
    ]);
    const upserted = await client().from('items').upsert({ name: 'js1', qty: 7 }, { onConflict: 'name' }).select('name,qty').single();
    assert.deepEqual(upserted.data, { name: 'js1', qty: 7 });
    const ignored = await client().from('items').upsert({ name: 'js1', qty: 8 }, { onConflict: 'name', ignoreDuplicates: true }).select();
    assert.deepEqual(ignored.data, []);
    const updated = await client().from('items').update({ note: 'n' }, { count: 'exact' }).like('name', 'js%').select('name,note');
    assert.equal(updated.count, 2);
    const sorted = [...(updated.data ?? [])].sort((a, b) => String(a.name).localeCompare(String(b.name)));
    assert.deepEqual(sorted, [
      { name: 'js1', note: 'n' },
      { name: 'js2', note: 'n' },
    ]);
    const deleted = await client().from('items').delete().eq('name', 'js2').select('name');
    assert.deepEqual(deleted.data, [{ name: 'js2' }]);
    const rolledBack = await client().from('items').insert({ name: 'ghost' }).select('name').rollback();
    assert.deepEqual(rolledBack.data, [{ name: 'ghost' }]);
    const after = await client().from('items').select('name').eq('name', 'ghost');
    assert.deepEqual(after.data, []);
    const conflict = await client().from('items').insert({ name: 'js1' });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.error?.code, '23505');
  });

  it('rpc and errors', async () => {
    const sum = await client().rpc('add_them', { a: 20, b: 22 });
    assert.equal(sum.data, 42);
    const projects = await client().rpc('projects_of', { cid: 2 }).select('name').order('id', { ascending: false });
    assert.deepEqual(projects.data, [{ name: 'OSX' }, { name: 'IOS' }]);
    const viaGet = await client().rpc('greet', { name: 'js' }, { get: true });
    assert.equal(viaGet.data, 'hello js');
    const missing = await client().from('nope').select();
    assert.equal(missing.status, 404);
    assert.equal(missing.error?.code, 'PGRST205');
  });
});
