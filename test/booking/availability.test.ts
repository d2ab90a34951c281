import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures } from '../support/fixtures.js';

// The clock is pinned to Monday 2027-03-01 10:00 UTC (support.ts): today is 2027-03-01 in Europe/Amsterdam.

forEachBackend('GET /v1/availability', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let product: string;
  let weekly: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    const org = await createOrganization(ctx.db, 'Availability');
    api = client(app, org.key);
    const f = fixtures(ctx.db, org.id);
    product = await f.product();
    await f.configuration(product, { intervals: '{[2027-02-01,2027-04-01)}', rates: [{ duration: 1, occupancy: 1, rate: 10000 }] });
    await f.event(product, { start_date: '2027-03-05', end_date: '2027-03-08' });
    await f.event(product, { start_date: '2027-03-10', end_date: '2027-03-12', status: 'TENTATIVE' });
    await f.event(product, { start_date: '2027-03-15', end_date: '2027-03-17', type: 'blocked period' });
    await f.event(product, { start_date: '2027-03-20', end_date: '2027-03-22', padding: 2 });
    await f.event(product, { start_date: '2027-03-25', end_date: '2027-03-27', status: 'CANCELLED' });
    await f.event(product, { start_date: '2027-03-27', end_date: '2027-03-28', type: 'note' });

    // Saturday-to-Saturday weeks, at least 7 nights, check-in 2..60 days ahead, 1 day cooldown.
    weekly = await f.product({ name: { default: 'Weekly' } });
    const saturday = [false, false, false, false, false, true, false];
    await f.configuration(weekly, {
      intervals: '{[2027-03-01,2027-06-01)}', check_in_days: saturday, checkout_days: saturday, min_duration: 7,
      max_duration: 14, min_advance: 2, max_advance: 60, cooldown_time: 1,
      rates: [{ duration: 1, occupancy: 1, rate: 15000 }, { duration: 7, occupancy: 1, rate: 12000 }],
    });
    await f.configuration(weekly, { intervals: '{[2027-03-20,2027-03-27)}', order: 1, min_duration: 7, check_in_days: saturday,
      checkout_days: saturday, rates: [{ duration: 7, occupancy: 1, rate: 20000 }] });
  });
  after(() => app.close());

  const ask = async (query: string) => {
    const response = await api.get(`/v1/availability?${query}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { product_id: string; intervals: unknown[]; days?: Record<string, unknown>[] }[];
  };

  it('returns the timeline with the default show_*_as (booked and closed as unavailable, pending as tentative)', async () => {
    const [result] = await ask(`product_ids=${product}&start=2027-02-27&end=2027-04-03`);
    assert.equal(result!.product_id, product);
    assert.deepEqual(result!.intervals, [
      { start: '2027-02-27', end: '2027-03-01', status: 'unavailable' }, // the past
      { start: '2027-03-01', end: '2027-03-05', status: 'available' },
      { start: '2027-03-05', end: '2027-03-08', status: 'unavailable' }, // confirmed booking
      { start: '2027-03-08', end: '2027-03-10', status: 'available' },
      { start: '2027-03-10', end: '2027-03-12', status: 'tentative' },
      { start: '2027-03-12', end: '2027-03-15', status: 'available' },
      { start: '2027-03-15', end: '2027-03-17', status: 'unavailable' }, // blocked period
      { start: '2027-03-17', end: '2027-03-20', status: 'available' },
      { start: '2027-03-20', end: '2027-03-22', status: 'unavailable' },
      { start: '2027-03-22', end: '2027-03-24', status: 'reserved' }, // cooldown padding after the stay
      { start: '2027-03-24', end: '2027-04-01', status: 'available' }, // cancelled events and notes never block
      { start: '2027-04-01', end: '2027-04-03', status: 'unavailable' }, // no configuration
    ]);
    assert.equal(result!.days, undefined);
  });

  it('honours show_booked_as=booked, show_closed_as=closed and show_pending_as=CONFIRMED', async () => {
    const [result] = await ask(`product_id=${product}&start=2027-03-01&end=2027-04-03&show_booked_as=booked&show_closed_as=closed&show_pending_as=CONFIRMED`);
    const statuses = (result!.intervals as { start: string; status: string }[]).map((i) => `${i.start}:${i.status}`);
    assert.deepEqual(statuses, [
      '2027-03-01:available', '2027-03-05:booked', '2027-03-08:available', '2027-03-10:booked', '2027-03-12:available',
      '2027-03-15:unavailable', '2027-03-17:available', '2027-03-20:booked', '2027-03-22:reserved', '2027-03-24:available',
      '2027-04-01:closed',
    ]);
  });

  it('treats pending bookings as free with show_pending_as=CANCELLED', async () => {
    const [result] = await ask(`product_ids=${product}&start=2027-03-08&end=2027-03-15&show_pending_as=CANCELLED`);
    assert.deepEqual(result!.intervals, [{ start: '2027-03-08', end: '2027-03-15', status: 'available' }]);
  });

  it('answers the products in the order product_ids names them, as the same JSON with or without the days', async () => {
    const window = 'start=2027-03-01&end=2027-03-15';
    const response = await api.get(`/v1/availability?product_ids=${weekly},${product}&${window}`);
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    const intervals = response.json() as { product_id: string; intervals: unknown[] }[];
    assert.deepEqual(intervals.map((unit) => unit.product_id), [weekly, product]);
    const withDays = await ask(`product_ids=${weekly},${product}&${window}&include=days`);
    assert.deepEqual(withDays.map(({ product_id, intervals }) => ({ product_id, intervals })), intervals);
  });

  it('answers 404 for an unknown product named with known ones', async () => {
    const response = await api.get(`/v1/availability?product_ids=${product},00000000-0000-4000-8000-000000000000`);
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'SK602');
  });

  it('lists days with check-in/checkout weekdays, durations, advance and the per-night rate by configuration order', async () => {
    const [result] = await ask(`product_ids=${weekly}&start=2027-03-01&end=2027-03-29&include=days`);
    const days = new Map(result!.days!.map((day) => [day.date as string, day]));
    // 2027-03-06 is a Saturday: check-in allowed (5 days ahead, 7 free nights, cooldown day free), and a checkout
    // day after the free Friday night.
    assert.deepEqual(days.get('2027-03-06'), {
      date: '2027-03-06', status: 'available', check_in: true, checkout: true, min_duration: 7, max_duration: 14, rate: 12000,
    });
    assert.equal(days.get('2027-03-07')!.check_in, false); // Sunday
    assert.equal(days.get('2027-03-13')!.checkout, true); // Saturday after a free night
    assert.equal(days.get('2027-03-12')!.checkout, false); // Friday
    // The order-1 configuration governs 20–26 March: its own rate.
    assert.equal(days.get('2027-03-20')!.rate, 20000);
    assert.equal(days.get('2027-03-19')!.rate, 12000);
    assert.equal(days.get('2027-03-27')!.rate, 12000);
    // Today is 2027-03-01 and min_advance is 2: the first Saturday only works because it is 5 days ahead.
    assert.equal(days.get('2027-03-01')!.check_in, false);
    assert.equal(result!.days!.length, 28);
  });

  it('answers bad parameters with 400 and an unknown product with 404, in the API error shape', async () => {
    for (const query of ['product_ids=nope', 'start=2027-02-30', 'start=2027-03-10&end=2027-03-01', 'include=everything',
      'show_booked_as=maybe', 'start=2027-01-01&end=2031-01-01']) {
      const response = await api.get(`/v1/availability?${query}`);
      assert.equal(response.statusCode, 400, query);
      const body = response.json();
      assert.equal(body.code, 'SK601');
      assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
    }
    const missing = await api.get('/v1/availability?product_ids=00000000-0000-4000-8000-000000000000');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'SK602');
  });

  it('requires an API key', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/availability' });
    assert.equal(response.statusCode, 401);
  });
});
