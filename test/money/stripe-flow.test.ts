/**
 * Online payment end to end, against a local server that speaks Stripe's API (never the internet): the schedule
 * in /quote and /book, /book's and /cart-checkout's payment_url (a Checkout session for the first payment), Stripe's signed
 * checkout.session.completed → payment paid → request booking confirmed → payments.paid webhook delivered; a
 * replayed or tampered event changes nothing; a refund is executed at Stripe; keys are stored encrypted and never
 * shown. Without Stripe keys, payments are manual and payment_url is null.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { loadConfig } from '../../src/config.js';
import { deliverDue } from '../../src/webhooks/worker.js';
import { startStripeRefundRetries } from '../../src/money/stripe-refunds.js';
import { stripeClientFactory } from '../../src/money/stripe-client.js';
import { silentLogger } from '../../src/observability/worker-logger.js';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';
import { createWebhook, startReceiver, type Receiver } from '../webhooks/support.js';
import { assertRefused, type Json } from './support.js';
import { startFakeStripe, type FakeStripe } from './stripe-server.js';

const SECRET_KEY = 'sk_test_51StaykitLocalOnly0000abcd';
const WEBHOOK_SECRET = 'whsec_localtestsecret1234567890';

/** Polls `check` until it returns a value (an observation, not a timer: each look is a query). */
async function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 20_000; attempt += 1) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition never met');
}

forEachBackend('online payments with Stripe', (ctx) => {
  let app: FastifyInstance;
  let stripe: FakeStripe;
  let receiver: Receiver;
  let org: { id: string; key: string };
  let api: ReturnType<typeof client>;
  let product: string;

  before(async () => {
    stripe = await startFakeStripe();
    receiver = await startReceiver();
    const config = loadConfig({ STAYKIT_SECRET_KEY: 'server-secret-for-tests-only', STAYKIT_STRIPE_API_URL: stripe.url });
    app = await startBookingApp(ctx.db, undefined, { config });
    org = await createOrganization(ctx.db, 'Online');
    api = client(app, org.key);
    const f = fixtures(ctx.db, org.id);
    product = await f.product({ interaction: 'request', request_status: 'TENTATIVE', confirm_after_initial_payment: true });
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    const form = await f.service(product, { type: 'text', name: { default: 'Remarks' } });
    for (const [moment, value] of [[{ type: 'confirmation', offset: 0 }, { type: 'percentage', value: 30 }],
      [{ type: 'check-in', offset: -14 }, { type: 'percentage', value: 70 }]]) {
      await f.row('service_payment_moments', { service_id: form, moment, value });
    }
    const hook = await createWebhook(ctx.db, org.id, receiver.url, ['payments.paid']);
    receiver.secret = hook.signing_secret;
  });
  after(async () => {
    await app.close();
    await stripe.close();
    await receiver.close();
  });

  const stay = { interval: { start: '2027-04-10', end: '2027-04-17' } };
  const put = (body: unknown, key = org.key) => app.inject({ method: 'PUT', url: '/v1/payment-settings', headers: { authorization: `Bearer ${key}` }, payload: body as object });
  const sendEvent = (payload: string, header: string) => app.inject({
    method: 'POST', url: `/v1/stripe/webhook/${org.id}`, payload, headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });

  it('without Stripe keys, /book writes the schedule as pending payments and has no payment_url', async () => {
    const quote = await api.post('/v1/quote', { product_id: product, ...stay });
    assert.equal(quote.statusCode, 200, quote.body);
    assert.deepEqual((quote.json() as Json).payment_schedule, [
      { amount: 21000, due_date: '2027-03-01', moment: { type: 'confirmation', offset: 0 } },
      { amount: 49000, due_date: '2027-03-27', moment: { type: 'check-in', offset: -14 } },
    ]);
    const booked = await api.post('/v1/book', { product_id: product, interval: { start: '2027-05-01', end: '2027-05-08' } });
    assert.equal(booked.statusCode, 201, booked.body);
    const body = booked.json() as Json;
    assert.equal(body.payment_url, null);
    const { rows } = await ctx.db.query<{ amount: number; status: string; due: string }>(
      `SELECT amount, status, to_char(due_at AT TIME ZONE 'Europe/Amsterdam', 'YYYY-MM-DD HH24:MI') AS due
       FROM api.payments WHERE booking_id = $1 ORDER BY due_at`, [body.booking_id]);
    assert.deepEqual(rows, [{ amount: 21000, status: 'pending', due: '2027-03-01 00:00' }, { amount: 49000, status: 'pending', due: '2027-04-17 00:00' }]);
    const link = await app.inject({ method: 'POST', url: '/v1/payment-link', headers: { authorization: `Bearer ${org.key}` }, payload: { booking_id: body.booking_id } });
    assertRefused(link, 409, 'SK671');
  });

  it('stores the Stripe keys encrypted and never shows them', async () => {
    assertRefused(await put({ stripe_secret_key: 'nope', stripe_webhook_secret: WEBHOOK_SECRET, success_url: 'https://a.example/ok', cancel_url: 'https://a.example/no' }), 400, 'SK675', /stripe_secret_key/);
    const saved = await put({ stripe_secret_key: SECRET_KEY, stripe_webhook_secret: WEBHOOK_SECRET, success_url: 'https://stay.example/thanks', cancel_url: 'https://stay.example/cancelled' });
    assert.equal(saved.statusCode, 200, saved.body);
    const shown = await app.inject({ method: 'GET', url: '/v1/payment-settings', headers: { authorization: `Bearer ${org.key}` } });
    assert.equal((shown.json() as Json).secret_key_hint, 'abcd');
    assert.ok(!shown.body.includes(SECRET_KEY) && !shown.body.includes(WEBHOOK_SECRET), shown.body);
    const { rows } = await ctx.db.query<{ stored: string }>('SELECT row_to_json(a)::text AS stored FROM staykit_internal.payment_accounts AS a WHERE organization_id = $1', [org.id]);
    assert.ok(!rows[0]!.stored.includes(SECRET_KEY) && !rows[0]!.stored.includes(WEBHOOK_SECRET));
    // Not through the resource API either.
    const direct = await app.inject({ method: 'GET', url: '/v1/payment_accounts', headers: { authorization: `Bearer ${org.key}` } });
    assert.equal(direct.statusCode, 404, direct.body);
  });

  it('/book → payment_url → signed checkout.session.completed → paid → confirmed → payments.paid delivered; replayed or tampered events change nothing', async () => {
    const booked = await api.post('/v1/book', { product_id: product, ...stay });
    assert.equal(booked.statusCode, 201, booked.body);
    const body = booked.json() as Json;
    assert.match(String(body.payment_url), /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/);
    const sessionId = String(body.payment_url).split('/').pop()!;
    const asked = stripe.requests.find((request) => request.path === '/v1/checkout/sessions')!;
    assert.equal(asked.secretKey, SECRET_KEY);
    assert.equal(asked.form['line_items[0][price_data][unit_amount]'], '21000');
    assert.equal(asked.form['line_items[0][price_data][currency]'], 'eur');
    assert.equal(asked.form.success_url, 'https://stay.example/thanks');
    const { rows: payments } = await ctx.db.query<{ id: string; provider_reference: string }>(
      'SELECT id, provider_reference FROM api.payments WHERE booking_id = $1 ORDER BY due_at', [body.booking_id]);
    assert.equal(asked.form['metadata[payment_id]'], payments[0]!.id);
    assert.equal(payments[0]!.provider_reference, sessionId);

    const event = {
      id: 'evt_test_completed_1', object: 'event', type: 'checkout.session.completed', created: 1_760_000_000, api_version: '2025-01-01',
      data: { object: { id: sessionId, object: 'checkout.session', payment_status: 'paid', status: 'complete', payment_intent: 'pi_test_1',
        metadata: { payment_id: payments[0]!.id, organization_id: org.id, booking_id: body.booking_id } } },
    };
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const state = async () => (await ctx.db.query<{ payment: string; event: string }>(
      `SELECT p.status AS payment, e.status AS event FROM api.payments AS p JOIN api.calendar_events AS e ON e.booking_id = p.booking_id
       WHERE p.id = $1`, [payments[0]!.id])).rows[0];

    // Tampered: another amount under the original's signature; and a signature made with another secret.
    assertRefused(await sendEvent(payload.replace('"paid"', '"unpaid"'), header), 400, 'SK670');
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someoneelse000000' });
    assertRefused(await sendEvent(payload, forged), 400, 'SK670');
    assertRefused(await sendEvent(payload, ''), 400, 'SK670');
    assert.deepEqual(await state(), { payment: 'pending', event: 'TENTATIVE' });

    const accepted = await sendEvent(payload, header);
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.deepEqual(accepted.json(), { received: true, duplicate: false });
    assert.deepEqual(await state(), { payment: 'paid', event: 'CONFIRMED' });
    const paid = (await ctx.db.query<{ paid_at: Date; provider_reference: string }>('SELECT paid_at, provider_reference FROM api.payments WHERE id = $1', [payments[0]!.id])).rows[0]!;
    assert.equal(paid.provider_reference, 'pi_test_1');
    assert.equal(new Date(paid.paid_at).toISOString(), new Date(1_760_000_000 * 1000).toISOString());
    const confirmed = await ctx.db.query('SELECT 1 FROM api.bookings WHERE id = $1 AND confirmed_at IS NOT NULL', [body.booking_id]);
    assert.equal(confirmed.rows.length, 1);

    // Replayed: nothing changes, not even after the payment moved on.
    const replayed = await sendEvent(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    assert.deepEqual(replayed.json(), { received: true, duplicate: true });

    await deliverDue(ctx.db, { webhookRetrySchedule: [0, 5], outboundAllowPrivate: true });
    const delivered = receiver.receipts.map((receipt) => JSON.parse(receipt.body) as { event_type: string; payload: { new: { id: string; status: string } } });
    assert.deepEqual(delivered.map((message) => [message.event_type, message.payload.new.id, message.payload.new.status]), [['payments.paid', payments[0]!.id, 'paid']]);
    assert.ok(receiver.receipts.every((receipt) => receipt.verified));
  });

  it('an expired Checkout session expires its payment; /v1/payment-link makes a new one for it', async () => {
    const booked = await api.post('/v1/book', { product_id: product, interval: { start: '2027-06-01', end: '2027-06-05' } });
    assert.equal(booked.statusCode, 201, booked.body);
    const body = booked.json() as Json;
    const sessionId = String(body.payment_url).split('/').pop()!;
    const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM api.payments WHERE provider_reference = $1', [sessionId]);
    const paymentId = rows[0]!.id;
    const payload = JSON.stringify({
      id: 'evt_test_expired_1', object: 'event', type: 'checkout.session.expired', created: 1_800_000_100,
      data: { object: { id: sessionId, object: 'checkout.session', payment_status: 'unpaid', status: 'expired', payment_intent: null,
        metadata: { payment_id: paymentId, organization_id: org.id } } },
    });
    const expired = await sendEvent(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    assert.equal(expired.statusCode, 200, expired.body);
    const status = async () => (await ctx.db.query<{ status: string }>('SELECT status FROM api.payments WHERE id = $1', [paymentId])).rows[0]!.status;
    assert.equal(await status(), 'expired');

    const link = await app.inject({ method: 'POST', url: '/v1/payment-link', headers: { authorization: `Bearer ${org.key}` }, payload: { booking_id: body.booking_id } });
    assert.equal(link.statusCode, 200, link.body);
    const again = link.json() as Json;
    assert.equal(again.payment_id, paymentId);
    assert.notEqual(again.payment_url, body.payment_url);
    assert.match(String(again.payment_url), /^https:\/\/checkout\.stripe\.test\//);
    assert.equal(await status(), 'pending');
  });

  it('/cart-checkout gives each booking its payment_url, and the cart the link when it is one booking', async () => {
    const item = (id: string, start: string, end: string) => ({ id, product_id: product, interval: { start, end } });
    const checkout = async (items: Json[]) => {
      const response = await api.post('/v1/cart-checkout', { cart: { items } });
      assert.equal(response.statusCode, 201, response.body);
      return response.json() as { items: { booking_id: string; payment_url: string | null }[]; payment_url: string | null };
    };
    const sessionOf = async (url: string | null) => {
      assert.match(String(url), /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/);
      const { rows } = await ctx.db.query<{ booking_id: string; amount: number }>(
        'SELECT booking_id, amount FROM api.payments WHERE provider_reference = $1', [String(url).split('/').pop()]);
      return rows[0];
    };

    const two = await checkout([item('a', '2027-07-01', '2027-07-05'), item('b', '2027-07-10', '2027-07-12')]);
    assert.equal(two.payment_url, null, 'no single link pays two bookings');
    // Each link pays its own booking's first payment: 30 % of 4 and of 2 nights at 100.00.
    assert.deepEqual(await sessionOf(two.items[0]!.payment_url), { booking_id: two.items[0]!.booking_id, amount: 12000 });
    assert.deepEqual(await sessionOf(two.items[1]!.payment_url), { booking_id: two.items[1]!.booking_id, amount: 6000 });

    const one = await checkout([item('c', '2027-08-01', '2027-08-04')]);
    assert.equal(one.payment_url, one.items[0]!.payment_url);
    assert.deepEqual(await sessionOf(one.payment_url), { booking_id: one.items[0]!.booking_id, amount: 9000 });
  });

  it('executes a refund of a Stripe payment at Stripe, once', async () => {
    const { rows } = await ctx.db.query<{ id: string }>(
      `SELECT id FROM api.payments WHERE organization_id = $1 AND provider_reference = 'pi_test_1'`, [org.id]);
    const paymentId = rows[0]!.id;
    const created = await app.inject({ method: 'POST', url: '/v1/refunds', headers: { authorization: `Bearer ${org.key}`, prefer: 'return=representation' }, payload: { payment_id: paymentId, amount: 5000, reason: 'early departure' } });
    assert.equal(created.statusCode, 201, created.body);
    const refundId = (created.json() as Json[])[0]!.id as string;
    const settled = await eventually(async () => {
      const row = (await ctx.db.query<{ status: string; provider_reference: string | null }>('SELECT status, provider_reference FROM api.refunds WHERE id = $1', [refundId])).rows[0];
      return row?.status === 'pending' ? undefined : row;
    });
    assert.equal(settled!.status, 'refunded');
    const sent = stripe.requests.filter((request) => request.path === '/v1/refunds');
    assert.equal(sent.length, 1);
    assert.deepEqual([sent[0]!.form.payment_intent, sent[0]!.form.amount, sent[0]!.idempotencyKey], ['pi_test_1', '5000', `staykit-refund-${refundId}`]);
    assert.equal(settled!.provider_reference, `re_test_${stripe.requests.indexOf(sent[0]!) + 1}`);
    // What Stripe refuses ends failed, with Stripe's reason, and frees its amount again.
    stripe.failNextRefunds('Charge has already been refunded.');
    const refused = await app.inject({ method: 'POST', url: '/v1/refunds', headers: { authorization: `Bearer ${org.key}`, prefer: 'return=representation' }, payload: { payment_id: paymentId, amount: 16000 } });
    assert.equal(refused.statusCode, 201, refused.body);
    const failedId = (refused.json() as Json[])[0]!.id as string;
    const failed = await eventually(async () => {
      const row = (await ctx.db.query<{ status: string; reason: string }>('SELECT status, reason FROM api.refunds WHERE id = $1', [failedId])).rows[0];
      return row?.status === 'pending' ? undefined : row;
    });
    assert.equal(failed.status, 'failed');
    assert.match(failed.reason, /already been refunded/);
  });

  it('keeps a refund pending while Stripe fails, and the background retry settles it', async () => {
    const { rows } = await ctx.db.query<{ id: string }>(
      `SELECT id FROM api.payments WHERE organization_id = $1 AND provider_reference = 'pi_test_1'`, [org.id]);
    // The SDK retries once by itself: both tries fail.
    stripe.failNextRefunds('Stripe is having trouble', 500, 2);
    const created = await app.inject({ method: 'POST', url: '/v1/refunds', headers: { authorization: `Bearer ${org.key}`, prefer: 'return=representation' }, payload: { payment_id: rows[0]!.id, amount: 1000 } });
    assert.equal(created.statusCode, 201, created.body);
    const refundId = (created.json() as Json[])[0]!.id as string;
    const status = async () => (await ctx.db.query<{ status: string }>('SELECT status FROM api.refunds WHERE id = $1', [refundId])).rows[0]!.status;
    await stripe.received((request) => request.idempotencyKey === `staykit-refund-${refundId}`, 2);
    // The answer to the second try has been sent; the hook's transaction ends with it.
    await eventually(async () => ((await ctx.db.query('SELECT 1 FROM api.refunds WHERE id = $1 FOR UPDATE SKIP LOCKED', [refundId])).rows.length > 0 || undefined));
    assert.equal(await status(), 'pending');
    const retries = startStripeRefundRetries(ctx.db, stripeClientFactory(stripe.url), 'server-secret-for-tests-only', silentLogger, 5);
    try {
      assert.equal(await eventually(async () => ((await status()) === 'pending' ? undefined : await status())), 'refunded');
    } finally {
      await retries.stop();
    }
    const keys = stripe.requests.filter((request) => request.path === '/v1/refunds').map((request) => request.idempotencyKey);
    assert.equal(new Set(keys.filter((key) => key === `staykit-refund-${refundId}`)).size, 1, 'every try used the same idempotency key');
  });
});
