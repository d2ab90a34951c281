/**
 * Money after a cancellation (issue: a first real day, item 2): what is still to pay is cancelled, what was paid is
 * refunded as the unit's cancellation policy says for how long before arrival the booking is cancelled, an issued
 * invoice gets a credit invoice so the invoices add up to what the guest finally pays, and the guest page says what
 * is refunded — whoever cancels. The database's clock decides "days before arrival", so the stays are placed relative
 * to today, each well inside its policy band.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { addDays } from '../../src/common/dates.js';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';

const POLICY = [{ days_before_arrival: 30, refund_percentage: 100 }, { days_before_arrival: 7, refund_percentage: 50 }];

forEachBackend('money after a cancellation', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let product: string;
  let adults: string;
  const today = new Date().toISOString().slice(0, 10);

  before(async () => {
    app = await startBookingApp(ctx.db, null); // the real clock: the database's decides the policy band
    org = await createOrganization(ctx.db, 'Settling Rentals');
    await ctx.db.query(`UPDATE api.organizations SET settings = '{"invoices": {"on_confirmation": "issue"}}' WHERE id = $1`, [org.id]);
    const f = fixtures(ctx.db, org.id);
    adults = await f.group('Adults');
    product = await f.product({ name: { default: 'Dune House' }, timezone: 'UTC', cancellation_policy: JSON.stringify(POLICY) });
    await f.configuration(product, { intervals: `{[${addDays(today, -1)},${addDays(today, 400)})}`, rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
  });
  after(() => app.close());

  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, key = org.key) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload === undefined ? {} : { payload: payload as object }) });

  /** A two-night stay `daysAhead` from today (total 200.00), its payment paid for `paid` of it. */
  async function paidStay(daysAhead: number, paid = 20000) {
    const start = addDays(today, daysAhead);
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: product, interval: { start, end: addDays(start, 2) }, occupancy: { [adults]: 2 }, language: 'en',
      contact: { first_name: 'Lena', email: 'lena@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const bookingId = (booked.json() as { booking_id: string }).booking_id;
    const [payment] = (await api('GET', `/v1/payments?booking_id=eq.${bookingId}&select=id,amount`)).json() as { id: string; amount: number }[];
    assert.equal(payment!.amount, 20000);
    if (paid === 20000) {
      assert.equal((await api('PATCH', `/v1/payments?id=eq.${payment!.id}`, { status: 'paid' })).statusCode, 204);
    } else if (paid > 0) {
      // Part paid: the schedule's payment is split as a host records a deposit received.
      assert.equal((await api('PATCH', `/v1/payments?id=eq.${payment!.id}`, { amount: 20000 - paid })).statusCode, 204);
      const deposit = await api('POST', '/v1/payments', { booking_id: bookingId, amount: paid, status: 'paid', currency: 'EUR' });
      assert.equal(deposit.statusCode, 201, deposit.body);
    }
    return bookingId;
  }

  const moneyOf = async (bookingId: string) => ({
    payments: ((await api('GET', `/v1/payments?booking_id=eq.${bookingId}&select=amount,status&order=amount`)).json() as { amount: number; status: string }[]),
    refunds: ((await api('GET', `/v1/refunds?select=amount,status,payments!inner(booking_id)&payments.booking_id=eq.${bookingId}`)).json() as { amount: number }[])
      .map((refund) => refund.amount),
    invoices: ((await api('GET', `/v1/invoices?booking_id=eq.${bookingId}&select=total,status,credit_for_id&order=created_at`)).json() as { total: number; status: string; credit_for_id: string | null }[]),
  });

  it('refunds half of what was paid within the 50 % band, keeps the fee invoiced and credits the rest', async () => {
    const bookingId = await paidStay(15);
    const cancelled = await api('POST', '/v1/booking-cancel', { booking_id: bookingId, reason: 'Change of plans' });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const { settlement } = cancelled.json() as { settlement: Record<string, unknown> };
    assert.deepEqual({ ...settlement, credit_invoice_id: typeof settlement.credit_invoice_id },
      { refund_percentage: 50, days_before_arrival: 15, paid: 20000, fee: 10000, refund: 10000, credit_invoice_id: 'string' });
    const money = await moneyOf(bookingId);
    assert.deepEqual(money.refunds, [10000]);
    assert.deepEqual(money.invoices.map((invoice) => [invoice.total, invoice.status, invoice.credit_for_id !== null]),
      [[20000, 'issued', false], [-10000, 'issued', true]]);
    assert.equal(money.invoices.reduce((sum, invoice) => sum + invoice.total, 0), 10000, 'the invoices add up to the fee kept');

    const { rows } = await ctx.db.query<{ secret: string }>('SELECT secret FROM api.bookings WHERE id = $1', [bookingId]);
    const page = await app.inject({ method: 'GET', url: `/g/${rows[0]!.secret}` });
    assert.match(page.body, /<h3>Refunds<\/h3><ul data-refunds><li>€100\.00 is being refunded<\/li><\/ul>/);
  });

  it('refunds everything early, nothing late, and as asked: refund "none" or "full"', async () => {
    const early = await paidStay(45);
    const earlyCancelled = (await api('POST', '/v1/booking-cancel', { booking_id: early })).json() as { settlement: { refund: number; fee: number } };
    assert.deepEqual([earlyCancelled.settlement.refund, earlyCancelled.settlement.fee], [20000, 0]);
    assert.deepEqual((await moneyOf(early)).invoices.map((invoice) => invoice.total), [20000, -20000]);

    const late = await paidStay(3);
    const lateCancelled = (await api('POST', '/v1/booking-cancel', { booking_id: late })).json() as { settlement: { refund: number; fee: number } };
    assert.deepEqual([lateCancelled.settlement.refund, lateCancelled.settlement.fee], [0, 20000]);
    const lateMoney = await moneyOf(late);
    assert.deepEqual([lateMoney.refunds, lateMoney.invoices.map((invoice) => invoice.total)], [[], [20000]], 'no refund, no credit');

    const kept = await paidStay(50);
    assert.equal(((await api('POST', '/v1/booking-cancel', { booking_id: kept, refund: 'none' })).json() as { settlement: { refund: number } }).settlement.refund, 0);
    const given = await paidStay(5);
    assert.equal(((await api('POST', '/v1/booking-cancel', { booking_id: given, refund: 'full' })).json() as { settlement: { refund: number } }).settlement.refund, 20000);
    const wrong = await api('POST', '/v1/booking-cancel', { booking_id: given, refund: 'half' });
    assert.equal(wrong.statusCode, 400, wrong.body);
  });

  it('keeps at most what was paid and cancels what is still to pay, also when the status is patched', async () => {
    const bookingId = await paidStay(15, 6000);
    const [event] = (await api('GET', `/v1/calendar_events?booking_id=eq.${bookingId}&select=id`)).json() as { id: string }[];
    const patched = await api('PATCH', `/v1/calendar_events?id=eq.${event!.id}`, { status: 'CANCELLED' });
    assert.equal(patched.statusCode, 204, patched.body);
    const money = await moneyOf(bookingId);
    assert.deepEqual(money.payments.map((payment) => payment.status).sort(), ['cancelled', 'paid']);
    assert.deepEqual(money.refunds, [], 'the 6,000 paid is less than the 10,000 fee');
    assert.deepEqual(money.invoices.map((invoice) => invoice.total), [20000, -14000]);
  });

  it('shows the settlement only to whoever may read payments, and refuses a policy of the wrong shape', async () => {
    const bookingId = await paidStay(20);
    const narrow = await createKey(ctx.db, org.id, ['bookings:write']);
    const cancelled = await api('POST', '/v1/booking-cancel', { booking_id: bookingId }, narrow);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal('settlement' in (cancelled.json() as object), false);
    for (const policy of [{ days: 3 }, [{ days_before_arrival: -1, refund_percentage: 50 }], [{ days_before_arrival: 3, refund_percentage: 150 }]]) {
      const refused = await api('PATCH', `/v1/products?id=eq.${product}`, { cancellation_policy: policy });
      assert.equal(refused.statusCode, 400, refused.body);
    }
  });
});
