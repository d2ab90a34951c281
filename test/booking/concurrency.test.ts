import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { loadConfig } from '../../src/config.js';
import { openPostgres } from '../../src/db/postgres.js';
import type { Database } from '../../src/db/types.js';
import { client, startBookingApp } from './support.js';
import { fixtures } from '../support/fixtures.js';

const REQUESTS = 50;
/** Every simultaneous request waits for its turn: this is about double booking, not the per-organization cap. */
const allQueued = loadConfig({ STAYKIT_TENANT_QUEUE: String(REQUESTS) });

// On PostgreSQL the requests go through several app instances, each with its own connection pool, so they really
// run at the same time; on PGlite (one connection) they queue, and the answer must be the same.
forEachBackend('No double booking under concurrent /v1/book', (ctx) => {
  const apps: FastifyInstance[] = [];
  const pools: Database[] = [];
  let org: { id: string; key: string };
  let product: string;
  let couponProducts: string[] = [];

  before(async () => {
    org = await createOrganization(ctx.db, 'Race');
    const f = fixtures(ctx.db, org.id);
    product = await f.product({ interaction: 'request', request_status: 'TENTATIVE' });
    await f.configuration(product, { cooldown_time: 1, rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    couponProducts = [];
    for (let i = 0; i < 10; i += 1) {
      const id = await f.product({ name: { default: `Coupon house ${i}` } });
      await f.configuration(id, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
      couponProducts.push(id);
    }
    await f.coupon({ code: 'LAST', quota: 1, definition: { type: 'fixed', value: 1000 } });
    if (ctx.url) {
      for (let i = 0; i < 5; i += 1) {
        const pool = await openPostgres({ connectionString: ctx.url, maxConnections: 8 });
        pools.push(pool);
        apps.push(await startBookingApp(pool, undefined, { config: allQueued }));
      }
    } else {
      apps.push(await startBookingApp(ctx.db, undefined, { config: allQueued }));
    }
  });
  after(async () => {
    for (const app of apps) await app.close();
    for (const pool of pools) await pool.close();
  });

  it(`${REQUESTS} simultaneous overlapping bookings: exactly one 201, the rest 409 SK610, one event in the database`, async () => {
    const requests: Promise<LightMyRequestResponse>[] = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      // Stays [10,13), [11,14), [12,15) March: every pair overlaps.
      const start = `2027-03-${String(10 + (i % 3)).padStart(2, '0')}`;
      const end = `2027-03-${String(13 + (i % 3)).padStart(2, '0')}`;
      requests.push(client(apps[i % apps.length]!, org.key).post('/v1/book', { product_id: product, interval: { start, end } }));
    }
    const responses = await Promise.all(requests);
    const statuses = responses.map((response) => response.statusCode);
    assert.equal(statuses.filter((status) => status === 201).length, 1, JSON.stringify(statuses));
    assert.equal(statuses.filter((status) => status === 409).length, REQUESTS - 1, responses.map((r) => r.body).join('\n'));
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      const body = response.json();
      assert.equal(body.code, 'SK610');
      assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
    }
    const events = await ctx.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api.calendar_events WHERE product_id = $1', [product]);
    assert.equal(events.rows[0]!.n, 1);
    const bookings = await ctx.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api.bookings WHERE organization_id = $1', [org.id]);
    assert.equal(bookings.rows[0]!.n, 1);
  });

  it('a coupon with one use left is used once, however many bookings race for it', async () => {
    const responses = await Promise.all(couponProducts.map((id, i) =>
      client(apps[i % apps.length]!, org.key).post('/v1/book', {
        product_id: id, interval: { start: '2027-04-10', end: '2027-04-12' }, coupon_codes: ['LAST'],
      })));
    const statuses = responses.map((response) => response.statusCode);
    assert.equal(statuses.filter((status) => status === 201).length, 1, JSON.stringify(statuses));
    for (const response of responses.filter((r) => r.statusCode !== 201)) {
      assert.equal(response.statusCode, 422, response.body);
      assert.equal(response.json().code, 'SK615');
    }
    const uses = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM api.coupon_uses u JOIN api.coupons c ON c.id = u.coupon_id WHERE c.code = 'LAST'`);
    assert.equal(uses.rows[0]!.n, 1);
  });

  it('a booking that passed the availability check still loses to the exclusion constraint: 409, not 500', async (t) => {
    if (!ctx.url) {
      t.skip('needs a second connection (PostgreSQL)');
      return;
    }
    let pending: Promise<LightMyRequestResponse> | undefined;
    await ctx.db.transaction(async (tx) => {
      // An uncommitted owner block: invisible to the request's availability check, but its insert must wait for it.
      await fixtures(tx, org.id).event(product, { type: 'blocked period', start_date: '2027-05-10', end_date: '2027-05-12' });
      pending = client(apps[0]!, org.key).post('/v1/book', { product_id: product, interval: { start: '2027-05-11', end: '2027-05-13' } });
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    const response = await pending!;
    assert.equal(response.statusCode, 409, response.body);
    assert.equal(response.json().code, 'SK610');
    assert.match(response.json().details, /calendar_events_no_overlap/);
    const orphans = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM api.bookings b WHERE b.organization_id = $1 AND NOT EXISTS (SELECT 1 FROM api.calendar_events e WHERE e.booking_id = b.id)`,
      [org.id]);
    assert.equal(orphans.rows[0]!.n, 0);
  });

  it('two carts taking the same dates in opposite order: one wins, the other gets 409, never a 500', async () => {
    const [x, y] = couponProducts as [string, string];
    for (let round = 0; round < 8; round += 1) {
      const day = String(1 + round * 3).padStart(2, '0');
      const end = String(3 + round * 3).padStart(2, '0');
      const item = (id: string, product: string) => ({ id, product_id: product, interval: { start: `2027-07-${day}`, end: `2027-07-${end}` } });
      const responses = await Promise.all([
        client(apps[0]!, org.key).post('/v1/cart-checkout', { cart: { items: [item('1', x), item('2', y)] } }),
        client(apps[1 % apps.length]!, org.key).post('/v1/cart-checkout', { cart: { items: [item('1', y), item('2', x)] } }),
      ]);
      const statuses = responses.map((r) => r.statusCode).sort();
      assert.deepEqual(statuses, [201, 409], responses.map((r) => r.body).join('\n'));
    }
  });
});
