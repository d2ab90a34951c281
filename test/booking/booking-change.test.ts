import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { fuzzParameters } from '../fuzz/arbitraries.js';
import { bearer, createOrganization } from '../support/app.js';
import { addDays } from '../../src/common/dates.js';
import { client, startBookingApp } from './support.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';

const RATES = [{ duration: 1, occupancy: 0, rate: 10000 }, { duration: 1, occupancy: 3, rate: 14000 }, { duration: 7, occupancy: 0, rate: 9000 }];

// POST /v1/booking-change re-checks every rule and re-prices with the code of /quote; dry_run changes nothing; a
// raw PATCH of a booking event's dates or unit is refused, naming the endpoint.
forEachBackend('Changing a booking', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let f: Fixtures;
  let product: string;
  let twin: string;
  let adults: string;
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) => client(app, org.key).post(url, body, headers);
  const event = async (bookingId: string) => (await ctx.db.query<{ id: string; start_date: string; end_date: string; product_id: string }>(
    `SELECT id, start_date::text, end_date::text, product_id FROM api.calendar_events WHERE booking_id = $1`, [bookingId])).rows[0]!;
  const lines = async (bookingId: string) => (await ctx.db.query<{ item_type: string; amount: number; quantity: number }>(
    `SELECT item_type, amount, quantity FROM api.line_items WHERE booking_id = $1 ORDER BY item_type, amount`, [bookingId])).rows;
  const unit = async (name: string) => {
    const id = await f.product({ name: { default: name } });
    await f.configuration(id, {
      rates: RATES, min_duration: 2, cooldown_time: 1,
      long_rent_adjustments: [{ min_duration: 5, percentage: -10 }],
    });
    await f.capacity(id, adults, 1, 4);
    await f.tax(id, { name: 'Tourist tax', percentage: 5, inclusive: false, applies_to: 'rent' });
    return id;
  };

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Change');
    f = fixtures(ctx.db, org.id);
    adults = await f.group('Adults');
    product = await unit('Booked house');
    twin = await unit('Its twin, never booked');
    await f.coupon({ code: 'KEEP', quota: 1, definition: { type: 'fixed', value: 500 } });
  });
  after(() => app.close());

  const book = async (start: string, end: string, extra: Record<string, unknown> = {}) => {
    const response = await post('/v1/book', { product_id: product, interval: { start, end }, occupancy: { [adults]: 2 }, ...extra });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().booking_id as string;
  };

  it('dry_run shows the new quote and the delta and changes nothing; the change then applies it atomically', async () => {
    const booking = await book('2027-04-05', '2027-04-08', { coupon_codes: ['KEEP'] });
    const before = await lines(booking);
    const dry = await post('/v1/booking-change', { booking_id: booking, interval: { start: '2027-04-05', end: '2027-04-10' }, dry_run: true });
    assert.equal(dry.statusCode, 200, dry.body);
    const body = dry.json();
    assert.equal(body.dry_run, true);
    assert.deepEqual(body.changes, { interval: { old: { start: '2027-04-05', end: '2027-04-08' }, new: { start: '2027-04-05', end: '2027-04-10' } } });
    assert.equal(body.delta, body.total - body.previous_total);
    assert.equal(body.quote.total, body.total);
    assert.ok(body.quote.line_items.some((line: { item_type: string }) => line.item_type === 'adjustment'), 'the long-stay discount applies now');
    assert.deepEqual((await event(booking)).end_date, '2027-04-08');
    assert.deepEqual(await lines(booking), before);

    const key = { 'idempotency-key': 'change-1' };
    const change = { booking_id: booking, interval: { start: '2027-04-05', end: '2027-04-10' } };
    const applied = await post('/v1/booking-change', change, key);
    assert.equal(applied.statusCode, 200, applied.body);
    assert.equal(applied.json().total, body.total);
    assert.equal((await event(booking)).end_date, '2027-04-10');
    const stored = await lines(booking);
    assert.equal(stored.filter((l) => l.item_type !== 'tax' && l.item_type !== 'coupon').length + stored.filter((l) => l.item_type === 'tax' || l.item_type === 'coupon').length, body.quote.line_items.length);
    assert.equal(stored.reduce((sum, l) => sum + l.amount, 0), body.total);
    const uses = await ctx.db.query(`SELECT 1 FROM api.coupon_uses WHERE booking_id = $1`, [booking]);
    assert.equal(uses.rows.length, 1, 'the coupon, re-evaluated, is still the booking\'s (its own use does not count against the quota)');

    const replay = await post('/v1/booking-change', change, key);
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    const mismatch = await post('/v1/booking-change', { ...change, interval: { start: '2027-04-05', end: '2027-04-11' } }, key);
    assert.equal(mismatch.statusCode, 422);
    assert.equal(mismatch.json().code, 'SK621');

    const log = await ctx.db.query<{ changed_fields: string[]; changes: { total: { old: number; new: number } } }>(
      `SELECT changed_fields, changes FROM api.booking_updates WHERE booking_id = $1 AND 'interval' = ANY (changed_fields)`, [booking]);
    assert.equal(log.rows.length, 1);
    assert.deepEqual(log.rows[0]!.changes.total, { old: body.previous_total, new: body.total });
  });

  it('a change that breaks a rule is refused with the rule; an overlap with another stay with 409; nothing changes', async () => {
    const booking = await book('2027-05-03', '2027-05-06');
    await book('2027-05-10', '2027-05-13');
    const tooShort = await post('/v1/booking-change', { booking_id: booking, interval: { start: '2027-05-03', end: '2027-05-04' } });
    assert.equal(tooShort.statusCode, 422, tooShort.body);
    assert.equal(tooShort.json().code, 'SK611');
    assert.match(tooShort.json().details, /at least 2 nights/);
    const crowded = await post('/v1/booking-change', { booking_id: booking, occupancy: { [adults]: 6 } });
    assert.equal(crowded.statusCode, 422);
    assert.equal(crowded.json().code, 'SK612');
    const overlap = await post('/v1/booking-change', { booking_id: booking, interval: { start: '2027-05-08', end: '2027-05-11' } });
    assert.equal(overlap.statusCode, 409);
    assert.equal(overlap.json().code, 'SK610');
    assert.equal((await event(booking)).start_date, '2027-05-03');
    const shifted = await post('/v1/booking-change', { booking_id: booking, interval: { start: '2027-05-04', end: '2027-05-07' } });
    assert.equal(shifted.statusCode, 200, 'a stay may move over its own dates');
    const moved = await post('/v1/booking-change', { booking_id: booking, product_id: twin });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal((await event(booking)).product_id, twin);
    assert.deepEqual(moved.json().changes.product_id, { old: product, new: twin });
  });

  it('a raw PATCH of a booking event\'s dates or unit is refused naming the endpoint; its status still moves', async () => {
    const booking = await book('2027-06-07', '2027-06-10');
    const { id } = await event(booking);
    const patch = (payload: Record<string, unknown>) =>
      app.inject({ method: 'PATCH', url: `/v1/calendar_events?id=eq.${id}`, headers: bearer(org.key), payload });
    for (const payload of [{ end_date: '2027-06-09' }, { product_id: twin }]) {
      const refused = await patch(payload);
      assert.equal(refused.statusCode, 409, refused.body);
      assert.equal(refused.json().code, 'SK644');
      assert.match(refused.json().message, /POST \/v1\/booking-change/);
    }
    assert.equal((await patch({ notes: 'late arrival' })).statusCode, 204);
    assert.equal((await patch({ status: 'CANCELLED' })).statusCode, 204);
    const cancelled = await post('/v1/booking-change', { booking_id: booking, interval: { start: '2027-06-07', end: '2027-06-09' } });
    assert.equal(cancelled.statusCode, 409);
    assert.equal(cancelled.json().code, 'SK643');
  });

  it('refuses unknown bookings, unknown fields and options that belong to the booking', async () => {
    const unknown = await post('/v1/booking-change', { booking_id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'SK642');
    for (const body of [{ booking_id: unknown.json().code, price: 1 }, { booking_id: '00000000-0000-4000-8000-000000000000', currency: 'EUR' }]) {
      const refused = await post('/v1/booking-change', body);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.json().code, 'SK601');
    }
  });

  it('a change that fits re-prices exactly as a fresh /quote of the new stay (random changes)', async () => {
    const booking = await book('2027-09-06', '2027-09-09');
    const base = '2027-09-01';
    const change = fc.record({
      offset: fc.integer({ min: 0, max: 20 }),
      nights: fc.integer({ min: 2, max: 9 }),
      guests: fc.integer({ min: 1, max: 4 }),
    });
    await fc.assert(fc.asyncProperty(change, async ({ offset, nights, guests }) => {
      const interval = { start: addDays(base, offset), end: addDays(base, offset + nights) };
      const changed = await post('/v1/booking-change', { booking_id: booking, interval, occupancy: { [adults]: guests } });
      assert.equal(changed.statusCode, 200, changed.body);
      const fresh = await post('/v1/quote', { product_id: twin, interval, occupancy: { [adults]: guests } });
      assert.equal(fresh.statusCode, 200, fresh.body);
      const strip = (items: { item_type: string; amount: number; quantity: number; name: string }[]) =>
        items.map(({ item_type, amount, quantity, name }) => ({ item_type, amount, quantity, name }));
      assert.deepEqual(strip(changed.json().quote.line_items), strip(fresh.json().line_items));
      assert.equal(changed.json().total, fresh.json().total);
      const stored = await lines(booking);
      assert.equal(stored.filter((line) => line.item_type !== 'deposit').reduce((sum, line) => sum + line.amount, 0), fresh.json().total);
    }), fuzzParameters(12));
  });
});
