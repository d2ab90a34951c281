/**
 * A changed stay's payments follow it (docs/payments.md#when-a-stay-changes): after POST /v1/booking-change the
 * payments still to pay add up to the new total less what was paid, over the unit's schedule with due dates from
 * the new dates — for a longer, a shorter and a partly paid stay, and paid beyond the new total (refund_due). A
 * cancelled stay has nothing left to pay. /v1/payment-link and Stripe Checkout charge the re-split amounts; a
 * Checkout session made before the change is recorded for what it collected, and confirm_after_initial_payment
 * does not confirm on it.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { loadConfig } from '../../src/config.js';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';
import { assertRefused, resourceClient, type Json } from './support.js';
import { startFakeStripe, type FakeStripe } from './stripe-server.js';

const WEBHOOK_SECRET = 'whsec_localtestsecret1234567890';

interface PaymentRow {
  id: string;
  amount: number;
  status: string;
  due: string | null;
}

forEachBackend('payments follow a changed stay', (ctx) => {
  let app: FastifyInstance;
  let stripe: FakeStripe;
  let org: { id: string; key: string };
  let flow: ReturnType<typeof client>;
  let api: ReturnType<typeof resourceClient>;
  let product: string;
  let events = 0;

  before(async () => {
    stripe = await startFakeStripe();
    const config = loadConfig({ STAYKIT_SECRET_KEY: 'server-secret-for-tests-only', STAYKIT_STRIPE_API_URL: stripe.url });
    app = await startBookingApp(ctx.db, undefined, { config });
    org = await createOrganization(ctx.db, 'Changing stays');
    flow = client(app, org.key);
    api = resourceClient(app, org.key);
    const f = fixtures(ctx.db, org.id);
    // 100.00 a night; 30 % at booking, the rest 14 days before arrival.
    product = await f.product({ interaction: 'request', request_status: 'TENTATIVE', confirm_after_initial_payment: true });
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    const service = await f.service(product, { type: 'text', name: { default: 'Remarks' } });
    await f.rows('service_payment_moments', [
      { service_id: service, moment: { type: 'confirmation', offset: 0 }, value: { type: 'percentage', value: 30 } },
      { service_id: service, moment: { type: 'check-in', offset: -14 }, value: { type: 'percentage', value: 70 } },
    ]);
    const saved = await app.inject({
      method: 'PUT', url: '/v1/payment-settings', headers: { authorization: `Bearer ${org.key}` },
      payload: { stripe_secret_key: 'sk_test_51StaykitLocalOnly0000abcd', stripe_webhook_secret: WEBHOOK_SECRET, success_url: 'https://stay.example/thanks', cancel_url: 'https://stay.example/cancelled' },
    });
    assert.equal(saved.statusCode, 200, saved.body);
  });
  after(async () => {
    await app.close();
    await stripe.close();
  });

  const book = async (start: string, end: string) => {
    const response = await flow.post('/v1/book', { product_id: product, interval: { start, end } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json<{ booking_id: string; payment_url: string | null }>();
  };
  const change = async (bookingId: string, start: string, end: string, key = org.key) => {
    const response = await client(app, key).post('/v1/booking-change', { booking_id: bookingId, interval: { start, end } });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<Json>();
  };
  /** The booking's payments: paid first, then the rest in due order. */
  const payments = async (bookingId: string) => (await ctx.db.query<PaymentRow>(
    `SELECT id, amount, status, to_char(due_at AT TIME ZONE 'Europe/Amsterdam', 'YYYY-MM-DD') AS due
     FROM api.payments WHERE booking_id = $1 ORDER BY status <> 'paid', due_at NULLS FIRST, amount`, [bookingId])).rows;
  const shape = (rows: PaymentRow[]) => rows.map(({ amount, status, due }) => ({ amount, status, due }));
  const open = (rows: PaymentRow[]) => rows.filter((row) => ['pending', 'failed', 'expired'].includes(row.status));
  const sum = (rows: PaymentRow[]) => rows.reduce((total, row) => total + row.amount, 0);
  const eventStatus = async (bookingId: string) =>
    (await ctx.db.query<{ status: string }>('SELECT status FROM api.calendar_events WHERE booking_id = $1', [bookingId])).rows[0]!.status;
  const paymentLink = (bookingId: string) => app.inject({
    method: 'POST', url: '/v1/payment-link', headers: { authorization: `Bearer ${org.key}` }, payload: { booking_id: bookingId },
  });
  /** Stripe's signed checkout.session.completed for a session, with the amount it collected. */
  const sessionPaid = async (sessionId: string, paymentId: string, bookingId: string, amountTotal: number) => {
    events += 1;
    const payload = JSON.stringify({
      id: `evt_test_change_${events}`, object: 'event', type: 'checkout.session.completed', created: 1_800_000_000 + events,
      data: { object: { id: sessionId, object: 'checkout.session', payment_status: 'paid', status: 'complete',
        payment_intent: `pi_test_change_${events}`, amount_total: amountTotal, currency: 'eur',
        metadata: { payment_id: paymentId, organization_id: org.id, booking_id: bookingId } } },
    });
    const response = await app.inject({
      method: 'POST', url: `/v1/stripe/webhook/${org.id}`, payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
    });
    assert.equal(response.statusCode, 200, response.body);
  };
  const sessionOf = (url: unknown) => String(url).split('/').pop()!;

  it('a longer, moved stay re-splits what is to pay over the new dates; payment-link and Checkout charge the new amounts; a session made before the change does not confirm it', async () => {
    // 3 nights: 9,000 now, 21,000 on 2027-04-17; /book's link is a Checkout session for the 9,000.
    const booked = await book('2027-05-01', '2027-05-04');
    const staleSession = sessionOf(booked.payment_url);
    const [first] = await payments(booked.booking_id);
    assert.deepEqual(shape(await payments(booked.booking_id)), [
      { amount: 9000, status: 'pending', due: '2027-03-01' }, { amount: 21000, status: 'pending', due: '2027-04-17' }]);

    // 7 nights, five weeks later: 70,000 — 21,000 now and 49,000 fourteen days before the new arrival.
    const changed = await change(booked.booking_id, '2027-06-10', '2027-06-17');
    assert.equal(changed.total, 70000);
    const resplit = await payments(booked.booking_id);
    assert.deepEqual(shape(resplit), [
      { amount: 21000, status: 'pending', due: '2027-03-01' }, { amount: 49000, status: 'pending', due: '2027-05-27' }]);
    assert.deepEqual(changed.payments, { paid: 0, to_pay: 70000, refund_due: 0 });
    assert.equal(resplit[0]!.id, first!.id, 'the first payment is the same payment, re-split');

    // The next link charges the re-split amount.
    const link = await paymentLink(booked.booking_id);
    assert.equal(link.statusCode, 200, link.body);
    assert.deepEqual([link.json<Json>().payment_id, link.json<Json>().amount], [first!.id, 21000]);
    const asked = stripe.requests.filter((request) => request.path === '/v1/checkout/sessions').at(-1)!;
    assert.equal(asked.form['line_items[0][price_data][unit_amount]'], '21000');

    // The guest pays the session made before the change: Stripe collected 9,000. That is recorded as it is, what
    // is to pay shrinks by it, and the booking stays a request — 9,000 is not its first payment of 21,000.
    await sessionPaid(staleSession, first!.id, booked.booking_id, 9000);
    const afterStale = await payments(booked.booking_id);
    assert.deepEqual(shape(afterStale), [
      { amount: 9000, status: 'paid', due: null },
      { amount: 12000, status: 'pending', due: '2027-03-01' }, { amount: 49000, status: 'pending', due: '2027-05-27' }]);
    assert.equal(await eventStatus(booked.booking_id), 'TENTATIVE');

    // The rest of the first payment, through a new link, confirms it.
    const rest = await paymentLink(booked.booking_id);
    assert.equal(rest.json<Json>().amount, 12000);
    await sessionPaid(sessionOf(rest.json<Json>().payment_url), String(rest.json<Json>().payment_id), booked.booking_id, 12000);
    assert.equal(await eventStatus(booked.booking_id), 'CONFIRMED');
    const settled = await payments(booked.booking_id);
    assert.equal(sum(settled.filter((row) => row.status === 'paid')) + sum(open(settled)), 70000);
  });

  it('a shorter stay that is partly paid keeps the paid payment and leaves the rest to pay; paid beyond the new total, nothing is to pay and refund_due says how much', async () => {
    // 7 nights: 21,000 now (paid by bank transfer) and 49,000 later.
    const booked = await book('2027-08-01', '2027-08-08');
    const [first] = await payments(booked.booking_id);
    await api.update('payments', first!.id, { status: 'paid', method: 'bank_transfer' });

    // 3 nights: 30,000, of which 21,000 is paid — 9,000 is left, due 14 days before arrival.
    const shorter = await change(booked.booking_id, '2027-08-01', '2027-08-04');
    assert.deepEqual(shape(await payments(booked.booking_id)), [
      { amount: 21000, status: 'paid', due: '2027-03-01' }, { amount: 9000, status: 'pending', due: '2027-07-18' }]);
    assert.deepEqual(shorter.payments, { paid: 21000, to_pay: 9000, refund_due: 0 });

    // 1 night: 10,000, and 21,000 was paid: nothing is to pay, 11,000 is due back to the guest.
    const shortest = await change(booked.booking_id, '2027-08-01', '2027-08-02');
    assert.deepEqual(shape(await payments(booked.booking_id)), [
      { amount: 21000, status: 'paid', due: '2027-03-01' }, { amount: 9000, status: 'cancelled', due: '2027-07-18' }]);
    assert.deepEqual(shortest.payments, { paid: 21000, to_pay: 0, refund_due: 11000 });
    assertRefused(await paymentLink(booked.booking_id), 404, 'SK676');

    // Once the overpayment is refunded, growing the stay again asks for the difference only.
    await api.create('refunds', { payment_id: first!.id, amount: 11000, reason: 'shorter stay' });
    const longer = await change(booked.booking_id, '2027-08-01', '2027-08-03');
    assert.deepEqual(longer.payments, { paid: 10000, to_pay: 10000, refund_due: 0 });
    assert.deepEqual(open(await payments(booked.booking_id)).map((row) => row.amount), [10000]);

    // A key that may change bookings but not read payments is not told about them.
    const bookingsOnly = await createKey(ctx.db, org.id, ['bookings:write']);
    const quiet = await change(booked.booking_id, '2027-08-01', '2027-08-04', bookingsOnly);
    assert.equal(quiet.total, 30000);
    assert.equal('payments' in quiet, false);
    assert.deepEqual(open(await payments(booked.booking_id)).map((row) => row.amount), [20000]);
  });

  it('a change or a cancellation and a payment at the same moment: what is paid and what is to pay still add up', async () => {
    // On PostgreSQL the two run at once on two connections; whichever locks the payments first, the other sees it.
    for (const month of ['10', '11', '12']) {
      const booked = await book(`2027-${month}-01`, `2027-${month}-04`);
      const [first] = await payments(booked.booking_id);
      const [changed, paid] = await Promise.all([
        client(app, org.key).post('/v1/booking-change', { booking_id: booked.booking_id, interval: { start: `2027-${month}-01`, end: `2027-${month}-08` } }),
        app.inject({ method: 'PATCH', url: `/v1/payments?id=eq.${first!.id}`, headers: { authorization: `Bearer ${org.key}` }, payload: { status: 'paid' } }),
      ]);
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(paid.statusCode, 204, paid.body);
      const rows = await payments(booked.booking_id);
      assert.equal(sum(rows.filter((row) => row.status === 'paid')) + sum(open(rows)), 70000, JSON.stringify(shape(rows)));
    }
    // Cancelling and paying at once: the payment is paid before, or refused as cancelled after — never a deadlock.
    const booked = await book('2028-01-10', '2028-01-13');
    const [first] = await payments(booked.booking_id);
    const [cancelled, paid] = await Promise.all([
      flow.post('/v1/booking-cancel', { booking_id: booked.booking_id }),
      app.inject({ method: 'PATCH', url: `/v1/payments?id=eq.${first!.id}`, headers: { authorization: `Bearer ${org.key}` }, payload: { status: 'paid' } }),
    ]);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    if (paid.statusCode !== 204) assertRefused(paid, 409, 'SK660');
    assert.deepEqual(open(await payments(booked.booking_id)), []);
  });

  it('a cancelled stay has nothing left to pay; reinstated, what is not paid is due again', async () => {
    const booked = await book('2027-09-01', '2027-09-05');
    const [first, second] = await payments(booked.booking_id);
    await api.update('payments', first!.id, { status: 'paid' });
    await api.update('payments', second!.id, { status: 'failed' });
    const cancelled = await flow.post('/v1/booking-cancel', { booking_id: booked.booking_id, reason: 'Plans changed' });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.deepEqual((await payments(booked.booking_id)).map((row) => [row.amount, row.status]), [[12000, 'paid'], [28000, 'cancelled']]);
    assertRefused(await paymentLink(booked.booking_id), 404, 'SK676');
    // The guest's page shows no payment as still to pay.
    const { rows } = await ctx.db.query<{ secret: string }>('SELECT secret FROM api.bookings WHERE id = $1', [booked.booking_id]);
    const page = await app.inject({ method: 'GET', url: `/g/${rows[0]!.secret}` });
    assert.match(page.body, / — cancelled/);
    assert.doesNotMatch(page.body, / — (to pay|failed|expired)/);

    const reinstated = await app.inject({
      method: 'PATCH', url: `/v1/calendar_events?booking_id=eq.${booked.booking_id}`, headers: { authorization: `Bearer ${org.key}` },
      payload: { status: 'CONFIRMED' },
    });
    assert.equal(reinstated.statusCode, 204, reinstated.body);
    const again = open(await payments(booked.booking_id));
    assert.deepEqual(again.map((row) => [row.amount, row.status]), [[28000, 'pending']]);
    const { rows: today } = await ctx.db.query<{ today: string }>(`SELECT to_char(now() AT TIME ZONE 'Europe/Amsterdam', 'YYYY-MM-DD') AS today`);
    assert.equal(again[0]!.due, today[0]!.today, 'due the day it is reinstated');
  });
});
