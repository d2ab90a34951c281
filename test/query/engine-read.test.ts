import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { SchemaCache } from '../../src/schema/types.js';
import { forEachBackend } from '../support/databases.js';
import { createFixture, engineClient, fixtureCache } from './fixture.js';

type Row = Record<string, unknown>;

forEachBackend('engine reads', (ctx) => {
  let cache: SchemaCache;
  const request = engineClient(() => ctx.db, () => cache);
  const get = async (path: string, headers: Record<string, string> = {}) => request('GET', path, { headers });
  const ids = async (path: string): Promise<unknown[]> => {
    const res = await get(path);
    assert.equal(res.status, 200, res.body);
    return (res.json as Row[]).map((row) => row.id);
  };

  before(async () => {
    await createFixture(ctx.db);
    cache = await fixtureCache(ctx.db);
  });

  it('selects columns, aliases, casts and JSON paths, in primary-key order by default', async () => {
    const res = await get('things?select=id,label:name,amount::text,k:data->>k,data->o->x,first:data->arr->0&id=lte.2');
    assert.equal(res.status, 200);
    assert.equal(res.headers['Content-Type'], 'application/json; charset=utf-8');
    assert.deepEqual(res.json, [
      { id: 1, label: 'alpha', amount: '1.5', k: 'v', x: 10, first: 1 },
      { id: 2, label: 'beta', amount: '2.5', k: 'w', x: 20, first: null },
    ]);
    assert.equal(res.headers['Content-Range'], '0-1/*');
    assert.equal(res.headers['Content-Location'], '/things?id=lte.2&select=id%2Clabel%3Aname%2Camount%3A%3Atext%2Ck%3Adata-%3E%3Ek%2Cdata-%3Eo-%3Ex%2Cfirst%3Adata-%3Earr-%3E0');
  });

  it('select=* returns every column including the generated one', async () => {
    const res = await get('things?id=eq.1');
    const row = (res.json as Row[])[0] as Row;
    assert.equal(row.name_upper, 'ALPHA');
    assert.deepEqual(row.tags, ['a', 'b']);
    assert.deepEqual(row.data, { k: 'v', n: 1, arr: [1, 2], o: { x: 10 } });
    assert.equal(row.during, '[1,5)');
    assert.equal(row.born, '2024-01-10');
  });

  it('embeds many-to-one, one-to-many and nested, with per-embed filters, order and limit', async () => {
    const res = await get(
      'clients?select=name,projects(name,tasks(name))&id=eq.1&projects.order=id.desc&projects.tasks.name=like.Code*&projects.limit=1',
    );
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(res.json, [{ name: 'Microsoft', projects: [{ name: 'Windows 10', tasks: [{ name: 'Code w10' }] }] }]);
    const m2o = await get('projects?select=name,client:clients(name)&id=in.(1,5)');
    assert.deepEqual(m2o.json, [
      { name: 'Windows 7', client: { name: 'Microsoft' } },
      { name: 'Orphan', client: null },
    ]);
    const empty = await get('clients?select=name,projects(name)&id=eq.3');
    assert.deepEqual(empty.json, [{ name: 'Oracle', projects: [] }]);
  });

  it('embeds many-to-many through a junction and one-to-one both ways', async () => {
    const res = await get('users?select=name,tasks(name)&id=eq.1&tasks.order=name');
    assert.deepEqual(res.json, [{ name: 'Angela', tasks: [{ name: 'Code w7' }, { name: 'Design w10' }, { name: 'Design w7' }] }]);
    const back = await get('tasks?select=name,users(name)&id=eq.1&users.order=name.desc');
    assert.deepEqual(back.json, [{ name: 'Design w7', users: [{ name: 'Dwight' }, { name: 'Angela' }] }]);
    const o2o = await get('users?select=name,passports(number)&order=id');
    assert.deepEqual(o2o.json, [
      { name: 'Angela', passports: { number: 'P-1' } },
      { name: 'Michael', passports: null },
      { name: 'Dwight', passports: { number: 'P-3' } },
    ]);
    const o2oBack = await get('passports?select=number,users(name)&id=eq.2');
    assert.deepEqual(o2oBack.json, [{ number: 'P-3', users: { name: 'Dwight' } }]);
  });

  it('self-reference: the table name is the children, the FK column the parent', async () => {
    const res = await get('family?select=name,children:family(name),parent:parent_id(name)&id=in.(1,2)');
    assert.deepEqual(res.json, [
      { name: 'Root', children: [{ name: 'Child A' }, { name: 'Child B' }], parent: null },
      { name: 'Child A', children: [{ name: 'Grandchild' }], parent: { name: 'Root' } },
    ]);
  });

  it('composite foreign keys join on every column', async () => {
    const res = await get('pages?select=title,sites(name)');
    assert.deepEqual(res.json, [
      { title: 'Acme home', sites: { name: 'Acme site' } },
      { title: 'Globex home', sites: { name: 'Globex site' } },
      { title: 'Acme about', sites: { name: 'Acme site' } },
    ]);
    const back = await get('sites?select=name,pages(title)&org_id=eq.1');
    assert.deepEqual(back.json, [{ name: 'Acme site', pages: [{ title: 'Acme home' }, { title: 'Acme about' }] }]);
  });

  it('hints disambiguate; ambiguity is a 300 PGRST201 listing the candidates', async () => {
    const ambiguous = await get('messages?select=body,users(name)');
    assert.equal(ambiguous.status, 300);
    const body = ambiguous.json as { code: string; hint: string; details: Row[] };
    assert.equal(body.code, 'PGRST201');
    assert.equal(body.details.length, 2);
    assert.match(body.hint, /'users!messages_recipient_id_fkey', 'users!messages_sender_id_fkey'|'users!messages_sender_id_fkey', 'users!messages_recipient_id_fkey'/);
    const hinted = await get('messages?select=body,sender:users!sender_id(name),recipient:users!messages_recipient_id_fkey(name)&id=eq.1');
    assert.deepEqual(hinted.json, [{ body: 'hi', sender: { name: 'Angela' }, recipient: { name: 'Michael' } }]);
  });

  it('prefers the one direct relationship over many-to-many candidates (Staykit deviation), hint picks the junction', async () => {
    const direct = await get('orgs?select=name,users(name)&id=eq.1');
    assert.deepEqual(direct.json, [{ name: 'Acme', users: [{ name: 'Angela' }, { name: 'Michael' }] }]);
    const viaJunction = await get('orgs?select=name,users!memberships(name)&id=eq.1');
    assert.deepEqual(viaJunction.json, [{ name: 'Acme', users: [{ name: 'Angela' }, { name: 'Dwight' }] }]);
  });

  it('!inner drops parents without a match; !left keeps them; embed null filters', async () => {
    const inner = await get('clients?select=name,projects!inner(name)&projects.name=eq.IOS');
    assert.deepEqual(inner.json, [{ name: 'Apple', projects: [{ name: 'IOS' }] }]);
    const left = await get('clients?select=name,projects!left(name)&projects.name=eq.IOS');
    assert.equal((left.json as Row[]).length, 3);
    const innerToOne = await get('projects?select=name,clients!inner(name)&clients.name=eq.Apple');
    assert.deepEqual(innerToOne.json, [
      { name: 'IOS', clients: { name: 'Apple' } },
      { name: 'OSX', clients: { name: 'Apple' } },
    ]);
    const isNull = await get('projects?select=name,clients(name)&clients=is.null');
    assert.deepEqual(isNull.json, [{ name: 'Orphan', clients: null }]);
    const notNull = await get('projects?select=id,clients()&clients=not.is.null');
    assert.deepEqual(notNull.json, [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    const innerCount = await get('clients?select=name,projects!inner(name)&projects.name=like.Windows*', { Prefer: 'count=exact' });
    assert.equal(innerCount.headers['Content-Range'], '0-0/1');
  });

  it('spread embeds merge to-one columns into the parent; a to-many spread gives arrays (PostgREST 13)', async () => {
    const res = await get('projects?select=name,...clients(client_name:name)&id=eq.3');
    assert.deepEqual(res.json, [{ name: 'IOS', client_name: 'Apple' }]);
    const many = await get('clients?select=name,...projects(project:name,id)&projects.order=id&id=in.(1,3)');
    assert.equal(many.status, 200, many.body);
    assert.deepEqual(many.json, [
      { name: 'Microsoft', project: ['Windows 7', 'Windows 10'], id: [1, 2] },
      { name: 'Oracle', project: [], id: [] },
    ]);
    const inner = await get('clients?select=name,...projects!inner(id)&projects.id=eq.3');
    assert.deepEqual(inner.json, [{ name: 'Apple', id: [3] }]);
    const aggregate = await get('clients?select=name,...projects(id.count())');
    assert.equal(aggregate.status, 400);
    assert.deepEqual(aggregate.json, {
      code: 'PGRST127',
      message: 'Feature not implemented',
      details: 'Aggregates are not implemented for one-to-many or many-to-many spreads.',
      hint: null,
    });
  });

  it('orders by several columns, nulls first/last, JSON paths and embedded to-one columns', async () => {
    assert.deepEqual(await ids('things?select=id&order=amount.desc.nullslast'), [4, 2, 1, 3]);
    assert.deepEqual(await ids('things?select=id&order=amount.desc.nullsfirst'), [3, 4, 2, 1]);
    assert.deepEqual(await ids('things?select=id&order=active.asc,id.desc'), [2, 4, 1, 3]);
    assert.deepEqual(await ids('things?select=id&order=data->>n.desc.nullslast'), [3, 2, 1, 4]);
    const res = await get('projects?select=name,clients(name)&order=clients(name).desc.nullslast,id&id=lte.4');
    assert.deepEqual((res.json as Row[]).map((r) => r.name), ['Windows 7', 'Windows 10', 'IOS', 'OSX']);
    const notToOne = await get('clients?select=name,projects(name)&order=projects(name)');
    assert.equal(notToOne.status, 400);
    assert.equal((notToOne.json as Row).code, 'PGRST118');
    const notEmbedded = await get('projects?select=name&order=clients(name)');
    assert.equal((notEmbedded.json as Row).code, 'PGRST108');
  });

  it('limit, offset and Range give PostgREST Content-Range, 206 and 416', async () => {
    const page = await get('numbers?select=n&limit=3&offset=5');
    assert.equal(page.status, 200);
    assert.equal(page.headers['Content-Range'], '5-7/*');
    assert.deepEqual(page.json, [{ n: 6 }, { n: 7 }, { n: 8 }]);
    const counted = await get('numbers?select=n&limit=3&offset=5', { Prefer: 'count=exact' });
    assert.equal(counted.status, 206);
    assert.equal(counted.headers['Content-Range'], '5-7/1100');
    assert.equal(counted.headers['Preference-Applied'], 'count=exact');
    const ranged = await get('numbers?select=n', { Range: '10-12', 'Range-Unit': 'items' });
    assert.equal(ranged.headers['Content-Range'], '10-12/*');
    assert.deepEqual(ranged.json, [{ n: 11 }, { n: 12 }, { n: 13 }]);
    const both = await get('numbers?select=n&offset=11', { Range: '10-12' });
    assert.deepEqual(both.json, [{ n: 12 }, { n: 13 }]);
    const all = await get('clients?select=id', { Prefer: 'count=exact' });
    assert.equal(all.status, 200);
    assert.equal(all.headers['Content-Range'], '0-2/3');
    const past = await get('clients?offset=10', { Prefer: 'count=exact' });
    assert.equal(past.status, 416);
    assert.equal(past.headers['Content-Range'], '*/3');
    assert.deepEqual(past.json, {
      code: 'PGRST103',
      message: 'Requested range not satisfiable',
      details: 'An offset of 10 was requested, but there are only 3 rows.',
      hint: null,
    });
    const pastNoCount = await get('clients?offset=10');
    assert.equal(pastNoCount.status, 200);
    assert.equal(pastNoCount.headers['Content-Range'], '*/*');
    assert.deepEqual(pastNoCount.json, []);
    const emptyCounted = await get('clients?id=eq.99', { Prefer: 'count=exact' });
    assert.equal(emptyCounted.headers['Content-Range'], '*/0');
    const badRange = await get('clients', { Range: '5-2' });
    assert.equal(badRange.status, 416);
    const negative = await get('clients?limit=-1');
    assert.equal(negative.status, 416);
    const zero = await get('clients?limit=0');
    assert.deepEqual(zero.json, []);
  });

  it('never returns more than maxRows rows', async () => {
    const res = await get('numbers?select=n&limit=5000', { Prefer: 'count=exact' });
    assert.equal(res.status, 206);
    assert.equal((res.json as Row[]).length, 1000);
    assert.equal(res.headers['Content-Range'], '0-999/1100');
    const plain = await get('numbers');
    assert.equal((plain.json as Row[]).length, 1000);
    const small = await request('GET', 'numbers?limit=50', { options: { maxRows: 20 } });
    assert.equal((small.json as Row[]).length, 20);
  });

  it('planned and estimated counts use the planner; exact counts are exact', async () => {
    const planned = await get('numbers?select=n&limit=1', { Prefer: 'count=planned' });
    assert.equal(planned.headers['Preference-Applied'], 'count=planned');
    const total = Number((planned.headers['Content-Range'] ?? '').split('/')[1]);
    assert.ok(Number.isInteger(total) && total > 0, planned.headers['Content-Range']);
    assert.equal(planned.statements.length, 2);
    assert.match(planned.statements[1] ?? '', /^EXPLAIN/);
    const estimatedSmall = await get('clients?select=id', { Prefer: 'count=estimated' });
    assert.equal(estimatedSmall.headers['Content-Range'], '0-2/3');
    assert.equal(estimatedSmall.statements.length, 1);
    const estimatedBig = await get('numbers?select=n&limit=1', { Prefer: 'count=estimated' });
    assert.equal(estimatedBig.statements.length, 2);
    // 1,100 rows: counted up to 1,001 (one past maxRows), then the larger of that and the estimate.
    assert.equal(estimatedBig.headers['Content-Range'], `0-0/${Math.max(1001, total)}`);
  });

  it('single object Accept: the object, or 406 PGRST116', async () => {
    const one = await get('clients?id=eq.1', { Accept: 'application/vnd.pgrst.object+json' });
    assert.equal(one.status, 200);
    assert.deepEqual(one.json, { id: 1, name: 'Microsoft' });
    assert.equal(one.headers['Content-Type'], 'application/vnd.pgrst.object+json; charset=utf-8');
    const many = await get('clients', { Accept: 'application/vnd.pgrst.object+json' });
    assert.equal(many.status, 406);
    assert.deepEqual(many.json, {
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 3 rows',
      hint: null,
    });
    const none = await get('clients?id=eq.9', { Accept: 'application/vnd.pgrst.object+json' });
    assert.equal((none.json as Row).details, 'The result contains 0 rows');
  });

  it('CSV output, fields written and quoted as PostgREST writes them (the row value\'s text); unsupported Accept', async () => {
    // PostgREST's CSV rows are PostgreSQL's text of each row value: white space is quoted, unlike COPY's CSV.
    const csv = await get('things?select=id,name,tags&id=in.(1,4)', { Accept: 'text/csv' });
    assert.equal(csv.status, 200);
    assert.equal(csv.headers['Content-Type'], 'text/csv; charset=utf-8');
    assert.equal(csv.body, 'id,name,tags\n1,alpha,"{a,b}"\n4,"a,b ""quoted""","{""x y""}"');
    const typed = await get('things?select=id,active,content,k:data->>k,o:data->o&id=in.(1,3)', { Accept: 'text/csv' });
    assert.equal(typed.body, `id,active,content,k,o\n1,t,"the quick brown fox",v,"{""x"": 10}"\n3,,"fat cats jump",it's,`);
    const xml = await get('things', { Accept: 'text/xml' });
    assert.equal(xml.status, 406);
    assert.deepEqual(xml.json, { code: 'PGRST107', message: 'None of these media types are available: text/xml', details: null, hint: null });
    const anyType = await get('clients?id=eq.1', { Accept: '*/*' });
    assert.equal(anyType.status, 200);
  });

  it('HEAD answers the headers without a body; OPTIONS the Allow header', async () => {
    const head = await request('HEAD', 'clients', { headers: { Prefer: 'count=exact' } });
    assert.equal(head.status, 200);
    assert.equal(head.body, undefined);
    assert.equal(head.headers['Content-Range'], '0-2/3');
    const options = await request('OPTIONS', 'clients');
    assert.equal(options.status, 200);
    assert.equal(options.headers['Allow'], 'OPTIONS,GET,HEAD,POST,PATCH,DELETE');
  });

  it('reads views', async () => {
    const res = await get('client_names?id=eq.2');
    assert.deepEqual(res.json, [{ id: 2, name: 'Apple' }]);
  });

  it('every request is one statement', async () => {
    const res = await get('clients?select=name,projects(name,tasks(name,users(name)))&projects.tasks.order=name', {
      Prefer: 'count=exact',
    });
    assert.equal(res.status, 200);
    assert.equal(res.statements.length, 1);
  });
});
