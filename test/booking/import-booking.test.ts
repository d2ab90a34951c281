import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures } from '../support/fixtures.js';

// A channel manager records reservations sold elsewhere with the channel's own price, once per (channel,
// external_id), still held to the no-overlap rule, with a scope of its own.
forEachBackend('Imported reservations', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let importer: string;
  let product: string;
  const reservation = {
    channel: 'airbnb', external_id: 'HM4X7Q', interval: { start: '2027-05-10', end: '2027-05-14' },
    guest: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
    price_lines: [{ name: 'Accommodation', amount: 52000, quantity: 4 }, { name: 'Cleaning', amount: 4500, item_type: 'service' }],
  };
  const importIt = (body: Record<string, unknown>, key = importer) => client(app, key).post('/v1/import-booking', { product_id: product, ...body });
  const eventOf = async (bookingId: string) => (await ctx.db.query<{ start_date: string; end_date: string; status: string; origin: string; uid: string }>(
    `SELECT start_date::text, end_date::text, status, origin, uid FROM api.calendar_events WHERE booking_id = $1`, [bookingId])).rows[0]!;
  const amounts = async (bookingId: string) => (await ctx.db.query<{ amount: number }>(
    'SELECT amount FROM api.line_items WHERE booking_id = $1 ORDER BY amount', [bookingId])).rows.map((row) => row.amount);

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Channels');
    importer = await createKey(ctx.db, org.id, ['booking_imports:write']);
    const f = fixtures(ctx.db, org.id);
    product = await f.product();
    // min_duration 7: the channel's own rules applied, not the unit's; the price is the channel's, not 10000/night.
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }], min_duration: 7 });
  });
  after(() => app.close());

  it('records the reservation as sold, with its own scope', async () => {
    const denied = await importIt(reservation, await createKey(ctx.db, org.id, ['bookings:write']));
    assert.equal(denied.statusCode, 403, denied.body);
    const created = await importIt(reservation);
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().created, true);
    assert.equal(created.json().total, 56500);
    const id = created.json().booking_id;
    assert.deepEqual(await amounts(id), [4500, 52000]);
    const event = await eventOf(id);
    assert.deepEqual([event.start_date, event.end_date, event.status, event.origin, event.uid],
      ['2027-05-10', '2027-05-14', 'CONFIRMED', 'import', 'airbnb:HM4X7Q']);
    const listed = await app.inject({ method: 'GET', url: '/v1/booking_imports?select=channel,external_id,booking_id', headers: bearer(importer) });
    assert.deepEqual(listed.json(), [{ channel: 'airbnb', external_id: 'HM4X7Q', booking_id: id }]);
    const posted = await app.inject({ method: 'POST', url: '/v1/booking_imports', headers: bearer(org.key), payload: { channel: 'x' } });
    assert.equal(posted.statusCode, 405);
  });

  it('a repeat is idempotent; a changed repeat updates the same booking', async () => {
    const again = await importIt(reservation);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().unchanged, true);
    const moved = await importIt({ ...reservation, interval: { start: '2027-05-11', end: '2027-05-16' }, price_lines: [{ name: 'Accommodation', amount: 61000, quantity: 5 }] });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.json().booking_id, again.json().booking_id);
    assert.equal(moved.json().unchanged, false);
    const event = await eventOf(moved.json().booking_id);
    assert.deepEqual([event.start_date, event.end_date], ['2027-05-11', '2027-05-16']);
    assert.deepEqual(await amounts(moved.json().booking_id), [61000]);
    const count = await ctx.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api.bookings WHERE organization_id = $1', [org.id]);
    assert.equal(count.rows[0]!.n, 1);
    const change = await client(app, org.key).post('/v1/booking-change', { booking_id: moved.json().booking_id, interval: { start: '2027-05-11', end: '2027-05-12' } });
    assert.equal(change.statusCode, 409);
    assert.equal(change.json().code, 'SK643');
  });

  it('another channel\'s overlapping reservation is a 409 naming the stay it meets', async () => {
    const clash = await importIt({ ...reservation, channel: 'booking.com', external_id: '998877', interval: { start: '2027-05-15', end: '2027-05-18' } });
    assert.equal(clash.statusCode, 409, clash.body);
    assert.equal(clash.json().code, 'SK610');
    assert.match(clash.json().details, /booked from 2027-05-11 to 2027-05-16/);
  });

  it('a cancellation from the channel cancels the booking in its name and frees the dates', async () => {
    const cancelled = await importIt({ ...reservation, interval: { start: '2027-05-11', end: '2027-05-16' }, status: 'CANCELLED', price_lines: [] });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const booking = await ctx.db.query<{ cancelled_by: string }>('SELECT cancelled_by FROM api.bookings WHERE id = $1', [cancelled.json().booking_id]);
    assert.equal(booking.rows[0]!.cancelled_by, 'channel:airbnb');
    assert.equal((await eventOf(cancelled.json().booking_id)).status, 'CANCELLED');
    const other = await importIt({ ...reservation, channel: 'booking.com', external_id: '998877', interval: { start: '2027-05-15', end: '2027-05-18' } });
    assert.equal(other.statusCode, 201, other.body);
  });

  it('refuses unknown fields, bad lines and unknown units', async () => {
    for (const [body, pattern] of [
      [{ ...reservation, total: 1 }, /total/],
      [{ ...reservation, price_lines: [{ name: 'x', amount: 1.5 }] }, /amount/],
      [{ ...reservation, channel: 'Air BnB!' }, /channel/],
    ] as const) {
      const refused = await importIt(body);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.json().code, 'SK601');
      assert.match(refused.json().message, pattern);
    }
    const unknown = await client(app, importer).post('/v1/import-booking', { ...reservation, product_id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'SK602');
  });
});
