/**
 * Money invariants held by the database (migrations/0120), seen through the resource API: status moves and their
 * moments, a payment's currency (its booking's, filled in when left out), refunds never exceeding their payment (also when two race, on PostgreSQL), and
 * what can no longer change or be deleted once money moved.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../src/db/types.js';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, startApp } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';
import { assertRefused, bookingFixture, resourceClient, type Booked } from './support.js';

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

  it('does not let a client write paid_at', async () => {
    const payment = await api.create('payments', { booking_id: booked.bookingId, amount: 700, currency: 'EUR' });
    // The column is not the API role's to write: the engine leaves it out (or refuses), never stores it.
    const response = await api.call('PATCH', `payments?id=eq.${String(payment.id)}`, { paid_at: '2027-01-01T00:00:00Z' });
    assert.ok(response.statusCode < 500, response.body);
    assert.equal((await api.get('payments', String(payment.id))).paid_at, null);
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
