/**
 * No constraint is an oracle across organizations (migration 0091): through the real app, organization B cannot
 * tell from any answer whether organization A's product is booked, which provider references, imported UIDs, links
 * or ids A uses — and cannot squat them: a value A uses is free in B, exactly like a fresh one, while A's own
 * uniqueness holds. Server-side code that works across organizations (the iCal export and sync, the webhook queue,
 * the coupon soft delete) keeps two rows with the same id in two organizations apart.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';
import { buildApp } from '../../src/http/app.js';
import { loadConfig } from '../../src/config.js';
import { syncDueCalendars } from '../../src/ical/worker.js';
import { deliverDue } from '../../src/webhooks/worker.js';
import { startReceiver, type Receiver } from '../webhooks/support.js';
import { airbnbFeed, airbnbReservation, day, startFeedServer, type FeedServer } from '../ical/support.js';
import { asApi } from './helpers.js';

type Body = Record<string, unknown>;

const config = loadConfig({ STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true', STAYKIT_WEBHOOK_RETRY_SCHEDULE: '0' });

forEachBackend('tenant-scoped constraints', (ctx) => {
  let app: FastifyInstance;
  let a: TestOrganization;
  let b: TestOrganization;
  let productA: { id: string; ical_export_secret: string };
  let productB: { id: string; ical_export_secret: string };

  const call = (org: TestOrganization, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, prefer = 'return=representation') =>
    app.inject({ method, url, headers: { ...bearer(org.key), prefer }, ...(payload === undefined ? {} : { payload: payload as Body }) });
  const post = (org: TestOrganization, table: string, payload: Body, prefer?: string) => call(org, 'POST', `/v1/${table}`, payload, prefer);
  const rows = (response: LightMyRequestResponse) => response.json() as Body[];

  async function createProduct(org: TestOrganization, fields: Body = {}): Promise<{ id: string; ical_export_secret: string }> {
    const response = await post(org, 'create-product', { name: 'Dune House', rent_period: 'nightly', timezone: 'UTC', ...fields });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: string; ical_export_secret: string };
  }

  /** What a client sees of an error, with the values it sent itself blanked out. */
  function answer(response: LightMyRequestResponse, ...sent: string[]): Body {
    const body = response.json() as Body;
    let details = String(body.details ?? '');
    for (const value of sent) details = details.replaceAll(value, '<sent>');
    return { status: response.statusCode, code: body.code, message: body.message, details, hint: body.hint };
  }

  before(async () => {
    app = await buildApp({ db: ctx.db, config });
    a = await createOrganization(ctx.db, 'A');
    b = await createOrganization(ctx.db, 'B');
    productA = await createProduct(a);
    productB = await createProduct(b);
  });
  after(async () => app.close());

  it('a calendar event on another organization\'s product fails the same way whether that product is booked or not', async () => {
    const booked = await post(a, 'calendar_events', { product_id: productA.id, start_date: '2031-07-01', end_date: '2031-07-05' });
    assert.equal(booked.statusCode, 201, booked.body);
    const missing = randomUUID();

    const overlapping = await post(b, 'calendar_events', { product_id: productA.id, start_date: '2031-07-02', end_date: '2031-07-04' });
    const free = await post(b, 'calendar_events', { product_id: productA.id, start_date: '2031-08-02', end_date: '2031-08-04' });
    const nowhere = await post(b, 'calendar_events', { product_id: missing, start_date: '2031-07-02', end_date: '2031-07-04' });

    assert.equal(overlapping.statusCode, 409, overlapping.body);
    assert.equal((overlapping.json() as Body).code, '23503');
    assert.deepEqual(answer(overlapping, productA.id), answer(free, productA.id));
    assert.deepEqual(answer(overlapping, productA.id), answer(nowhere, missing));
    // The rule itself still holds inside A.
    const clash = await post(a, 'calendar_events', { product_id: productA.id, start_date: '2031-07-02', end_date: '2031-07-04' });
    assert.equal(clash.statusCode, 409);
    assert.equal((clash.json() as Body).code, '23P01');
  });

  it('a link to another organization\'s rows fails the same way whether that link exists there or not', async () => {
    const couponA = rows(await post(a, 'coupons', { code: 'SUMMER', definition: { type: 'percentage', value: 10 } }))[0]!.id as string;
    assert.equal((await post(a, 'coupon_products', { coupon_id: couponA, product_id: productA.id })).statusCode, 201);
    const otherCoupon = rows(await post(a, 'coupons', { code: 'WINTER', definition: { type: 'percentage', value: 10 } }))[0]!.id as string;

    const existing = await post(b, 'coupon_products', { coupon_id: couponA, product_id: productA.id });
    const absent = await post(b, 'coupon_products', { coupon_id: otherCoupon, product_id: productA.id });
    assert.equal(existing.statusCode, 409, existing.body);
    assert.equal((existing.json() as Body).code, '23503');
    assert.deepEqual(answer(existing, couponA, productA.id), answer(absent, otherCoupon, productA.id));
    // A cannot link the same pair twice.
    const twice = await post(a, 'coupon_products', { coupon_id: couponA, product_id: productA.id });
    assert.deepEqual([twice.statusCode, (twice.json() as Body).code], [409, '23505']);
  });

  it('a payment provider reference used by A is free in B; A\'s own stays unique', async () => {
    const payment = { amount: 5000, provider: 'stripe', provider_reference: 'pi_3Nq2XkLkdIwHu7ix0Yz' };
    assert.equal((await post(a, 'payments', payment)).statusCode, 201);
    const inB = await post(b, 'payments', payment);
    assert.equal(inB.statusCode, 201, inB.body);
    const again = await post(a, 'payments', payment);
    assert.equal(again.statusCode, 409);
    assert.match(String((again.json() as Body).message), /payments_provider_reference_unique/);
  });

  it('an id used by A is free in B, like a fresh id; rows stay apart on read, update, upsert and delete', async () => {
    const id = rows(await post(a, 'contacts', { first_name: 'Alice' }))[0]!.id as string;
    const fresh = await post(b, 'contacts', { id: randomUUID(), first_name: 'Fresh' });
    const taken = await post(b, 'contacts', { id, first_name: 'Bob' });
    assert.equal(fresh.statusCode, 201);
    assert.equal(taken.statusCode, 201, taken.body);
    assert.deepEqual(Object.keys(rows(taken)[0]!).sort(), Object.keys(rows(fresh)[0]!).sort());

    assert.deepEqual(rows(await call(a, 'GET', `/v1/contacts?id=eq.${id}&select=first_name`)), [{ first_name: 'Alice' }]);
    assert.deepEqual(rows(await call(b, 'GET', `/v1/contacts?id=eq.${id}&select=first_name`)), [{ first_name: 'Bob' }]);
    assert.equal((await call(b, 'PATCH', `/v1/contacts?id=eq.${id}`, { first_name: 'Bobby' })).statusCode, 200);
    // An upsert on the id (the primary key, or on_conflict=id) only ever meets the caller's own row.
    const merged = await post(b, 'contacts', { id, first_name: 'Robert' }, 'return=representation,resolution=merge-duplicates');
    assert.equal(merged.statusCode, 200, merged.body);
    const onId = await call(b, 'POST', '/v1/contacts?on_conflict=id', { id, last_name: 'Builder' }, 'return=representation,resolution=merge-duplicates');
    assert.equal(onId.statusCode, 200, onId.body);
    assert.deepEqual(rows(await call(a, 'GET', `/v1/contacts?id=eq.${id}&select=first_name,last_name`)), [{ first_name: 'Alice', last_name: '' }]);
    assert.deepEqual(rows(await call(b, 'GET', `/v1/contacts?id=eq.${id}&select=first_name,last_name`)), [{ first_name: 'Robert', last_name: 'Builder' }]);
    assert.equal((await call(b, 'DELETE', `/v1/contacts?id=eq.${id}`)).statusCode, 200);
    assert.equal(rows(await call(a, 'GET', `/v1/contacts?id=eq.${id}`)).length, 1);

    // A's ids stay unique in A.
    const duplicate = await post(a, 'contacts', { id, first_name: 'Again' });
    assert.deepEqual([duplicate.statusCode, (duplicate.json() as Body).code], [409, '23505']);
  });

  it('an upsert on a link table\'s own columns (on_conflict) works within the organization', async () => {
    const group = rows(await post(b, 'capacity_groups', { name: { default: 'Adults' } }))[0]!.id as string;
    const url = '/v1/capacities?on_conflict=product_id,capacity_group_id';
    const first = await call(b, 'POST', url, { product_id: productB.id, capacity_group_id: group, max: 4 }, 'return=representation,resolution=merge-duplicates');
    assert.equal(first.statusCode, 201, first.body);
    const second = await call(b, 'POST', url, { product_id: productB.id, capacity_group_id: group, max: 6 }, 'return=representation,resolution=merge-duplicates');
    assert.equal(second.statusCode, 200, second.body);
    assert.equal(rows(second)[0]!.max, 6);
  });

  it('a coupon deleted in B under A\'s coupon id leaves A\'s coupon alone', async () => {
    const id = rows(await post(a, 'coupons', { code: 'KEEP', definition: { type: 'fixed', value: 500 } }))[0]!.id as string;
    assert.equal((await post(b, 'coupons', { id, code: 'DROP', definition: { type: 'fixed', value: 500 } })).statusCode, 201);
    assert.equal((await call(b, 'DELETE', `/v1/coupons?id=eq.${id}`)).statusCode, 200);
    assert.deepEqual(rows(await call(a, 'GET', `/v1/coupons?id=eq.${id}&select=code,deleted_at`)), [{ code: 'KEEP', deleted_at: null }]);
    assert.notEqual(rows(await call(b, 'GET', `/v1/coupons?id=eq.${id}&select=deleted_at`))[0]!.deleted_at, null);
  });

  it('uses of A\'s coupon do not count against the quota of B\'s coupon with the same id', async () => {
    const id = rows(await post(a, 'coupons', { code: 'ONCE', quota: 1, definition: { type: 'fixed', value: 100 } }))[0]!.id as string;
    assert.equal((await post(b, 'coupons', { id, code: 'ONCE', quota: 1, definition: { type: 'fixed', value: 100 } })).statusCode, 201);
    const book = (org: TestOrganization, productId: string, start: string, end: string) => asApi(ctx.db, org.id, (tx) =>
      tx.query(`SELECT staykit_internal.create_booking($1) AS booking`, [JSON.stringify({
        product_id: productId, start_date: start, end_date: end, padding: 0, status: 'CONFIRMED', method: 'book',
        currency: 'EUR', display_currency: 'EUR', exchange_rate: 1, language: 'en', occupancy: {},
        coupons: [{ coupon_id: id, amount: 100 }],
      })]));
    // A's one use is committed (asApi rolls back, so it is written as the owner here).
    const f = fixtures(ctx.db, a.id);
    await f.row('coupon_uses', { coupon_id: id, booking_id: await f.booking(), amount: 100 });
    await assert.rejects(book(a, productA.id, '2032-01-01', '2032-01-03'), (error: { code?: string }) => error.code === 'SK615');
    const inB = await book(b, productB.id, '2032-01-01', '2032-01-03');
    assert.equal(inB.rows.length, 1);
  });

  it('a product and an external calendar with A\'s ids in B: imports, exports and imported UIDs stay per organization', async () => {
    const feeds: FeedServer = await startFeedServer();
    try {
      // B creates a unit with the id of A's unit, and an external calendar with the id of A's calendar.
      const twin = await createProduct(b, { id: productA.id });
      const calendarA = rows(await post(a, 'external_calendars', { product_id: productA.id, ical_url: feeds.url('/a.ics'), name: 'Airbnb' }))[0]!.id as string;
      const inB = await post(b, 'external_calendars', { id: calendarA, product_id: twin.id, ical_url: feeds.url('/b.ics'), name: 'Vrbo' });
      assert.equal(inB.statusCode, 201, inB.body);
      feeds.set('/a.ics', airbnbFeed([airbnbReservation('same-uid', 10, 14)]));
      feeds.set('/b.ics', airbnbFeed([airbnbReservation('same-uid', 20, 25)]));

      const reports = await syncDueCalendars(ctx.db, config);
      assert.deepEqual(reports.map((report) => report.status), ['ok', 'ok']);
      const imported = async (org: TestOrganization) =>
        rows(await call(org, 'GET', `/v1/calendar_events?calendar_id=eq.${calendarA}&select=product_id,uid,start_date,end_date`));
      assert.deepEqual(await imported(a), [{ product_id: productA.id, uid: 'same-uid@airbnb.com', start_date: day(10), end_date: day(14) }]);
      assert.deepEqual(await imported(b), [{ product_id: productA.id, uid: 'same-uid@airbnb.com', start_date: day(20), end_date: day(25) }]);

      // Each unit's export feed holds its own events only.
      const feedA = await app.inject({ method: 'GET', url: `/v1/ical/${productA.ical_export_secret}.ics` });
      const feedB = await app.inject({ method: 'GET', url: `/v1/ical/${twin.ical_export_secret}.ics` });
      assert.equal(feedA.statusCode, 200);
      assert.match(feedA.body, new RegExp(`DTSTART;VALUE=DATE:${day(10).replaceAll('-', '')}`));
      assert.doesNotMatch(feedA.body, new RegExp(`DTSTART;VALUE=DATE:${day(20).replaceAll('-', '')}`));
      assert.match(feedB.body, new RegExp(`DTSTART;VALUE=DATE:${day(20).replaceAll('-', '')}`));
      assert.doesNotMatch(feedB.body, new RegExp(`DTSTART;VALUE=DATE:${day(10).replaceAll('-', '')}`));

      // An imported UID stays unique per calendar inside the organization.
      const copy = await post(a, 'calendar_events', { product_id: productA.id, calendar_id: calendarA, uid: 'same-uid@airbnb.com', start_date: day(40), end_date: day(41) });
      assert.deepEqual([copy.statusCode, (copy.json() as Body).code], [409, '23505']);
    } finally {
      await feeds.close();
    }
  });

  it('a webhook with A\'s webhook id in B: each organization\'s events go to its own endpoint, signed with its own secret', async () => {
    const receivers: Receiver[] = [await startReceiver(), await startReceiver()];
    try {
      const [receiverA, receiverB] = receivers as [Receiver, Receiver];
      const hookA = rows(await post(a, 'webhooks', { endpoint: receiverA.url, events: ['contacts.created'] }))[0]!;
      const hookB = await post(b, 'webhooks', { id: hookA.id, endpoint: receiverB.url, events: ['contacts.created'] });
      assert.equal(hookB.statusCode, 201, hookB.body);
      receiverA.secret = hookA.signing_secret as string;
      receiverB.secret = rows(hookB)[0]!.signing_secret as string;

      await post(a, 'contacts', { first_name: 'For A' });
      await post(b, 'contacts', { first_name: 'For B' });
      const names = (receiver: Receiver) => receiver.receipts.map((receipt) =>
        (JSON.parse(receipt.body) as { payload: { new: { first_name: string } } }).payload.new.first_name);

      // B pauses its webhook, which parks B's queued notification — and not A's.
      const pause = (disabled_at: string | null) => call(b, 'PATCH', `/v1/webhooks?id=eq.${hookA.id as string}`, { disabled_at });
      assert.equal((await pause(new Date().toISOString())).statusCode, 200);
      await deliverDue(ctx.db, config);
      assert.deepEqual([names(receiverA), names(receiverB)], [['For A'], []]);
      assert.equal((await pause(null)).statusCode, 200);
      await deliverDue(ctx.db, config);
      assert.deepEqual([names(receiverA), names(receiverB)], [['For A'], ['For B']]);
      assert.ok([...receiverA.receipts, ...receiverB.receipts].every((receipt) => receipt.verified));
    } finally {
      await Promise.all(receivers.map((receiver) => receiver.close()));
    }
  });

  it('includes organization_id in every unique and exclusion constraint and every reference between tenant rows', async () => {
    const { rows: unscoped } = await ctx.db.query<{ name: string }>(`
      SELECT c.relname || '.' || i.relname AS name
      FROM pg_index AS ix
      JOIN pg_class AS i ON i.oid = ix.indexrelid
      JOIN pg_class AS c ON c.oid = ix.indrelid
      JOIN pg_namespace AS n ON n.oid = c.relnamespace
      LEFT JOIN pg_constraint AS con ON con.conindid = ix.indexrelid AND con.conrelid = c.oid
      WHERE n.nspname IN ('api', 'staykit_internal') AND (ix.indisunique OR con.contype = 'x')
        AND EXISTS (SELECT 1 FROM pg_attribute AS a WHERE a.attrelid = c.oid AND a.attname = 'organization_id')
        AND NOT EXISTS (SELECT 1 FROM pg_attribute AS a
                        WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND a.attnum = ANY (ix.indkey))
      ORDER BY 1`);
    // Documented exceptions (docs/schema.md): values the server generates or an integration owns.
    assert.deepEqual(unscoped.map((r) => r.name), [
      'api_keys.api_keys_key_id_unique', 'api_keys.api_keys_pkey',
      'automation_jobs.automation_jobs_delivery_unique', 'automation_jobs.automation_jobs_moment_unique',
      'automation_jobs.automation_jobs_pkey', 'automation_jobs.automation_jobs_task_unique',
      'paddle_subscriptions.paddle_subscriptions_paddle_subscription_id_unique',
      'publishable_keys.publishable_keys_key_unique', 'publishable_keys.publishable_keys_pkey',
      'sessions.sessions_pkey', 'sessions.sessions_token_hash_unique', 'webhook_queue.webhook_queue_pkey',
    ]);
    const { rows: references } = await ctx.db.query<{ name: string }>(`
      SELECT con.conrelid::regclass::text || ' ' || con.conname AS name
      FROM pg_constraint AS con
      JOIN pg_class AS parent ON parent.oid = con.confrelid
      WHERE con.contype = 'f'
        AND EXISTS (SELECT 1 FROM pg_attribute AS a WHERE a.attrelid = parent.oid AND a.attname = 'organization_id')
        AND NOT EXISTS (SELECT 1 FROM pg_attribute AS a
                        WHERE a.attrelid = con.conrelid AND a.attname = 'organization_id' AND a.attnum = ANY (con.conkey))
      ORDER BY 1`);
    assert.deepEqual(references, []);
  });
});
