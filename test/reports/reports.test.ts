import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';

// The report views (docs/reports.md) on a data set small enough to check by hand. The unit "Dune House" (nightly,
// EUR) in June 2027, a 30-day month:
//   - a stay booked through the API from 30 May to 8 June: 9 nights at 100.00 = rent 90000, of which June holds
//     7 nights (1–7 June): 90000 * 9/9 - 90000 * 2/9 = 70000;
//   - a blocked period from 12 to 15 June: 3 nights;
//   - a stay imported from Airbnb from 20 to 25 June (5 nights): rent 60000, a cleaning service 5000 (a fee), tourist tax
//     2500, a discount code -3000, and a refundable deposit 20000 (not revenue); booked on 1 March 2027; 50.00 of its payment
//     refunded;
//   - a stay from 26 to 29 June, cancelled.
// June: 30 nights, 3 blocked, so 27 available; 7 + 5 = 12 booked.
//   occupancy = 12 / 27 = 0.4444; rent = 70000 + 60000 = 130000; ADR = 130000 / 12 = 10833.33 → 10833;
//   RevPAR = 130000 / 27 = 4814.81 → 4815; fees 5000, taxes 2500, discounts -3000, total 134500.
//   Arriving in June: the import (not cancelled: 1 booking, from a channel, 5 nights, booked 111 days ahead —
//   1 March to 20 June) and the cancelled stay (1 cancellation); refunds 5000.
// May: 31 nights, none blocked; the API stay's 30 and 31 May: 2 booked, rent 20000; it arrives in May, 9 nights,
//   booked 90 days ahead (1 March to 30 May).
const JUNE = {
  month: '2027-06-01', currency: 'EUR', available_nights: 27, booked_nights: 12, blocked_nights: 3, occupancy: 0.4444,
  adr: 10833, revpar: 4815, revenue: 130000, fees: 5000, taxes: 2500, discounts: -3000, other_revenue: 0,
  total_revenue: 134500, bookings: 1, cancellations: 1, average_lead_time: 111, average_length_of_stay: 5, refunds: 5000,
  bookings_api: 0, bookings_dashboard: 0, bookings_site: 0, bookings_widget: 0, bookings_import: 1,
};
const MAY = {
  month: '2027-05-01', available_nights: 31, booked_nights: 2, blocked_nights: 0, occupancy: 0.0645, adr: 10000, revpar: 645,
  revenue: 20000, total_revenue: 20000, bookings: 1, cancellations: 0, average_lead_time: 90, average_length_of_stay: 9,
  bookings_api: 1, bookings_import: 0,
};

forEachBackend('Report views', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let product: string;
  let other: { id: string; key: string };
  let otherProduct: string;

  const get = (url: string, key = org.key, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { ...bearer(key), ...headers } });
  const pick = (row: Record<string, unknown>, expected: Record<string, unknown>) =>
    Object.fromEntries(Object.keys(expected).map((key) => [key, row[key]]));

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Reports');
    const f = fixtures(ctx.db, org.id);
    product = await f.product({ currency: 'EUR' });
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    const api = client(app, org.key);

    const direct = await api.post('/v1/book', { product_id: product, interval: { start: '2027-05-30', end: '2027-06-08' } });
    assert.equal(direct.statusCode, 201, direct.body);
    const lines = await ctx.db.query<{ item_type: string; amount: number }>(
      'SELECT item_type, amount FROM api.line_items WHERE booking_id = $1', [direct.json().booking_id]);
    assert.deepEqual(lines.rows, [{ item_type: 'rent', amount: 90000 }], 'the API stay is 9 nights at 100.00, rent only');

    const blocked = await app.inject({ method: 'POST', url: '/v1/calendar_events', headers: bearer(org.key),
      payload: { product_id: product, type: 'blocked period', start_date: '2027-06-12', end_date: '2027-06-15' } });
    assert.equal(blocked.statusCode, 201, blocked.body);

    const imported = await api.post('/v1/import-booking', {
      product_id: product, channel: 'airbnb', external_id: 'HM-JUNE', interval: { start: '2027-06-20', end: '2027-06-25' },
      guest: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      price_lines: [
        { name: 'Accommodation', amount: 60000, quantity: 5, item_type: 'rent' },
        { name: 'Cleaning', amount: 5000, item_type: 'service' },
        { name: 'Tourist tax', amount: 2500, item_type: 'tax' },
        { name: 'Weekly discount', amount: -3000, item_type: 'coupon' },
        { name: 'Damage deposit', amount: 20000, item_type: 'service', fee_type: 'deposit' },
      ],
    });
    assert.equal(imported.statusCode, 201, imported.body);
    const importedId = imported.json().booking_id as string;

    const cancelled = await api.post('/v1/book', { product_id: product, interval: { start: '2027-06-26', end: '2027-06-29' } });
    assert.equal(cancelled.statusCode, 201, cancelled.body);
    const cancel = await api.post('/v1/booking-cancel', { booking_id: cancelled.json().booking_id, reason: 'Plans changed' });
    assert.equal(cancel.statusCode, 200, cancel.body);

    const payment = await app.inject({ method: 'POST', url: '/v1/payments', headers: { ...bearer(org.key), prefer: 'return=representation' },
      payload: { booking_id: importedId, amount: 64500, status: 'paid', method: 'card' } });
    assert.equal(payment.statusCode, 201, payment.body);
    const refund = await app.inject({ method: 'POST', url: '/v1/refunds', headers: { ...bearer(org.key), prefer: 'return=representation' },
      payload: { payment_id: payment.json()[0].id, amount: 5000, status: 'refunded', reason: 'Late check-in' } });
    assert.equal(refund.statusCode, 201, refund.body);

    // The database stamps a booking's creation with its own clock; the lead times above need a known one.
    await ctx.db.query(`UPDATE api.bookings SET created_at = '2027-03-01T10:00:00Z' WHERE organization_id = $1`, [org.id]);

    other = await createOrganization(ctx.db, 'Elsewhere');
    otherProduct = await fixtures(ctx.db, other.id).product({ currency: 'EUR' });
  });
  after(() => app.close());

  it('reports June by hand: occupancy, ADR, RevPAR, revenue by kind, bookings, sources and refunds', async () => {
    const response = await get(`/v1/report_unit_months?product_id=eq.${product}&month=gte.2027-05-01&month=lt.2027-07-01&order=month`);
    assert.equal(response.statusCode, 200, response.body);
    const [may, june] = response.json<Record<string, unknown>[]>();
    assert.deepEqual(pick(june!, JUNE), JUNE);
    assert.deepEqual(pick(may!, MAY), MAY);
    assert.equal(june!.product_id, product);
  });

  it('reports each day: booked nights carry their share of the rent, blocks and cancelled stays none', async () => {
    const days = await get(`/v1/report_unit_days?select=day,status,revenue&product_id=eq.${product}&day=in.(2027-05-31,2027-06-01,2027-06-08,2027-06-12,2027-06-20,2027-06-26)&order=day`);
    assert.equal(days.statusCode, 200, days.body);
    assert.deepEqual(days.json(), [
      { day: '2027-05-31', status: 'booked', revenue: 10000 },
      { day: '2027-06-01', status: 'booked', revenue: 10000 },
      { day: '2027-06-08', status: 'available', revenue: 0 },
      { day: '2027-06-12', status: 'blocked', revenue: 0 },
      { day: '2027-06-20', status: 'booked', revenue: 12000 },
      { day: '2027-06-26', status: 'available', revenue: 0 },
    ]);
    const byStatus = await get(`/v1/report_unit_days?select=status,count(),revenue.sum()&product_id=eq.${product}&day=gte.2027-06-01&day=lt.2027-07-01&order=status`);
    assert.equal(byStatus.statusCode, 200, byStatus.body);
    assert.deepEqual(byStatus.json(), [
      { status: 'available', count: 15, sum: 0 },
      { status: 'blocked', count: 3, sum: 0 },
      { status: 'booked', count: 12, sum: 130000 },
    ]);
  });

  it('answers any month a filter asks for, far past or future, with the unit fully available', async () => {
    for (const month of ['1950-02-01', '2150-12-01']) {
      const response = await get(`/v1/report_unit_months?select=month,available_nights,booked_nights,occupancy,revenue&product_id=eq.${product}&month=eq.${month}`);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), [{ month, available_nights: month === '1950-02-01' ? 28 : 31, booked_nights: 0, occupancy: 0, revenue: 0 }]);
    }
  });

  it('aggregates over units and months as the resource engine does', async () => {
    const response = await get(`/v1/report_unit_months?select=booked:booked_nights.sum(),available:available_nights.sum(),rent:revenue.sum()&product_id=eq.${product}&month=gte.2027-05-01&month=lt.2027-07-01`);
    assert.equal(response.statusCode, 200, response.body);
    // May and June: 2 + 12 booked of 31 + 27 available; 20000 + 130000 rent.
    assert.deepEqual(response.json(), [{ booked: 14, available: 58, rent: 150000 }]);
  });

  it('answers CSV', async () => {
    const response = await get(`/v1/report_unit_months?select=month,booked_nights,available_nights,occupancy,adr,revpar&product_id=eq.${product}&month=eq.2027-06-01`,
      org.key, { accept: 'text/csv' });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /^text\/csv/);
    assert.equal(response.body.trim(), 'month,booked_nights,available_nights,occupancy,adr,revpar\n2027-06-01,12,27,0.4444,10833,4815');
  });

  it('works with reports:read alone, and refuses a key without it with 403 SK403', async () => {
    const reports = await createKey(ctx.db, org.id, ['reports:read']);
    const allowed = await get(`/v1/report_unit_months?select=booked_nights,revenue,refunds&product_id=eq.${product}&month=eq.2027-06-01`, reports);
    assert.equal(allowed.statusCode, 200, allowed.body);
    assert.deepEqual(allowed.json(), [{ booked_nights: 12, revenue: 130000, refunds: 5000 }]);
    const written = await app.inject({ method: 'POST', url: '/v1/report_unit_days', headers: bearer(org.key), payload: { day: '2027-06-01' } });
    assert.equal(written.statusCode, 405, 'reports are read-only');
    const rows = await get(`/v1/bookings?select=id`, reports);
    assert.equal(rows.statusCode, 403, 'reports:read reads the reports, not the bookings they are made from');

    const withoutReports = await createKey(ctx.db, org.id, ['bookings:read', 'products:read', 'calendar_events:read', 'line_items:read']);
    const pickup = await get(`/v1/report_unit_pickup?select=booked_nights.sum()&product_id=eq.${product}&month=eq.2027-06-01`, reports);
    assert.equal(pickup.statusCode, 200, pickup.body);
    assert.deepEqual(pickup.json(), [{ sum: 12 }]);
    for (const view of ['report_unit_months', 'report_unit_days', 'report_unit_pickup']) {
      const refused = await get(`/v1/${view}?product_id=eq.${product}&limit=1`, withoutReports);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(refused.json().code, 'SK403');
      assert.match(refused.json().details, /reports:read/);
    }
  });

  it("counts a daily unit's days of use: a stay from 10 to 12 June is 3 days, and its rent falls on those days", async () => {
    const f = fixtures(ctx.db, org.id);
    const daily = await f.product({ currency: 'EUR', rent_period: 'daily' });
    await f.configuration(daily, { rates: [{ duration: 1, occupancy: 0, rate: 4000 }] });
    const stay = await client(app, org.key).post('/v1/book', { product_id: daily, interval: { start: '2027-06-10', end: '2027-06-12' } });
    assert.equal(stay.statusCode, 201, stay.body);
    // For a daily unit `end` is the last day of use: 10, 11 and 12 June, 3 days at 40.00.
    const month = await get(`/v1/report_unit_months?select=available_nights,booked_nights,occupancy,adr,revenue&product_id=eq.${daily}&month=eq.2027-06-01`);
    assert.equal(month.statusCode, 200, month.body);
    assert.deepEqual(month.json(), [{ available_nights: 30, booked_nights: 3, occupancy: 0.1, adr: 4000, revenue: 12000 }]);
    const days = await get(`/v1/report_unit_days?select=day,status,revenue&product_id=eq.${daily}&day=gte.2027-06-09&day=lte.2027-06-13&order=day`);
    assert.deepEqual(days.json(), [
      { day: '2027-06-09', status: 'available', revenue: 0 },
      { day: '2027-06-10', status: 'booked', revenue: 4000 },
      { day: '2027-06-11', status: 'booked', revenue: 4000 },
      { day: '2027-06-12', status: 'booked', revenue: 4000 },
      { day: '2027-06-13', status: 'available', revenue: 0 },
    ]);
  });

  it('shows another organization none of it', async () => {
    const mine = await get(`/v1/report_unit_months?select=product_id,booked_nights&month=eq.2027-06-01`, other.key);
    assert.equal(mine.statusCode, 200, mine.body);
    assert.deepEqual(mine.json(), [{ product_id: otherProduct, booked_nights: 0 }]);
    const theirs = await get(`/v1/report_unit_days?product_id=eq.${product}&day=eq.2027-06-20`, other.key);
    assert.deepEqual(theirs.json(), []);
    const theirPickup = await get(`/v1/report_unit_pickup?month=eq.2027-06-01`, other.key);
    assert.deepEqual(theirPickup.json(), [], 'no stays of theirs, and none of ours');
  });

  it('reports the pickup: each month\'s nights on the books by the day they were booked, cancelled stays left out', async () => {
    // The import booked six weeks after the API stay.
    await ctx.db.query(`UPDATE api.bookings SET created_at = '2027-04-15T10:00:00Z'
      WHERE id = (SELECT booking_id FROM api.calendar_events WHERE organization_id = $1 AND origin = 'import')`, [org.id]);
    try {
      const response = await get(`/v1/report_unit_pickup?select=month,booked_on,booked_nights,bookings&product_id=eq.${product}&month=gte.2027-05-01&month=lt.2027-07-01&order=month,booked_on`);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), [
        // May: the API stay's 30 and 31 May.
        { month: '2027-05-01', booked_on: '2027-03-01', booked_nights: 2, bookings: 1 },
        // June: its 7 nights from 1 June, then the import's 5; the cancelled stay holds none.
        { month: '2027-06-01', booked_on: '2027-03-01', booked_nights: 7, bookings: 1 },
        { month: '2027-06-01', booked_on: '2027-04-15', booked_nights: 5, bookings: 1 },
      ]);
      const july = await get(`/v1/report_unit_pickup?product_id=eq.${product}&month=eq.2027-07-01`);
      assert.deepEqual(july.json(), [], 'a month without stays has no rows');
    } finally {
      await ctx.db.query(`UPDATE api.bookings SET created_at = '2027-03-01T10:00:00Z' WHERE organization_id = $1`, [org.id]);
    }
  });
});
