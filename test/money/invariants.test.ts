/**
 * Money invariants held by the database (migrations/0120, 0247), seen through the resource API: status moves and their
 * moments (a day in the past a client gives, never one in the future), a payment's currency (its booking's, filled in
 * when left out), refunds never exceeding their payment (also when two race, on PostgreSQL), and what can no longer
 * change or be deleted once money moved.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../src/db/types.js';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, startApp } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';
import { assertRefused, bookingFixture, resourceClient, type Booked, type Json } from './support.js';

forEachBackend('money invariants', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof resourceClient>;
  let org: { id: string; key: string };
  let booked: Booked;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Money');
    api = resourceClient(app, org.key);
    booked = await bookingFixture(ctx.db, org.id);
  });
  after(() => app.close());

  const paidPayment = async (amount = 10000) => {
    const payment = await api.create('payments', { booking_id: booked.bookingId, amount, currency: 'EUR', method: 'bank_transfer' });
    return api.update('payments', String(payment.id), { status: 'paid' });
  };

  it('refuses a payment in another currency than its booking', async () => {
    const response = await api.call('POST', 'payments', { booking_id: booked.bookingId, amount: 10000, currency: 'USD' });
    assertRefused(response, 422, 'SK666', /USD is not its booking's currency EUR[\s\S]*"currency": "EUR"/);
    const { rows } = await ctx.db.query('SELECT 1 FROM api.payments WHERE booking_id = $1', [booked.bookingId]);
    assert.equal(rows.length, 0);
  });

  it('fills in the booking\'s currency when the payment leaves it out, and keeps the refusal of another one', async () => {
    const dollars = await bookingFixture(ctx.db, org.id, { currency: 'USD' });
    const payment = await api.create('payments', { booking_id: dollars.bookingId, amount: 2500 });
    assert.equal(payment.currency, 'USD');
    const euros = await api.call('POST', 'payments', { booking_id: dollars.bookingId, amount: 2500, currency: 'EUR' });
    assertRefused(euros, 422, 'SK666', /EUR is not its booking's currency USD[\s\S]*"currency": "USD"/);
    const withoutBooking = await api.create('payments', { amount: 900 });
    assert.equal(withoutBooking.currency, 'EUR');
  });

  it('sets paid_at on the move into paid, and allows only the documented moves', async () => {
    const payment = await api.create('payments', { booking_id: booked.bookingId, amount: 5000, currency: 'EUR' });
    assert.equal(payment.status, 'pending');
    assert.equal(payment.paid_at, null);
    const paid = await api.update('payments', String(payment.id), { status: 'paid' });
    assert.ok(typeof paid.paid_at === 'string' && !Number.isNaN(Date.parse(paid.paid_at)), String(paid.paid_at));

    const back = await api.call('PATCH', `payments?id=eq.${String(payment.id)}`, { status: 'pending' });
    assertRefused(back, 409, 'SK660', /cannot move from paid to pending[\s\S]*Allowed moves: pending to paid, failed, cancelled or expired; paid is final; failed to pending, paid or cancelled; expired to pending, paid or cancelled/);
    const changed = await api.call('PATCH', `payments?id=eq.${String(payment.id)}`, { amount: 1 });
    assertRefused(changed, 409, 'SK663', /paid payment cannot change/);
    assertRefused(await api.call('DELETE', `payments?id=eq.${String(payment.id)}`), 409, 'SK667');
    assert.equal((await api.get('payments', String(payment.id))).amount, 5000);
  });

  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
  const minutesAhead = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
  const sameMoment = (actual: unknown, expected: string) => assert.equal(new Date(String(actual)).toISOString(), expected);

  it('keeps the day a payment arrived when a client gives it, as it was recorded, and now() when it does not', async () => {
    const arrived = daysAgo(3);
    const recorded = await api.create('payments', { booking_id: booked.bookingId, amount: 1200, method: 'bank_transfer', status: 'paid', paid_at: arrived });
    sameMoment(recorded.paid_at, arrived);
    sameMoment((await api.get('payments', String(recorded.id))).paid_at, arrived);

    const scheduled = await api.create('payments', { booking_id: booked.bookingId, amount: 1300, currency: 'EUR' });
    const moved = await api.update('payments', String(scheduled.id), { status: 'paid', paid_at: arrived });
    sameMoment(moved.paid_at, arrived);

    const undated = await api.create('payments', { booking_id: booked.bookingId, amount: 1400, status: 'paid' });
    const { rows } = await ctx.db.query<{ recent: boolean }>(
      `SELECT paid_at > now() - interval '1 minute' AS recent FROM api.payments WHERE id = $1`, [undated.id]);
    assert.equal(rows[0]!.recent, true, 'left out: the database\'s now');
  });

  it('refuses a payment date in the future (SK679), beyond the 5 minutes a clock may be ahead', async () => {
    const stored = async () => (await ctx.db.query('SELECT 1 FROM api.payments WHERE booking_id = $1', [booked.bookingId])).rows.length;
    const storedBefore = await stored();
    const tomorrow = await api.call('POST', 'payments', { booking_id: booked.bookingId, amount: 1500, status: 'paid', paid_at: minutesAhead(24 * 60) });
    assertRefused(tomorrow, 422, 'SK679', /is in the future[\s\S]*at most 00:05:00 after now/);
    assert.equal(await stored(), storedBefore, 'nothing stored');

    const scheduled = await api.create('payments', { booking_id: booked.bookingId, amount: 1600, currency: 'EUR' });
    assertRefused(await api.call('PATCH', `payments?id=eq.${String(scheduled.id)}`, { status: 'paid', paid_at: minutesAhead(10) }), 422, 'SK679');
    assert.equal((await api.get('payments', String(scheduled.id))).status, 'pending');

    const slightlyAhead = minutesAhead(2);
    sameMoment((await api.update('payments', String(scheduled.id), { status: 'paid', paid_at: slightlyAhead })).paid_at, slightlyAhead);
  });

  it('clears a date given to a payment that is not paid', async () => {
    const pending = await api.create('payments', { booking_id: booked.bookingId, amount: 1700, status: 'pending', paid_at: daysAgo(3) });
    assert.equal(pending.paid_at, null);
    const stillPending = await api.update('payments', String(pending.id), { paid_at: daysAgo(2) });
    assert.equal(stillPending.paid_at, null);
  });

  it('a booking paid with an earlier date is paid as one paid today: its payments read the same but for the date', async () => {
    const dated = await bookingFixture(ctx.db, org.id);
    const undated = await bookingFixture(ctx.db, org.id);
    const readPayments = async (booking: Booked) => {
      const response = await api.call('GET', `bookings?id=eq.${booking.bookingId}&select=payments(status,amount)&payments.order=amount`);
      assert.equal(response.statusCode, 200, response.body);
      return (response.json() as Array<{ payments: Json[] }>)[0]!.payments;
    };
    for (const booking of [dated, undated]) {
      for (const amount of [3000, 7000]) await api.create('payments', { booking_id: booking.bookingId, amount });
    }
    const pay = async (booking: Booked, fields: Json) => {
      const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM api.payments WHERE booking_id = $1 AND status = \'pending\' ORDER BY amount LIMIT 1', [booking.bookingId]);
      await api.update('payments', rows[0]!.id, { status: 'paid', ...fields });
    };
    await pay(dated, { paid_at: daysAgo(3) });
    await pay(undated, {});
    assert.deepEqual(await readPayments(dated), [{ status: 'paid', amount: 3000 }, { status: 'pending', amount: 7000 }]);
    assert.deepEqual(await readPayments(dated), await readPayments(undated));
    await pay(dated, { paid_at: daysAgo(3) });
    await pay(undated, {});
    assert.deepEqual(await readPayments(dated), [{ status: 'paid', amount: 3000 }, { status: 'paid', amount: 7000 }]);
    assert.deepEqual(await readPayments(dated), await readPayments(undated));
  });

  it('keeps the day a refund went back the same way (refunded_at)', async () => {
    const payment = await paidPayment(2000);
    const refund = await api.create('refunds', { payment_id: payment.id, amount: 500, refunded_at: daysAgo(1) });
    assert.equal(refund.refunded_at, null, 'pending: cleared');
    assertRefused(await api.call('PATCH', `refunds?id=eq.${String(refund.id)}`, { status: 'refunded', refunded_at: minutesAhead(60) }), 422, 'SK679');
    const wentBack = daysAgo(1);
    sameMoment((await api.update('refunds', String(refund.id), { status: 'refunded', refunded_at: wentBack })).refunded_at, wentBack);
  });

  it('refuses refunds beyond the payment, and of a payment that is not paid', async () => {
    const payment = await paidPayment(10000);
    const tooMuch = await api.call('POST', 'refunds', { payment_id: payment.id, amount: 999999 });
    assertRefused(tooMuch, 409, 'SK664', /exceed the payment of 10000 EUR[\s\S]*At most 10000 can still be refunded/);

    const first = await api.create('refunds', { payment_id: payment.id, amount: 4000 });
    assert.equal(first.status, 'pending');
    assertRefused(await api.call('POST', 'refunds', { payment_id: payment.id, amount: 6001 }), 409, 'SK664', /At most 6000/);
    // A failed refund frees its amount again.
    const failed = await api.create('refunds', { payment_id: payment.id, amount: 6000 });
    await api.update('refunds', String(failed.id), { status: 'failed' });
    const rest = await api.create('refunds', { payment_id: payment.id, amount: 6000 });
    // Raising a refund past what is left is refused too.
    assertRefused(await api.call('PATCH', `refunds?id=eq.${String(rest.id)}`, { amount: 6001 }), 409, 'SK664');

    const refunded = await api.update('refunds', String(first.id), { status: 'refunded' });
    assert.ok(typeof refunded.refunded_at === 'string', String(refunded.refunded_at));
    assertRefused(await api.call('PATCH', `refunds?id=eq.${String(first.id)}`, { status: 'pending' }), 409, 'SK661', /pending to refunded or failed/);
    assertRefused(await api.call('PATCH', `refunds?id=eq.${String(failed.id)}`, { status: 'pending' }), 409, 'SK661', /failed is final/);
    assertRefused(await api.call('DELETE', `refunds?id=eq.${String(first.id)}`), 409, 'SK667');

    const pending = await api.create('payments', { booking_id: booked.bookingId, amount: 3000, currency: 'EUR' });
    assertRefused(await api.call('POST', 'refunds', { payment_id: pending.id, amount: 100 }), 409, 'SK665', /this one is pending/);
  });

  it('two refunds racing past the payment: one is refused', { skip: ctx.backend !== 'postgres' && 'needs two connections (PostgreSQL)' }, async () => {
    const payment = await paidPayment(10000);
    const refund = (tx: Queryable, amount: number) => fixtures(tx, org.id).row('refunds', { payment_id: payment.id, amount });
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let firstInserted!: () => void;
    const inserted = new Promise<void>((resolve) => { firstInserted = resolve; });
    // The first transaction writes its refund and stays open; the second starts while it is open.
    const first = ctx.db.transaction(async (tx) => {
      await refund(tx, 6000);
      firstInserted();
      await held;
    });
    await inserted;
    const second = ctx.db.transaction((tx) => refund(tx, 6000));
    let secondFinished = false;
    second.then(() => { secondFinished = true; }, () => { secondFinished = true; });
    // Wait (by observation, not by time) until the second is blocked on the payment's row lock — or has finished
    // without waiting, which the outcome below then shows — and commit the first.
    for (;;) {
      const { rows } = await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      if (rows[0]!.n > 0 || secondFinished) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    release();
    const results = await Promise.allSettled([first, second]);
    assert.equal(results[0].status, 'fulfilled');
    assert.equal(results[1].status, 'rejected');
    assert.equal((results[1] as PromiseRejectedResult).reason.code, 'SK664');
    const { rows } = await ctx.db.query<{ total: number }>(
      'SELECT sum(amount)::int AS total FROM api.refunds WHERE payment_id = $1', [payment.id]);
    assert.equal(rows[0]!.total, 6000);
  });
});
