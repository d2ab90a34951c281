/**
 * Aggregates in `select`, as PostgREST documents them (references/api/aggregate_functions.rst): count/sum/avg/min/max,
 * input and output casts, aliases, grouping by the other selected columns, inside embeds, the top-level `count()`;
 * refused with PGRST123 where they are off; on /v1 a key needs the read scope of every table an aggregate reads.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { SchemaCache } from '../../src/schema/types.js';
import { buildRestApp } from '../../src/http/rest-app.js';
import { seedDemoOrganization, type SeededOrganization } from '../../src/seed/demo-organization.js';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, startApp } from '../support/app.js';
import { createFixture, engineClient, fixtureCache } from './fixture.js';

type Row = Record<string, unknown>;

forEachBackend('aggregates (engine)', (ctx) => {
  let cache: SchemaCache;
  const request = engineClient(() => ctx.db, () => cache);
  const get = async (path: string, options = {}) => {
    const res = await request('GET', path, { options });
    assert.equal(res.status, 200, res.body);
    return res.json as Row[];
  };

  before(async () => {
    await createFixture(ctx.db);
    cache = await fixtureCache(ctx.db);
  });

  it('"Aggregate Functions": sum, avg, min, max and count over the whole table: one row named after the function', async () => {
    assert.deepEqual(await get('things?select=amount.sum(),amount.max(),amount.min(),amount.count(),count()'), [
      { sum: 8, max: 4, min: 1.5, count: 4 },
    ]);
    // The last `count` wins the key, as in any JSON object with a repeated key: alias one of them.
    assert.deepEqual(await get('things?select=valued:amount.count(),rows:count()'), [{ valued: 3, rows: 4 }]);
    assert.deepEqual(await get('things?select=average:amount.avg()::int'), [{ average: 3 }]);
  });

  it('"Casting the Value of the Input": a JSON value cast before it is summed; filters apply first', async () => {
    assert.deepEqual(await get('things?select=total:data->>n::int.sum()'), [{ total: 6 }]);
    assert.deepEqual(await get('things?select=total:data->>n::int.sum()&id=lte.2'), [{ total: 3 }]);
  });

  it('grouping: every other selected column groups the rows; order sorts the groups', async () => {
    const rows = await get('things?select=active,count(),amount.sum()&order=active.nullsfirst');
    assert.deepEqual(rows, [
      { active: null, count: 1, sum: null },
      { active: false, count: 1, sum: 2.5 },
      { active: true, count: 2, sum: 5.5 },
    ]);
    // "Using Embedded Resources as Grouping Columns": the embedded client is a grouping column.
    const byClient = await get('projects?select=client:clients(name),count()');
    const counts = byClient.map((row) => `${(row.client as Row | null)?.name ?? 'none'}: ${String(row.count)}`).sort();
    assert.deepEqual(counts, ['Apple: 2', 'Microsoft: 2', 'none: 1']);
  });

  it('"Aggregate Functions Within the Context of an Embedded Resource": counts per parent, [{count: 0}] for none', async () => {
    const rows = await get('clients?select=name,projects(count())&order=id');
    assert.deepEqual(rows, [
      { name: 'Microsoft', projects: [{ count: 2 }] },
      { name: 'Apple', projects: [{ count: 2 }] },
      { name: 'Oracle', projects: [{ count: 0 }] },
    ]);
    const legacy = await get('users?select=name,tasks(count)&id=eq.1');
    assert.deepEqual(legacy, [{ name: 'Angela', tasks: [{ count: 3 }] }]);
  });

  it('"Aggregate Functions with Columns from a Spreaded Resource": a to-one spread\'s aggregates are applied at the parent', async () => {
    // The spread's other columns group the parent's rows; its aggregates run over them (PostgREST hoists them).
    assert.deepEqual(await get('projects?select=...clients(name,count())&order=clients(name)'), [
      { name: 'Apple', count: 2 },
      { name: 'Microsoft', count: 2 },
      // The orphan project has no client: its group counts no client row.
      { name: null, count: 0 },
    ]);
    // Only aggregates: one row for all the parent's rows, with aliases and casts as anywhere else.
    assert.deepEqual(await get('tasks?select=...projects(projects:count(),highest:id.max(),mean:id.avg()::int)'), [
      { projects: 8, highest: 4, mean: 3 },
    ]);
    // Nested to-one spreads hand their aggregates up to the first level that is not a spread; the order names a
    // spread's output, as PostgREST's `order=projects(name)` does.
    assert.deepEqual(await get('tasks?select=...projects(...clients(name,count()))&id=lte.5&order=projects(name)'), [
      { name: 'Apple', count: 1 },
      { name: 'Microsoft', count: 4 },
    ]);
    // Mixed with the parent's own aggregates and grouping columns.
    assert.deepEqual(await get('passports?select=user_count:count(),...users(org_id,users:id.count())&order=users(org_id)'), [
      { user_count: 1, org_id: 1, users: 1 },
      { user_count: 1, org_id: 2, users: 1 },
    ]);
    // Inside a to-many embed, per parent: the clients of each organisation's users' passports.
    assert.deepEqual(await get('orgs?select=name,users(...passports(count()))&order=id'), [
      { name: 'Acme', users: [{ count: 1 }] },
      { name: 'Globex', users: [{ count: 1 }] },
    ]);
  });

  it('aggregates off (staykit rest without --aggregates): 400 PGRST123', async () => {
    const res = await request('GET', 'things?select=amount.sum()', { options: { aggregates: false } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.json, { code: 'PGRST123', message: 'Use of aggregate functions is not allowed', details: null, hint: null });
    const count = await request('GET', 'clients?select=projects(count())', { options: { aggregates: false } });
    assert.equal((count.json as Row).code, 'PGRST123');
    // PostgREST 13 (#3693): a spread does not let aggregates through where they are off.
    const spread = await request('GET', 'projects?select=...clients(id.max())', { options: { aggregates: false } });
    assert.equal((spread.json as Row).code, 'PGRST123');
  });

  it('a function outside the five, or a malformed call, is a parse error (PGRST100)', async () => {
    const res = await request('GET', 'things?select=amount.median()');
    assert.equal(res.status, 400);
    assert.equal((res.json as Row).code, 'PGRST100');
  });
});

forEachBackend('aggregates through postgrest-js on staykit rest --aggregates', (ctx) => {
  let app: FastifyInstance;
  let client: PostgrestClient;
  before(async () => {
    await createFixture(ctx.db);
    app = await buildRestApp({ db: ctx.db, schema: 'fixture', aggregates: true });
    client = new PostgrestClient(await app.listen({ port: 0, host: '127.0.0.1' }));
  });
  after(() => app.close());

  it('a computed field is a grouping column; an aggregate in a to-one spread is hoisted; order by an aggregate 42703', async () => {
    await ctx.db.exec(`CREATE FUNCTION fixture.initial(fixture.clients) RETURNS text LANGUAGE sql STABLE AS 'SELECT left($1.name, 1)'`);
    const rest = await buildRestApp({ db: ctx.db, schema: 'fixture', aggregates: true });
    try {
      const local = new PostgrestClient(await rest.listen({ port: 0, host: '127.0.0.1' }));
      const grouped = await local.from('clients').select('initial, count()').order('initial');
      assert.equal(grouped.error, null);
      assert.deepEqual(grouped.data, [{ initial: 'A', count: 1 }, { initial: 'M', count: 1 }, { initial: 'O', count: 1 }]);
      const spread = await local.from('projects').select('...clients(id.max())');
      assert.equal(spread.error, null);
      assert.deepEqual(spread.data, [{ max: 2 }]);
      const ordered = await local.from('things').select('amount.sum()').order('sum');
      assert.equal(ordered.status, 400);
      assert.equal(ordered.error?.code, '42703');
    } finally {
      await rest.close();
    }
  });

  it('.select with count() and sum() grouped by a column', async () => {
    const { data, error } = await client.from('things').select('mood, count(), amount.sum()').not('mood', 'is', null).order('mood');
    assert.equal(error, null);
    assert.deepEqual(data, [
      { mood: 'sad', count: 1, sum: 2.5 },
      { mood: 'ok', count: 1, sum: null },
      { mood: 'happy', count: 1, sum: 1.5 },
    ]);
  });
});

forEachBackend('aggregates on /v1', (ctx) => {
  let app: FastifyInstance;
  let demo: SeededOrganization;
  before(async () => {
    demo = await seedDemoOrganization(ctx.db);
    app = await startApp(ctx.db);
  });
  after(() => app.close());

  const get = (url: string, key = demo.api_key) => app.inject({ method: 'GET', url, headers: bearer(key) });
  // Next month: the demo organization's year of bookings lies around the day it is seeded.
  const today = new Date();
  const from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
  const to = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 2, 1)).toISOString().slice(0, 10);

  it('occupancy counts per product and status for a month (next month), as documented in docs/query-engine.md', async () => {
    const url = `/v1/calendar_events?select=product_id,status,count()&start_date=gte.${from}&start_date=lt.${to}`;
    const res = await get(url);
    assert.equal(res.statusCode, 200, res.body);
    const { rows } = await ctx.db.query<{ product_id: string; status: string; n: number }>(
      `SELECT product_id, status, count(*)::int AS n FROM api.calendar_events
       WHERE organization_id = $1 AND start_date >= $2 AND start_date < $3 GROUP BY 1, 2`,
      [demo.organization_id, from, to],
    );
    const answered = (res.json() as { product_id: string; status: string; count: number }[])
      .map((row) => `${row.product_id} ${row.status} ${row.count}`).sort();
    assert.ok(answered.length > 0, 'the demo organization has stays next month');
    assert.deepEqual(answered, rows.map((row) => `${row.product_id} ${row.status} ${row.n}`).sort());
  });

  it('revenue per kind of line item (rent, fees, taxes …)', async () => {
    const res = await get('/v1/line_items?select=item_type,amount.sum()&order=item_type');
    assert.equal(res.statusCode, 200, res.body);
    const { rows } = await ctx.db.query<{ item_type: string; total: number }>(
      `SELECT item_type, sum(amount)::int AS total FROM api.line_items WHERE organization_id = $1 GROUP BY 1 ORDER BY 1`,
      [demo.organization_id],
    );
    // The demo's bookings carry their rent and cleaning (a service) as the booking flow writes them.
    assert.deepEqual((res.json() as Row[]).map((row) => row.item_type), ['rent', 'service']);
    assert.deepEqual(res.json(), rows.map((row) => ({ item_type: row.item_type, sum: row.total })));
  });

  it('revenue per product for a month: line items grouped by the product of their booking\'s stay', async () => {
    const url =
      '/v1/line_items?select=amount.sum(),bookings!inner(calendar_events!inner(product_id))' +
      `&bookings.calendar_events.start_date=gte.${from}&bookings.calendar_events.start_date=lt.${to}`;
    const res = await get(url);
    assert.equal(res.statusCode, 200, res.body);
    type Group = { sum: number; bookings: { calendar_events: { product_id: string }[] } };
    const answered = (res.json() as Group[]).map((group) => `${group.bookings.calendar_events.map((e) => e.product_id).join('+')} ${group.sum}`).sort();
    const { rows } = await ctx.db.query<{ products: string; total: number }>(
      `SELECT products, sum(amount)::int AS total FROM (
         SELECT li.amount, (SELECT string_agg(e.product_id::text, '+' ORDER BY e.id) FROM api.calendar_events e
                            WHERE e.booking_id = li.booking_id AND e.start_date >= $2 AND e.start_date < $3) AS products
         FROM api.line_items li WHERE li.organization_id = $1) AS t
       WHERE products IS NOT NULL GROUP BY products`,
      [demo.organization_id, from, to],
    );
    assert.ok(answered.length > 0, 'the demo organization has stays next month');
    assert.deepEqual(answered, rows.map((row) => `${row.products} ${row.total}`).sort());
  });

  it('scopes: an aggregate over an embedded table needs that table\'s read scope (403 otherwise)', async () => {
    const productsOnly = await createKey(ctx.db, demo.organization_id, ['products:read']);
    const own = await get('/v1/products?select=count()', productsOnly);
    assert.equal(own.statusCode, 200, own.body);
    assert.deepEqual(own.json(), [{ count: 4 }]);
    const through = await get('/v1/products?select=name,calendar_events(count())', productsOnly);
    assert.equal(through.statusCode, 403);
    assert.equal(through.json().code, 'SK403');
  });
});
