import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization } from '../support/app.js';
import { loadConfig } from '../../src/config.js';
import { openPostgres } from '../../src/db/postgres.js';
import type { Database } from '../../src/db/types.js';
import { client, startBookingApp } from './support.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';

const RATES = { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] };

// A parent unit (the whole villa) and its children (its rooms) share availability: a stay on one blocks its
// ancestors and descendants on the same dates, siblings stay independent — for every writer.
forEachBackend('Related units share availability', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let f: Fixtures;
  let villa: string;
  let room1: string;
  let room2: string;

  const unit = async (parent: string | null, name: string) => {
    const id = await f.product({ name: { default: name }, ...(parent ? { parent_id: parent } : {}) });
    await f.configuration(id, RATES);
    return id;
  };
  const book = (product: string, start: string, end: string) =>
    client(app, org.key).post('/v1/book', { product_id: product, interval: { start, end } });
  const patch = (table: string, id: string, body: Record<string, unknown>) =>
    app.inject({ method: 'PATCH', url: `/v1/${table}?id=eq.${id}`, headers: bearer(org.key), payload: body });

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Villa');
    f = fixtures(ctx.db, org.id);
    villa = await unit(null, 'Villa');
    room1 = await unit(villa, 'Room 1');
    room2 = await unit(villa, 'Room 2');
  });
  after(() => app.close());

  it('a booked room blocks the villa; its sibling stays bookable; a booked villa blocks every room', async () => {
    assert.equal((await book(room1, '2027-04-05', '2027-04-08')).statusCode, 201);
    assert.equal((await book(room2, '2027-04-06', '2027-04-09')).statusCode, 201, 'siblings are independent');
    const villaRefused = await book(villa, '2027-04-07', '2027-04-10');
    assert.equal(villaRefused.statusCode, 409, villaRefused.body);
    assert.equal(villaRefused.json().code, 'SK610');
    assert.match(villaRefused.json().details, new RegExp(`related unit ${room1} booked from 2027-04-05 to 2027-04-08`));

    assert.equal((await book(villa, '2027-05-01', '2027-05-04')).statusCode, 201);
    const roomRefused = await book(room2, '2027-05-03', '2027-05-05');
    assert.equal(roomRefused.statusCode, 409);
    assert.equal(roomRefused.json().code, 'SK610');
    assert.equal((await book(room2, '2027-05-04', '2027-05-06')).statusCode, 201, 'checkout day of the villa is free');
  });

  it('quote, availability and search show a relative\'s stay', async () => {
    const quote = await client(app, org.key).post('/v1/quote', { product_id: room1, interval: { start: '2027-05-02', end: '2027-05-03' } });
    assert.equal(quote.statusCode, 409);
    assert.equal(quote.json().code, 'SK610');
    const response = await client(app, org.key).get(`/v1/availability?product_ids=${villa},${room1}&start=2027-04-04&end=2027-04-11`);
    assert.equal(response.statusCode, 200, response.body);
    const [villaDays, roomDays] = response.json() as { intervals: { start: string; end: string; status: string }[] }[];
    // The villa: room 1 [05, 08) and room 2 [06, 09) merged; room 1: the villa has no stay then, only its own.
    assert.deepEqual(villaDays!.intervals, [
      { start: '2027-04-04', end: '2027-04-05', status: 'available' },
      { start: '2027-04-05', end: '2027-04-09', status: 'unavailable' },
      { start: '2027-04-09', end: '2027-04-11', status: 'available' },
    ]);
    assert.deepEqual(roomDays!.intervals, [
      { start: '2027-04-04', end: '2027-04-05', status: 'available' },
      { start: '2027-04-05', end: '2027-04-08', status: 'unavailable' },
      { start: '2027-04-08', end: '2027-04-11', status: 'available' },
    ]);
    const search = await client(app, org.key).post('/v1/search', { interval: { start: '2027-05-02', end: '2027-05-03' } });
    const byId = new Map((search.json() as { productId: string; availability: string }[]).map((r) => [r.productId, r]));
    assert.equal(byId.get(room1)!.availability, 'unavailable');
    assert.equal(byId.get(room2)!.availability, 'unavailable');
  });

  it('the resource API is held to the same rule: a blocked period or a moved event over a relative\'s stay is 409', async () => {
    const post = await app.inject({
      method: 'POST', url: '/v1/calendar_events', headers: bearer(org.key),
      payload: { product_id: villa, start_date: '2027-04-08', end_date: '2027-04-10', type: 'blocked period' },
    });
    assert.equal(post.statusCode, 409, post.body);
    assert.equal(post.json().code, '23P01');
    assert.match(post.json().message, /related unit/);
    assert.match(post.json().details, new RegExp(`product ${room2} is taken from 2027-04-06 to 2027-04-09`));

    const free = await app.inject({
      method: 'POST', url: '/v1/calendar_events', headers: { ...bearer(org.key), prefer: 'return=representation' },
      payload: { product_id: room1, start_date: '2027-06-01', end_date: '2027-06-03', type: 'blocked period' },
    });
    assert.equal(free.statusCode, 201, free.body);
    const moved = await patch('calendar_events', free.json()[0].id, { start_date: '2027-05-02' });
    assert.equal(moved.statusCode, 409, moved.body);
    assert.equal(moved.json().code, '23P01');
    const cancelled = await patch('calendar_events', free.json()[0].id, { status: 'CANCELLED' });
    assert.equal(cancelled.statusCode, 204);
    const villaNow = await app.inject({
      method: 'POST', url: '/v1/calendar_events', headers: bearer(org.key),
      payload: { product_id: villa, start_date: '2027-06-01', end_date: '2027-06-03', type: 'blocked period' },
    });
    assert.equal(villaNow.statusCode, 201, 'a cancelled stay no longer blocks its relatives');
  });

  it('a new room under a booked villa is blocked from the start', async () => {
    const room3 = await unit(villa, 'Room 3');
    const refused = await book(room3, '2027-05-02', '2027-05-03');
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().code, 'SK610');
  });

  it('moving a unit under a parent with overlapping stays is refused, and so is a loop', async () => {
    const cottage = await unit(null, 'Cottage');
    assert.equal((await book(cottage, '2027-05-02', '2027-05-05')).statusCode, 201);
    const refused = await patch('products', cottage, { parent_id: villa });
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, '23P01');
    assert.match(refused.json().message, /cannot be placed under/);
    assert.match(refused.json().hint, /Cancel or move/);
    const parent = await ctx.db.query<{ parent_id: string | null }>('SELECT parent_id FROM api.products WHERE id = $1', [cottage]);
    assert.equal(parent.rows[0]!.parent_id, null);

    const loop = await patch('products', villa, { parent_id: room1 });
    assert.equal(loop.statusCode, 400, loop.body);
    assert.equal(loop.json().code, '23514');
    assert.match(loop.json().message, /descendants/);

    const shed = await unit(null, 'Shed');
    assert.equal((await book(shed, '2027-08-01', '2027-08-03')).statusCode, 201);
    assert.equal((await patch('products', shed, { parent_id: villa })).statusCode, 204, 'no overlap: the move is allowed');
    const villaRefused = await book(villa, '2027-08-02', '2027-08-04');
    assert.equal(villaRefused.statusCode, 409);
    assert.equal(villaRefused.json().code, 'SK610', 'the room it now holds is booked');
    assert.equal((await patch('products', shed, { parent_id: null })).statusCode, 204);
    assert.equal((await book(villa, '2027-08-02', '2027-08-04')).statusCode, 201, 'moved out: the villa is free again');
  });
});

// On PostgreSQL the requests really run at once, through several app instances with pools of their own; on PGlite
// (one connection) they queue, and the answer must be the same.
forEachBackend('Related units under concurrent /v1/book', (ctx) => {
  const REQUESTS = 20;
  const apps: FastifyInstance[] = [];
  const pools: Database[] = [];
  let org: { id: string; key: string };
  let chain: string[] = [];

  before(async () => {
    org = await createOrganization(ctx.db, 'Race');
    const f = fixtures(ctx.db, org.id);
    // The villa, a floor of it, a room on that floor: every pair is ancestor and descendant.
    chain = [];
    for (const name of ['Villa', 'Floor', 'Room']) {
      const id = await f.product({ name: { default: name }, parent_id: chain.at(-1) ?? null });
      await f.configuration(id, RATES);
      chain.push(id);
    }
    const config = loadConfig({ STAYKIT_TENANT_QUEUE: String(REQUESTS) });
    if (ctx.url) {
      for (let i = 0; i < 4; i += 1) {
        const pool = await openPostgres({ connectionString: ctx.url, maxConnections: 6 });
        pools.push(pool);
        apps.push(await startBookingApp(pool, undefined, { config }));
      }
    } else {
      apps.push(await startBookingApp(ctx.db, undefined, { config }));
    }
  });
  after(async () => {
    for (const app of apps) await app.close();
    for (const pool of pools) await pool.close();
  });

  it(`${REQUESTS} simultaneous /book on a parent and its descendants for overlapping dates: exactly one stay wins`, async () => {
    const requests: Promise<LightMyRequestResponse>[] = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      const start = `2027-03-${String(10 + (i % 2)).padStart(2, '0')}`;
      const end = `2027-03-${String(13 + (i % 2)).padStart(2, '0')}`;
      requests.push(client(apps[i % apps.length]!, org.key).post('/v1/book', { product_id: chain[i % 3], interval: { start, end } }));
    }
    const responses = await Promise.all(requests);
    const statuses = responses.map((response) => response.statusCode);
    assert.equal(statuses.filter((status) => status === 201).length, 1, JSON.stringify(statuses));
    for (const response of responses.filter((r) => r.statusCode !== 201)) {
      assert.equal(response.statusCode, 409, response.body);
      assert.equal(response.json().code, 'SK610');
    }
    const events = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM api.calendar_events WHERE product_id = ANY ($1::uuid[]) AND status <> 'CANCELLED'`, [chain]);
    assert.equal(events.rows[0]!.n, 1);
  });
});
