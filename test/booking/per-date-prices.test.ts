import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures, insert } from '../support/fixtures.js';

interface Day { date: string; status: string; check_in: boolean; min_duration: number | null; rate: number | null }

// Per-date prices and closures: configuration < PriceLabs (when the unit takes it) < the manual entry of the date,
// the same in /quote, /book, /availability and /search.
forEachBackend('Per-date prices and closures', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let unit: string;
  let plain: string;
  const post = (url: string, body: unknown) => client(app, org.key).post(url, body);
  const entry = (product: string, date: string, fields: Record<string, unknown>) =>
    insert(ctx.db, 'price_calendar_entries', { organization_id: org.id, product_id: product, date, ...fields });
  const pricelabs = (product: string, date: string, price: number, fields: Record<string, unknown> = {}) =>
    insert(ctx.db, 'pricelabs_pricing', { organization_id: org.id, product_id: product, date, price, ...fields });
  const days = async (product: string, start: string, end: string, extra = ''): Promise<Map<string, Day>> => {
    const response = await client(app, org.key).get(`/v1/availability?product_ids=${product}&start=${start}&end=${end}&include=days${extra}`);
    assert.equal(response.statusCode, 200, response.body);
    return new Map((response.json()[0].days as Day[]).map((day) => [day.date, day]));
  };

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Prices');
    const f = fixtures(ctx.db, org.id);
    unit = await f.product({ name: { default: 'Priced by date' } });
    plain = await f.product({ name: { default: 'Not on PriceLabs' } });
    for (const id of [unit, plain]) {
      await f.configuration(id, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }], min_duration: 1 });
      await pricelabs(id, '2027-03-10', 9000);
      await pricelabs(id, '2027-03-11', 12000);
      await pricelabs(id, '2027-03-12', 11000, { currency: 'USD' });
      await pricelabs(id, '2027-03-21', 13000, { min_stay: 2 });
    }
    // The unit takes PriceLabs' prices (a setting clients change with PATCH /products).
    const enabled = await app.inject({
      method: 'PATCH', url: `/v1/products?id=eq.${unit}`, headers: bearer(org.key), payload: { pricelabs_enabled: true },
    });
    assert.equal(enabled.statusCode, 204, enabled.body);
    await entry(unit, '2027-03-10', { rate: 15000 });
    await entry(unit, '2027-03-15', { closed: true });
    await entry(unit, '2027-03-20', { min_duration: 3 });
  });
  after(() => app.close());

  it('/quote and /book price each night: manual entry, else PriceLabs (same currency), else the configuration', async () => {
    const quote = await post('/v1/quote', { product_id: unit, interval: { start: '2027-03-10', end: '2027-03-13' } });
    assert.equal(quote.statusCode, 200, quote.body);
    assert.deepEqual(quote.json().nights, [
      { date: '2027-03-10', rate: 15000 }, { date: '2027-03-11', rate: 12000 }, { date: '2027-03-12', rate: 10000 },
    ]);
    assert.equal(quote.json().total, 37000);
    const notEnabled = await post('/v1/quote', { product_id: plain, interval: { start: '2027-03-10', end: '2027-03-13' } });
    assert.equal(notEnabled.json().total, 30000, 'PriceLabs rows of a unit that is not switched over change nothing');

    const booked = await post('/v1/book', { product_id: unit, interval: { start: '2027-03-10', end: '2027-03-13' } });
    assert.equal(booked.statusCode, 201, booked.body);
    const rent = await ctx.db.query<{ amount: number }>(
      `SELECT amount FROM api.line_items WHERE booking_id = $1 AND item_type = 'rent'`, [booked.json().booking_id]);
    assert.equal(rent.rows[0]!.amount, 37000);
  });

  it('a closed date cannot be stayed on; a minimum stay of the arrival date replaces the configuration\'s', async () => {
    const closed = await post('/v1/quote', { product_id: unit, interval: { start: '2027-03-14', end: '2027-03-16' } });
    assert.equal(closed.statusCode, 422, closed.body);
    assert.equal(closed.json().code, 'SK611');
    assert.match(closed.json().message, /closed on 2027-03-15/);
    const short = await post('/v1/quote', { product_id: unit, interval: { start: '2027-03-20', end: '2027-03-22' } });
    assert.equal(short.statusCode, 422);
    assert.equal(short.json().code, 'SK611');
    assert.match(short.json().details, /at least 3 nights/);
    assert.equal((await post('/v1/quote', { product_id: unit, interval: { start: '2027-03-20', end: '2027-03-23' } })).statusCode, 200);
    const pricelabsMin = await post('/v1/quote', { product_id: unit, interval: { start: '2027-03-21', end: '2027-03-22' } });
    assert.equal(pricelabsMin.statusCode, 422);
    assert.equal(pricelabsMin.json().code, 'SK611');
    assert.match(pricelabsMin.json().details, /at least 2 nights/);
    assert.equal((await post('/v1/quote', { product_id: plain, interval: { start: '2027-03-21', end: '2027-03-22' } })).statusCode, 200);
  });

  it('/availability days carry the same rates, minimum stays and closures', async () => {
    const byDate = await days(unit, '2027-03-13', '2027-03-23', '&show_closed_as=closed');
    assert.deepEqual([...byDate.values()].map((d) => [d.date, d.status, d.rate, d.min_duration, d.check_in]), [
      ['2027-03-13', 'available', 10000, 1, true],
      ['2027-03-14', 'available', 10000, 1, true],
      ['2027-03-15', 'closed', null, null, false],
      ['2027-03-16', 'available', 10000, 1, true],
      ['2027-03-17', 'available', 10000, 1, true],
      ['2027-03-18', 'available', 10000, 1, true],
      ['2027-03-19', 'available', 10000, 1, true],
      ['2027-03-20', 'available', 10000, 3, true],
      ['2027-03-21', 'available', 13000, 2, true],
      ['2027-03-22', 'available', 10000, 1, true],
    ]);
    const plainDays = await days(plain, '2027-03-21', '2027-03-22');
    assert.deepEqual([plainDays.get('2027-03-21')!.rate, plainDays.get('2027-03-21')!.min_duration], [10000, 1]);
    const closedDefault = await days(unit, '2027-03-15', '2027-03-16');
    assert.equal(closedDefault.get('2027-03-15')!.status, 'unavailable');
  });

  it('/search prices and refuses stays as /quote does', async () => {
    const search = async (start: string, end: string) => {
      const response = await post('/v1/search', { interval: { start, end }, show_closed_as: 'closed' });
      assert.equal(response.statusCode, 200, response.body);
      return (response.json() as { productId: string; availability: string; price: { min: number } | null }[]).find((r) => r.productId === unit)!;
    };
    const priced = await search('2027-03-21', '2027-03-24');
    const quote = await post('/v1/quote', { product_id: unit, interval: { start: '2027-03-21', end: '2027-03-24' } });
    assert.equal(priced.availability, 'available');
    assert.equal(priced.price!.min, quote.json().total);
    assert.equal(quote.json().total, 33000);
    assert.equal((await search('2027-03-14', '2027-03-16')).availability, 'closed');
  });
});
