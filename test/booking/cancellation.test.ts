import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures } from '../support/fixtures.js';

// Cancelling a booking releases its coupon uses and records who cancelled and why, whoever moves its event to
// CANCELLED; the webhooks of the cancellation say so.
forEachBackend('Cancelling a booking', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let product: string;
  let stay = 0;

  /** A fresh week per booking, so stays never meet. */
  const book = (couponCodes: string[] = []) => {
    stay += 1;
    const start = `2027-${String(3 + Math.floor(stay / 4)).padStart(2, '0')}-${String(1 + (stay % 4) * 7).padStart(2, '0')}`;
    const end = `${start.slice(0, 8)}${String(Number(start.slice(8)) + 2).padStart(2, '0')}`;
    return client(app, org.key).post('/v1/book', { product_id: product, interval: { start, end }, coupon_codes: couponCodes });
  };
  const cancel = (body: unknown) => client(app, org.key).post('/v1/booking-cancel', body);
  const booking = async (id: string) => (await ctx.db.query<{
    cancelled_at: Date | null; cancelled_by: string | null; cancellation_reason: string | null; uses: number;
  }>(`SELECT b.cancelled_at, b.cancelled_by, b.cancellation_reason,
        (SELECT count(*)::integer FROM api.coupon_uses AS u WHERE u.booking_id = b.id) AS uses
      FROM api.bookings AS b WHERE b.id = $1`, [id])).rows[0]!;
  const setStatus = (bookingId: string, status: string) => app.inject({
    method: 'PATCH', url: `/v1/calendar_events?booking_id=eq.${bookingId}`, headers: bearer(org.key), payload: { status },
  });

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Cancel');
    const f = fixtures(ctx.db, org.id);
    product = await f.product();
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    await f.coupon({ code: 'ONCE', quota: 1, definition: { type: 'fixed', value: 1000 } });
    await f.webhook();
  });
  after(() => app.close());

  it('POST /v1/booking-cancel records who and why, and the coupon can be used again', async () => {
    const first = await book(['ONCE']);
    assert.equal(first.statusCode, 201, first.body);
    const usedUp = await book(['ONCE']);
    assert.equal(usedUp.statusCode, 422);
    assert.equal(usedUp.json().code, 'SK615');

    const cancelled = await cancel({ booking_id: first.json().booking_id, reason: 'Guest fell ill' });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const keyId = org.key.split('_')[1];
    assert.equal(cancelled.json().cancelled_by, `api_key:${keyId}`);
    assert.equal(cancelled.json().cancellation_reason, 'Guest fell ill');
    assert.equal(cancelled.json().released_coupon_uses, 1);
    const row = await booking(first.json().booking_id);
    assert.ok(row.cancelled_at);
    assert.equal(row.uses, 0);

    const again = await book(['ONCE']);
    assert.equal(again.statusCode, 201, again.body);

    const repeat = await cancel({ booking_id: first.json().booking_id, reason: 'asked twice' });
    assert.equal(repeat.statusCode, 200, 'cancelling a cancelled booking answers its state');
    assert.equal(repeat.json().cancellation_reason, 'Guest fell ill');
  });

  it('the cancellation webhooks carry who and why', async () => {
    const made = await book();
    await cancel({ booking_id: made.json().booking_id, reason: 'Double booking on another channel' });
    const notifications = await ctx.db.query<{ event_type: string; payload: { payload: { new: Record<string, unknown> } } }>(
      `SELECT event_type, payload FROM api.webhook_notifications
       WHERE organization_id = $1 AND event_type IN ('bookings.updated', 'calendar_events.cancelled')
         AND (payload -> 'payload' -> 'new' ->> 'id' = $2 OR payload -> 'payload' -> 'new' ->> 'booking_id' = $2)
       ORDER BY created_at`, [org.id, made.json().booking_id]);
    const types = notifications.rows.map((row) => row.event_type);
    assert.ok(types.includes('calendar_events.cancelled'), types.join());
    const updated = notifications.rows.filter((row) => row.event_type === 'bookings.updated' && row.payload.payload.new.cancelled_at);
    assert.equal(updated.length, 1, 'one bookings.updated for the cancellation');
    assert.equal(updated[0]!.payload.payload.new.cancellation_reason, 'Double booking on another channel');
    assert.match(String(updated[0]!.payload.payload.new.cancelled_by), /^api_key:/);
    assert.ok(updated[0]!.payload.payload.new.cancelled_at);
  });

  it('a PATCH of the event status cancels the same way; reinstating takes the coupon back if it has uses left', async () => {
    const [usesBefore] = (await ctx.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM api.coupon_uses u JOIN api.coupons c ON c.id = u.coupon_id WHERE c.code = 'ONCE'`)).rows;
    assert.equal(usesBefore!.n, 1, 'the booking of the first test holds the only use');
    const holder = (await ctx.db.query<{ booking_id: string }>(
      `SELECT u.booking_id FROM api.coupon_uses u JOIN api.coupons c ON c.id = u.coupon_id WHERE c.code = 'ONCE'`)).rows[0]!.booking_id;
    assert.equal((await app.inject({
      method: 'PATCH', url: `/v1/bookings?id=eq.${holder}`, headers: bearer(org.key), payload: { cancellation_reason: 'Owner needs the house' },
    })).statusCode, 204);
    assert.equal((await setStatus(holder, 'CANCELLED')).statusCode, 204);
    const cancelled = await booking(holder);
    assert.equal(cancelled.uses, 0);
    assert.equal(cancelled.cancellation_reason, 'Owner needs the house');
    assert.match(String(cancelled.cancelled_by), /^api_key:/);

    const taker = await book(['ONCE']);
    assert.equal(taker.statusCode, 201, taker.body);
    const refused = await setStatus(holder, 'CONFIRMED');
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'SK645');
    assert.equal((await booking(holder)).uses, 0);

    assert.equal((await cancel({ booking_id: taker.json().booking_id })).statusCode, 200);
    assert.equal((await setStatus(holder, 'CONFIRMED')).statusCode, 204);
    const back = await booking(holder);
    assert.equal(back.uses, 1);
    assert.equal(back.cancelled_at, null);
    assert.equal(back.cancelled_by, null);
  });

  it('cancelled_at and cancelled_by are the server\'s; bad input and unknown bookings are refused', async () => {
    const made = await book();
    const forged = await app.inject({
      method: 'PATCH', url: `/v1/bookings?id=eq.${made.json().booking_id}`,
      headers: { ...bearer(org.key), prefer: 'handling=strict' }, payload: { cancelled_by: 'someone', cancelled_at: '2027-01-01T00:00:00Z' },
    });
    assert.equal(forged.statusCode, 400, forged.body);
    assert.equal(forged.json().code, 'SK407');
    const unknown = await cancel({ booking_id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'SK642');
    const extra = await cancel({ booking_id: made.json().booking_id, refund: true });
    assert.equal(extra.statusCode, 400);
    assert.equal(extra.json().code, 'SK601');
    assert.match(extra.json().message, /refund/);
    const other = await createOrganization(ctx.db, 'Other');
    const foreign = await client(app, other.key).post('/v1/booking-cancel', { booking_id: made.json().booking_id });
    assert.equal(foreign.statusCode, 404);
    assert.equal((await booking(made.json().booking_id)).cancelled_at, null);
  });
});
