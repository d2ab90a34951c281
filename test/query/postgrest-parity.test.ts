/**
 * `staykit rest` against PostgREST 12.2 / 13's documented behaviour (issue 16), through a listening server: the real
 * `@supabase/postgrest-js` where it has a method, raw HTTP otherwise. Each test names the PostgREST documentation
 * section it follows (docs.postgrest.org, references/api/…).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { PostgrestClient } from '@supabase/postgrest-js';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { bearer, createKey, createOrganization, startApp } from '../support/app.js';
import { buildRestApp } from '../../src/http/rest-app.js';

const SCHEMAS_SQL = `
CREATE SCHEMA shop;
CREATE SCHEMA personal;
CREATE TABLE shop.notes (id int PRIMARY KEY, body text NOT NULL);
CREATE TABLE personal.notes (id int PRIMARY KEY, body text NOT NULL);
INSERT INTO shop.notes VALUES (1, 'shop note');
INSERT INTO personal.notes VALUES (1, 'my note');
CREATE FUNCTION shop.note_count() RETURNS bigint LANGUAGE sql STABLE AS 'SELECT count(*) FROM shop.notes';
CREATE FUNCTION personal.note_count() RETURNS bigint LANGUAGE sql STABLE AS 'SELECT count(*) FROM personal.notes';
CREATE FUNCTION personal.add_note(id int, body text) RETURNS void LANGUAGE sql AS 'INSERT INTO personal.notes VALUES (id, body)';

CREATE TABLE shop.items (id int PRIMARY KEY, name text NOT NULL, stock int NOT NULL DEFAULT 0);
INSERT INTO shop.items SELECT g, 'item ' || g, g FROM generate_series(1, 14) AS g;
CREATE FUNCTION shop.restock(below int) RETURNS SETOF shop.items LANGUAGE sql
  AS 'UPDATE shop.items SET stock = stock + 100 WHERE stock < below RETURNING *';
CREATE FUNCTION shop.nothing() RETURNS int LANGUAGE sql STABLE AS 'SELECT NULL::int';
CREATE FUNCTION shop.numbers(n int) RETURNS SETOF int LANGUAGE sql STABLE AS 'SELECT generate_series(1, n)';

CREATE TABLE shop.orgs (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE shop.users (id int PRIMARY KEY, name text NOT NULL, org_id int REFERENCES shop.orgs (id));
CREATE TABLE shop.memberships (org_id int REFERENCES shop.orgs (id), user_id int REFERENCES shop.users (id), PRIMARY KEY (org_id, user_id));
INSERT INTO shop.orgs VALUES (1, 'Acme');
INSERT INTO shop.users VALUES (1, 'Ada', 1), (2, 'Bob', 1);

CREATE TABLE shop.shuffled (id int PRIMARY KEY, label text NOT NULL);
INSERT INTO shop.shuffled VALUES (3, 'c'), (1, 'a'), (2, 'b');
CREATE TABLE shop.reviews (id int PRIMARY KEY, item_id int NOT NULL REFERENCES shop.items (id), stars int NOT NULL);
INSERT INTO shop.reviews VALUES (1, 1, 5), (2, 1, 3), (3, 2, 4);
CREATE FUNCTION shop.shouting(shop.items) RETURNS text LANGUAGE sql STABLE AS 'SELECT upper($1.name)';
CREATE FUNCTION shop.top_reviews(shop.items) RETURNS SETOF shop.reviews LANGUAGE sql STABLE
  AS 'SELECT * FROM shop.reviews WHERE item_id = $1.id AND stars >= 4';
CREATE FUNCTION shop.reviewed_item(shop.reviews) RETURNS shop.items LANGUAGE sql STABLE
  AS 'SELECT * FROM shop.items WHERE id = $1.item_id';
CREATE VIEW shop.item_names AS SELECT id, name FROM shop.items;
CREATE VIEW shop.item_labels AS SELECT id + 0 AS id, upper(name) AS label FROM shop.items;
CREATE TABLE shop.tags (name text PRIMARY KEY);
CREATE TABLE shop.bigtable (id int PRIMARY KEY, label text NOT NULL);
INSERT INTO shop.bigtable SELECT g, 'row ' || g FROM generate_series(1, 1500) AS g;
ANALYZE shop.bigtable;
INSERT INTO shop.tags VALUES ('sale');
CREATE VIEW shop.review_stars AS SELECT id, item_id, stars FROM shop.reviews;
CREATE VIEW shop.named_items AS SELECT id, name FROM shop.item_names WHERE id < 10;
CREATE VIEW shop.review_scores AS SELECT id, item_id + 0 AS item_id, stars FROM shop.reviews;
CREATE SCHEMA vault;
CREATE TABLE vault.owners (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE vault.pets (id int PRIMARY KEY, owner_id int NOT NULL REFERENCES vault.owners (id), name text NOT NULL);
INSERT INTO vault.owners VALUES (1, 'Ada'), (2, 'Bob');
INSERT INTO vault.pets VALUES (1, 1, 'Rex'), (2, 1, 'Tom'), (3, 2, 'Kit');
CREATE VIEW shop.owners AS SELECT id, name FROM vault.owners;
CREATE VIEW shop.pets AS SELECT id, owner_id AS owner, name FROM vault.pets;
CREATE TABLE shop.stamps (id int PRIMARY KEY, at timestamptz NOT NULL);
INSERT INTO shop.stamps VALUES (1, '2023-10-18T12:37:59.611Z');
CREATE FUNCTION shop.echo(payload json) RETURNS json LANGUAGE sql IMMUTABLE AS 'SELECT payload';
CREATE FUNCTION shop.add_up(jsonb) RETURNS int LANGUAGE sql IMMUTABLE AS $f$ SELECT ($1->>'a')::int + ($1->>'b')::int $f$;
`;

type Row = Record<string, unknown>;

forEachBackend('PostgREST 12/13 parity of staykit rest', (ctx) => {
  let app: FastifyInstance;
  let address: string;
  let client: PostgrestClient;

  const http = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
    const response = await fetch(`${address}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  const rows = async (sql: string) => (await ctx.db.query<Row>(sql)).rows;

  before(async () => {
    await ctx.db.exec(SCHEMAS_SQL);
    // db-max-rows 1000, as the count tests below assume (PostgREST's default and staykit rest's: none).
    app = await buildRestApp({ db: ctx.db, schema: ['shop', 'personal'], maxRows: 1000 });
    address = await app.listen({ port: 0, host: '127.0.0.1' });
    client = new PostgrestClient(address);
  });
  after(() => app.close());

  it('schemas.rst "Multiple schemas": Accept-Profile picks the schema of a read, the first one is the default', async () => {
    const shop = await client.from('notes').select('body');
    assert.deepEqual(shop.data, [{ body: 'shop note' }]);
    const personal = await client.schema('personal').from('notes').select('body');
    assert.equal(personal.error, null);
    assert.deepEqual(personal.data, [{ body: 'my note' }]);
    const raw = await http('GET', '/notes?select=body', { 'accept-profile': 'personal' });
    assert.equal(raw.headers.get('content-profile'), 'personal');
  });

  it('schemas.rst: Content-Profile picks the schema of a write and of an rpc POST — never the default one', async () => {
    const written = await client.schema('personal').from('notes').insert({ id: 2, body: 'private' }).select('id');
    assert.equal(written.error, null);
    assert.deepEqual(await rows('SELECT id FROM personal.notes ORDER BY id'), [{ id: 1 }, { id: 2 }]);
    assert.deepEqual(await rows('SELECT id FROM shop.notes ORDER BY id'), [{ id: 1 }]);
    const patched = await http('PATCH', '/notes?id=eq.1', { 'content-profile': 'personal' }, { body: 'edited' });
    assert.equal(patched.status, 204);
    assert.deepEqual(await rows(`SELECT body FROM shop.notes WHERE id = 1`), [{ body: 'shop note' }]);
    assert.deepEqual(await rows(`SELECT body FROM personal.notes WHERE id = 1`), [{ body: 'edited' }]);
    const called = await client.schema('personal').rpc('add_note', { id: 3, body: 'via rpc' });
    assert.equal(called.error, null);
    assert.equal((await client.schema('personal').rpc('note_count')).data, 3);
    assert.equal((await client.rpc('note_count')).data, 1);
  });

  it('schemas.rst: a schema that is not exposed is 406 PGRST106 listing the exposed ones, and nothing is written', async () => {
    const read = await http('GET', '/notes', { 'accept-profile': 'public' });
    assert.equal(read.status, 406);
    assert.deepEqual(read.json, {
      code: 'PGRST106',
      message: 'The schema must be one of the following: shop, personal',
      details: null,
      hint: null,
    });
    const write = await client.schema('staykit_internal').from('notes').insert({ id: 9, body: 'lost' });
    assert.equal(write.status, 406);
    assert.equal(write.error?.code, 'PGRST106');
    assert.deepEqual(await rows('SELECT count(*)::int AS n FROM shop.notes WHERE id = 9'), [{ n: 0 }]);
  });

  it('preferences.rst "Max Affected": over the limit with handling=strict is 400 PGRST124 and rolled back', async () => {
    const refused = await http('DELETE', '/items?id=gt.2', { prefer: 'handling=strict, max-affected=10' });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json, {
      code: 'PGRST124',
      message: 'Query result exceeds max-affected preference constraint',
      details: 'The query affects 12 rows',
      hint: null,
    });
    assert.deepEqual(await rows('SELECT count(*)::int AS n FROM shop.items'), [{ n: 14 }]);
    const patch = await http('PATCH', '/items?id=gt.4', { prefer: 'handling=strict, max-affected=5, return=representation' }, { stock: 0 });
    assert.equal(patch.status, 400);
    assert.equal((patch.json as Row).details, 'The query affects 10 rows');
    assert.deepEqual(await rows('SELECT count(*)::int AS n FROM shop.items WHERE stock = 0'), [{ n: 0 }]);
    const call = await http('POST', '/rpc/restock', { prefer: 'handling=strict, max-affected=2' }, { below: 5 });
    assert.equal(call.status, 400);
    assert.equal((call.json as Row).details, 'The query affects 4 rows');
    assert.deepEqual(await rows('SELECT count(*)::int AS n FROM shop.items WHERE stock >= 100'), [{ n: 0 }]);
  });

  it('preferences.rst "Max Affected": within the limit it applies (Preference-Applied), and lenient handling ignores it', async () => {
    const within = await http('PATCH', '/items?id=in.(1,2)', { prefer: 'handling=strict, max-affected=2' }, { stock: 50 });
    assert.equal(within.status, 204);
    assert.equal(within.headers.get('preference-applied'), 'handling=strict, max-affected=2');
    const lenient = await http('PATCH', '/items?id=in.(3,4,5)', { prefer: 'max-affected=1' }, { stock: 60 });
    assert.equal(lenient.status, 204);
    assert.deepEqual(await rows('SELECT count(*)::int AS n FROM shop.items WHERE stock IN (50, 60)'), [{ n: 5 }]);
  });

  it('preferences.rst "Timezone": timestamps in the zone asked for, echoed in Preference-Applied; an unknown zone is ignored', async () => {
    const la = await http('GET', '/stamps?select=at', { prefer: 'timezone=America/Los_Angeles' });
    assert.deepEqual(la.json, [{ at: '2023-10-18T05:37:59.611-07:00' }]);
    assert.equal(la.headers.get('preference-applied'), 'timezone=America/Los_Angeles');
    const plain = await http('GET', '/stamps?select=at');
    const unknown = await http('GET', '/stamps?select=at', { prefer: 'timezone=Jupiter/Red_Spot' });
    assert.equal(unknown.status, 200);
    assert.deepEqual(unknown.json, plain.json);
    assert.equal(unknown.headers.get('preference-applied'), null);
    const strict = await http('GET', '/stamps?select=at', { prefer: 'handling=strict, timezone=Jupiter/Red_Spot' });
    assert.equal(strict.status, 400);
    assert.deepEqual(strict.json, {
      code: 'PGRST122',
      message: 'Invalid preferences given with handling=strict',
      details: 'Invalid preferences: timezone=Jupiter/Red_Spot',
      hint: null,
    });
    // A write's representation too, the zone listed after the other applied preferences.
    const written = await http('POST', '/stamps', { prefer: 'return=representation, timezone=Asia/Tokyo' }, { id: 2, at: '2023-10-18T00:00:00Z' });
    assert.deepEqual(written.json, [{ id: 2, at: '2023-10-18T09:00:00+09:00' }]);
    assert.equal(written.headers.get('preference-applied'), 'return=representation, timezone=Asia/Tokyo');
  });

  it('functions.rst (12.2) "Prefer: params=single-object": the arguments are the one JSON parameter, named or not', async () => {
    const sum = await http('POST', '/rpc/add_up', { prefer: 'params=single-object' }, { a: 1, b: 2 });
    assert.equal(sum.status, 200);
    assert.equal(sum.json, 3);
    assert.equal(sum.headers.get('preference-applied'), 'params=single-object');
    const echoed = await http('GET', '/rpc/echo?a=1&b=x', { prefer: 'handling=strict, params=single-object' });
    assert.equal(echoed.status, 200);
    assert.deepEqual(echoed.json, { a: '1', b: 'x' });
    // Without it the body's keys are argument names, and echo has no parameter `a`.
    const named = await http('POST', '/rpc/echo', {}, { a: 1 });
    assert.equal(named.status, 404);
    assert.equal((named.json as Row).code, 'PGRST202');
  });

  it('resource_embedding.rst: the same relationship embedded twice without an alias is 400 42712, as in 12.2', async () => {
    const res = await http('GET', '/items?select=id,reviews(id),reviews(stars)', { 'accept-profile': 'shop' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.json, {
      code: '42712',
      message: 'table name "items_reviews_1" specified more than once',
      details: null,
      hint: null,
    });
    const nested = await client.from('reviews').select('id, items(reviews(id), reviews(stars))');
    assert.equal(nested.error?.message, 'table name "items_reviews_2" specified more than once');
    const aliased = await client.from('items').select('id, reviews(id), best:reviews(stars)').eq('id', 1).order('id', { referencedTable: 'reviews' });
    assert.equal(aliased.error, null);
    assert.deepEqual(aliased.data, [{ id: 1, reviews: [{ id: 1 }, { id: 2 }], best: [{ stars: 5 }, { stars: 3 }] }]);
  });

  it('resource_embedding.rst "Ambiguous relationships": 300 PGRST201 even when one candidate is direct', async () => {
    const { error, status } = await client.from('orgs').select('users(name)');
    assert.equal(status, 300);
    assert.equal(error?.code, 'PGRST201');
    assert.deepEqual((error?.details as unknown as Row[]).map((candidate) => candidate.cardinality).sort(), ['many-to-many', 'one-to-many']);
  });

  it('tables_views.rst: a missing table is 404 (PGRST205 with a suggestion, PostgREST 13); single() with 0 or 2 rows is 406 PGRST116', async () => {
    const missing = await client.from('shuffle').select();
    assert.equal(missing.status, 404);
    assert.equal(missing.error?.code, 'PGRST205');
    assert.equal(missing.error?.hint, "Perhaps you meant the table 'shop.shuffled'");
    const none = await client.from('items').select('id').eq('id', 999).single();
    assert.equal(none.status, 406);
    assert.equal(none.error?.code, 'PGRST116');
    assert.equal(none.error?.details, 'The result contains 0 rows');
    const many = await client.from('items').select('id').lt('id', 3).single();
    assert.equal(many.error?.details, 'The result contains 2 rows');
  });

  it('tables_views.rst "Upsert": a body of the conflict key alone answers its row (DO UPDATE SET, not DO NOTHING)', async () => {
    const { data, error, status } = await client.from('tags').upsert({ name: 'sale' }).select();
    assert.equal(error, null);
    assert.equal(status, 200);
    assert.deepEqual(data, [{ name: 'sale' }]);
    const created = await client.from('tags').upsert([{ name: 'sale' }, { name: 'new' }]).select();
    assert.equal(created.status, 201);
    assert.deepEqual(created.data, [{ name: 'sale' }, { name: 'new' }]);
  });

  it('functions.rst + pagination_count.rst: count=exact on a function gives the real total; a NULL scalar is null', async () => {
    const scalar = await client.rpc('note_count', {}, { count: 'exact' });
    assert.equal(scalar.count, 1);
    assert.equal(scalar.data, 1);
    const set = await client.rpc('numbers', { n: 25 }, { count: 'exact', get: true }).range(0, 9);
    assert.equal(set.status, 206);
    assert.equal(set.count, 25);
    assert.deepEqual(set.data, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const head = await client.rpc('numbers', { n: 7 }, { count: 'exact', head: true });
    assert.equal(head.count, 7);
    for (const method of ['GET', 'POST'] as const) {
      const res = await http(method, '/rpc/nothing', {}, method === 'POST' ? {} : undefined);
      assert.equal(res.status, 200);
      assert.equal(res.text, 'null');
    }
    const viaClient = await client.rpc('nothing');
    assert.equal(viaClient.error, null);
    assert.equal(viaClient.data, null);
  });

  it('pagination_count.rst "Planned Count" and "Estimated Count": the planner\'s estimate; exact up to db-max-rows', async () => {
    const planned = await http('HEAD', '/bigtable?limit=25', { prefer: 'count=planned' });
    assert.equal(planned.status, 206);
    const [range, plannedTotal] = (planned.headers.get('content-range') ?? '').split('/');
    assert.equal(range, '0-24');
    assert.ok(Math.abs(Number(plannedTotal) - 1500) <= 150, `planned ${plannedTotal}`);
    const small = await http('HEAD', '/bigtable?limit=25&id=lte.321', { prefer: 'count=estimated' });
    assert.equal(small.status, 206);
    assert.equal(small.headers.get('content-range'), '0-24/321');
    const big = await client.from('bigtable').select('id', { count: 'estimated', head: true }).limit(25);
    assert.equal(big.status, 206);
    // Beyond db-max-rows (1000) the count stops at 1001 (PostgREST counts with `LIMIT db-max-rows + 1`) and the
    // larger of it and the estimate is the answer: here the estimate, as count=planned gives it.
    assert.equal(big.count, Number(plannedTotal));
  });

  it('computed_fields.rst: a function of the row is selected, filtered and ordered like a column (not in *)', async () => {
    const { data, error } = await client.from('items').select('id, shouting').like('shouting', 'ITEM 1*').order('shouting', { ascending: false }).limit(3);
    assert.equal(error, null);
    assert.deepEqual(data, [{ id: 14, shouting: 'ITEM 14' }, { id: 13, shouting: 'ITEM 13' }, { id: 12, shouting: 'ITEM 12' }]);
    const star = await client.from('items').select().eq('id', 1);
    assert.equal(Object.keys((star.data as Row[])[0]!).includes('shouting'), false);
  });

  it('computed_fields.rst + tables_views.rst "Insertions"/"Updates"/"Deletions": a write returns computed fields too', async () => {
    // PostgREST puts the selected computed fields in the mutation's RETURNING, called with the written row.
    const inserted = await client.from('items').insert({ id: 15, name: 'lamp' }).select('id, shouting');
    assert.equal(inserted.error, null);
    assert.deepEqual(inserted.data, [{ id: 15, shouting: 'LAMP' }]);
    const updated = await client.from('items').update({ name: 'desk lamp' }).eq('id', 15).select('shouting, stock');
    assert.deepEqual(updated.data, [{ shouting: 'DESK LAMP', stock: 0 }]);
    // With `*` too (PostgREST 12.2 answers 42703 there, its open issue #3145; docs/query-engine.md).
    const deleted = await client.from('items').delete().eq('id', 15).select('*, shouting').single();
    assert.deepEqual(deleted.data, { id: 15, name: 'desk lamp', stock: 0, shouting: 'DESK LAMP' });
    const upserted = await http('POST', '/items?select=shouting&on_conflict=id', {
      prefer: 'return=representation, resolution=merge-duplicates',
    }, [{ id: 1, name: 'item one', stock: 1 }]);
    assert.deepEqual(upserted.json, [{ shouting: 'ITEM ONE' }]);
    await ctx.db.query(`UPDATE shop.items SET name = 'item 1' WHERE id = 1`);
  });

  it('resource_embedding.rst "Computed Relationships": embedded by the function name, to-many (SETOF) and to-one', async () => {
    const many = await client.from('items').select('id, top_reviews(stars)').in('id', [1, 2, 3]).order('id');
    assert.equal(many.error, null);
    assert.deepEqual(many.data, [
      { id: 1, top_reviews: [{ stars: 5 }] },
      { id: 2, top_reviews: [{ stars: 4 }] },
      { id: 3, top_reviews: [] },
    ]);
    const one = await client.from('reviews').select('id, item:reviewed_item(name)').eq('id', 3);
    assert.deepEqual(one.data, [{ id: 3, item: { name: 'item 2' } }]);
    const filtered = await client.from('items').select('id, top_reviews!inner(stars)').order('id');
    assert.deepEqual(filtered.data, [{ id: 1, top_reviews: [{ stars: 5 }] }, { id: 2, top_reviews: [{ stars: 4 }] }]);
  });

  it('resource_embedding.rst "Embedding Views": a view\'s columns carry its base table\'s keys, both ways', async () => {
    const fromView = await client.from('item_names').select('name, reviews(stars)').eq('id', 1).order('id', { referencedTable: 'reviews' });
    assert.equal(fromView.error, null);
    assert.deepEqual(fromView.data, [{ name: 'item 1', reviews: [{ stars: 5 }, { stars: 3 }] }]);
    const toView = await client.from('reviews').select('id, item_names(name)').eq('id', 3);
    assert.deepEqual(toView.data, [{ id: 3, item_names: { name: 'item 2' } }]);
    const calculated = await http('GET', '/item_labels?select=label,reviews(id)');
    assert.equal(calculated.status, 400);
    assert.equal((calculated.json as Row).code, 'PGRST200');
  });

  it('resource_embedding.rst "Embedding Views": between two views, through views over views, over another schema\'s tables', async () => {
    const viewToView = await client.from('item_names').select('name, review_stars(stars)').eq('id', 1).order('id', { referencedTable: 'review_stars' });
    assert.equal(viewToView.error, null);
    assert.deepEqual(viewToView.data, [{ name: 'item 1', review_stars: [{ stars: 5 }, { stars: 3 }] }]);
    const back = await client.from('review_stars').select('id, item_names(name)').eq('id', 3);
    assert.deepEqual(back.data, [{ id: 3, item_names: { name: 'item 2' } }]);
    // named_items selects from the view item_names: its columns are traced through it to shop.items.
    const overView = await client.from('review_stars').select('id, named_items(name)').eq('id', 3);
    assert.deepEqual(overView.data, [{ id: 3, named_items: { name: 'item 2' } }]);
    const deep = await client.from('named_items').select('name, reviews(stars)').eq('id', 2);
    assert.deepEqual(deep.data, [{ name: 'item 2', reviews: [{ stars: 4 }] }]);
    // The tables live in a schema that is not served (schema isolation): the views carry their foreign key, also
    // under another column name (pets.owner stands for vault.pets.owner_id), and a hint may name that column.
    const isolated = await client.from('owners').select('name, pets(name)').order('id').order('id', { referencedTable: 'pets' });
    assert.equal(isolated.error, null);
    assert.deepEqual(isolated.data, [{ name: 'Ada', pets: [{ name: 'Rex' }, { name: 'Tom' }] }, { name: 'Bob', pets: [{ name: 'Kit' }] }]);
    const hinted = await client.from('pets').select('name, owners!owner(name)').eq('id', 3);
    assert.deepEqual(hinted.data, [{ name: 'Kit', owners: { name: 'Bob' } }]);
  });

  it('resource_embedding.rst "Embedding Views": a view column that is an expression carries no key (400 PGRST200)', async () => {
    const res = await http('GET', '/review_scores?select=id,items(name)');
    assert.equal(res.status, 400);
    // PostgREST's NoRelBetween: review_scores has no relationship at all, so the hint names the closest relation
    // that has one (its noRelBetweenHint suggests a parent before a child).
    assert.deepEqual(res.json, {
      code: 'PGRST200',
      message: "Could not find a relationship between 'review_scores' and 'items' in the schema cache",
      details: "Searched for a foreign key relationship between 'review_scores' and 'items' in the schema 'shop', but no matches were found.",
      hint: "Perhaps you meant 'review_stars' instead of 'review_scores'.",
    });
    const plainColumns = await http('GET', '/review_scores?select=stars&id=eq.1');
    assert.deepEqual(plainColumns.json, [{ stars: 5 }]);
  });

  it('what is not supported answers as docs/query-engine.md "Not supported" says', async () => {
    const stripped = await http('GET', '/items?select=id&id=eq.1', { accept: 'application/vnd.pgrst.array+json;nulls=stripped' });
    assert.equal(stripped.status, 200);
    const form = await fetch(`${address}/tags`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=x' });
    assert.equal(form.status, 415);
    const csvWrite = await http('POST', '/tags', { accept: 'text/csv', prefer: 'return=representation' }, { name: 'csv' });
    assert.equal(csvWrite.status, 406);
    assert.equal((csvWrite.json as Row).code, 'PGRST107');
    const put = await http('PUT', '/tags?name=eq.sale', {}, { name: 'sale' });
    assert.equal(put.status, 405);
    assert.equal((put.json as Row).code, 'PGRST117');
  });

  it('ordering.rst: without order, rows come as PostgreSQL returns them (no ORDER BY added); order= sorts', async () => {
    const unordered = await client.from('shuffled').select('id');
    assert.deepEqual(unordered.data, [{ id: 3 }, { id: 1 }, { id: 2 }]);
    const ordered = await client.from('shuffled').select('id').order('id');
    assert.deepEqual(ordered.data, [{ id: 1 }, { id: 2 }, { id: 3 }]);
  });
});

forEachBackend('profiles on /v1', (ctx) => {
  let app: FastifyInstance;
  let key: string;
  before(async () => {
    app = await startApp(ctx.db);
    key = (await createOrganization(ctx.db, 'Profiles')).key;
  });
  after(() => app.close());

  it('only api is exposed: another Accept-Profile or Content-Profile is 406 PGRST106', async () => {
    const read = await app.inject({ method: 'GET', url: '/v1/contacts', headers: { ...bearer(key), 'accept-profile': 'staykit_internal' } });
    assert.equal(read.statusCode, 406);
    assert.deepEqual(read.json(), { code: 'PGRST106', message: 'The schema must be one of the following: api', details: null, hint: null });
    const write = await app.inject({
      method: 'POST', url: '/v1/contacts', payload: { first_name: 'Eve' },
      headers: { ...bearer(key), 'content-profile': 'public', 'content-type': 'application/json' },
    });
    assert.equal(write.statusCode, 406);
    assert.equal(write.json().code, 'PGRST106');
    const api = await app.inject({ method: 'GET', url: '/v1/contacts', headers: { ...bearer(key), 'accept-profile': 'api' } });
    assert.equal(api.statusCode, 200);
    assert.equal(api.headers['content-profile'], 'api');
  });
});

forEachBackend('execution plans (application/vnd.pgrst.plan) on staykit rest --plans', (ctx) => {
  let app: FastifyInstance;
  let off: FastifyInstance;
  let client: PostgrestClient;
  let offClient: PostgrestClient;

  before(async () => {
    await ctx.db.exec(`CREATE SCHEMA plans; CREATE TABLE plans.tags (name text PRIMARY KEY); INSERT INTO plans.tags VALUES ('sale');`);
    app = await buildRestApp({ db: ctx.db, schema: 'plans', plans: true });
    off = await buildRestApp({ db: ctx.db, schema: 'plans' });
    client = new PostgrestClient(await app.listen({ port: 0, host: '127.0.0.1' }));
    offClient = new PostgrestClient(await off.listen({ port: 0, host: '127.0.0.1' }));
  });
  after(async () => {
    await app.close();
    await off.close();
  });

  it('resource_representation.rst "Execution plan": .explain() answers the EXPLAIN text of the statement', async () => {
    const { data, error, status } = await client.from('tags').select('name').eq('name', 'sale').explain();
    assert.equal(error, null);
    assert.equal(status, 200);
    assert.match(String(data), /Scan/);
  });

  it('format json with analyze: the JSON plan with actual rows; a write explained with analyze is rolled back', async () => {
    const read = await client.from('tags').select('name').explain({ format: 'json', analyze: true, verbose: true, buffers: true });
    assert.equal(read.error, null);
    const plan = (read.data as unknown as { Plan: Record<string, unknown> }[])[0]!.Plan;
    assert.equal(typeof plan['Actual Rows'], 'number');
    const write = await client.from('tags').insert({ name: 'explained' }).explain({ analyze: true });
    assert.equal(write.error, null);
    assert.match(String(write.data), /Insert on/);
    assert.deepEqual((await ctx.db.query('SELECT name FROM plans.tags ORDER BY name')).rows, [{ name: 'sale' }]);
  });

  it('plans off (the default, and /v1): 406 PGRST107, as PostgREST without db-plan-enabled', async () => {
    const { error, status } = await offClient.from('tags').select('name').explain();
    assert.equal(status, 406);
    assert.equal(error?.code, 'PGRST107');
  });
});

forEachBackend('computed relationships on /v1: the target table needs the key\'s read scope', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  before(async () => {
    await ctx.db.exec(`
      CREATE FUNCTION api.own_contacts(api.organizations) RETURNS SETOF api.contacts LANGUAGE sql STABLE
        AS 'SELECT * FROM api.contacts WHERE organization_id = $1.id';
      GRANT EXECUTE ON FUNCTION api.own_contacts(api.organizations) TO staykit_api;`);
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Computed');
    await fixtures(ctx.db, org.id).contact({ first_name: 'Ada' });
  });
  after(() => app.close());

  it('a key with the scope sees the rows; one lacking the target table\'s scope gets 403', async () => {
    const ok = await app.inject({ method: 'GET', url: '/v1/organizations?select=name,own_contacts(first_name)', headers: bearer(org.key) });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json(), [{ name: 'Computed', own_contacts: [{ first_name: 'Ada' }] }]);
    const narrow = await createKey(ctx.db, org.id, ['organizations:read']);
    const refused = await app.inject({ method: 'GET', url: '/v1/organizations?select=name,own_contacts(first_name)', headers: bearer(narrow) });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'SK403');
  });
});
