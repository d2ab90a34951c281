import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';

// Clock: Monday 2027-03-01 10:00 UTC (support.ts).

const SATURDAY = [false, false, false, false, false, true, false];

forEachBackend('POST /v1/book', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let org: { id: string; key: string };
  let f: Fixtures;
  let adults: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Book');
    api = client(app, org.key);
    f = fixtures(ctx.db, org.id);
    adults = await f.group('Adults');
  });
  after(() => app.close());

  const rejects = async (url: string, body: unknown, status: number, code: string, pattern?: RegExp) => {
    const response = await api.post(url, body);
    assert.equal(response.statusCode, status, response.body);
    const error = response.json();
    assert.equal(error.code, code, response.body);
    if (pattern) assert.match(`${error.message}\n${error.details}`, pattern);
  };
  const interval = (start: string, end: string) => ({ start, end });

  describe('stay rules (checked again by /book)', () => {
    let weekly: string;
    let flexible: string;
    before(async () => {
      weekly = await f.product({ name: { default: 'Weekly' } });
      await f.configuration(weekly, {
        intervals: '{[2027-03-01,2027-09-01)}', check_in_days: SATURDAY, checkout_days: SATURDAY, min_duration: 7,
        max_duration: 14, rates: [{ duration: 1, occupancy: 0, rate: 10000 }],
      });
      flexible = await f.product({ name: { default: 'Flexible' } });
      await f.configuration(flexible, {
        intervals: '{[2027-02-01,2027-04-01),[2027-04-03,2027-06-01)}', min_duration: 3, max_duration: 5, min_advance: 2,
        max_advance: 60, cooldown_time: 2, rates: [{ duration: 1, occupancy: 0, rate: 10000 }],
      });
    });

    it('accepts check-in and checkout on the configured weekdays only', async () => {
      for (const url of ['/v1/quote', '/v1/book']) {
        // 2027-03-07 is a Sunday, 2027-03-13 a Saturday.
        await rejects(url, { product_id: weekly, interval: interval('2027-03-07', '2027-03-14') }, 422, 'SK611', /Check-in is not possible on Sunday \(2027-03-07\)/);
        await rejects(url, { product_id: weekly, interval: interval('2027-03-06', '2027-03-14') }, 422, 'SK611', /Check-out is not possible on Sunday/);
      }
      const ok = await api.post('/v1/quote', { product_id: weekly, interval: interval('2027-03-06', '2027-03-13') });
      assert.equal(ok.statusCode, 200, ok.body);
    });

    it('enforces min and max duration', async () => {
      await rejects('/v1/book', { product_id: flexible, interval: interval('2027-03-10', '2027-03-12') }, 422, 'SK611', /at least 3 nights/);
      await rejects('/v1/book', { product_id: flexible, interval: interval('2027-03-10', '2027-03-16') }, 422, 'SK611', /at most 5 nights/);
      await rejects('/v1/book', { product_id: weekly, interval: interval('2027-03-06', '2027-03-27') }, 422, 'SK611', /at most 14 nights/);
    });

    it('enforces min and max advance from today in the product time zone', async () => {
      // Today is 2027-03-01: 03-02 is 1 day ahead (< 2), 03-03 is 2; 2027-04-30 is 60 days ahead, 2027-05-01 is 61.
      await rejects('/v1/quote', { product_id: flexible, interval: interval('2027-03-02', '2027-03-05') }, 422, 'SK611', /at least 2 days ahead/);
      assert.equal((await api.post('/v1/quote', { product_id: flexible, interval: interval('2027-03-03', '2027-03-06') })).statusCode, 200);
      assert.equal((await api.post('/v1/quote', { product_id: flexible, interval: interval('2027-04-30', '2027-05-03') })).statusCode, 200);
      await rejects('/v1/quote', { product_id: flexible, interval: interval('2027-05-01', '2027-05-04') }, 422, 'SK611', /at most 60 days ahead/);
      await rejects('/v1/quote', { product_id: flexible, interval: interval('2027-02-20', '2027-02-23') }, 422, 'SK611', /in the past/);
    });

    it('refuses stays over closed dates', async () => {
      // Nothing configures 2027-04-01 and 2027-04-02.
      await rejects('/v1/book', { product_id: flexible, interval: interval('2027-03-30', '2027-04-03') }, 422, 'SK611', /closed on 2027-04-01, 2027-04-02/);
    });

    it('keeps cooldown days free after each stay, and before the next one', async () => {
      const first = await api.post('/v1/book', { product_id: flexible, interval: interval('2027-03-10', '2027-03-13') });
      assert.equal(first.statusCode, 201, first.body);
      const { rows } = await ctx.db.query<{ padding: number }>('SELECT padding FROM api.calendar_events WHERE booking_id = $1', [first.json().booking_id]);
      assert.equal(rows[0]!.padding, 2);
      // 13 and 14 March are the cooldown: arriving on the 14th conflicts, on the 15th works.
      await rejects('/v1/book', { product_id: flexible, interval: interval('2027-03-14', '2027-03-17') }, 409, 'SK610', /cooldown/);
      // A stay before it needs its own 2 cooldown days: leaving on the 9th overlaps the 10th, on the 8th does not.
      await rejects('/v1/quote', { product_id: flexible, interval: interval('2027-03-06', '2027-03-09') }, 409, 'SK610');
      assert.equal((await api.post('/v1/quote', { product_id: flexible, interval: interval('2027-03-05', '2027-03-08') })).statusCode, 200);
      const second = await api.post('/v1/book', { product_id: flexible, interval: interval('2027-03-15', '2027-03-18') });
      assert.equal(second.statusCode, 201, second.body);
    });

    it('uses today in the product time zone, also around midnight', async () => {
      // 2027-03-01 23:30 UTC is already 2 March in Amsterdam (UTC+1) but still 1 March in New York.
      const late = await startBookingApp(ctx.db, () => new Date('2027-03-01T23:30:00Z'));
      try {
        const lateApi = client(late, org.key);
        const amsterdam = await f.product({ timezone: 'Europe/Amsterdam' });
        const newYork = await f.product({ timezone: 'America/New_York' });
        for (const product of [amsterdam, newYork]) {
          await f.configuration(product, { intervals: '{[2027-02-01,2027-04-01)}', min_advance: 1, rates: [{ duration: 1, occupancy: 0, rate: 100 }] });
        }
        const arrival = { interval: interval('2027-03-02', '2027-03-04') };
        const inAmsterdam = await lateApi.post('/v1/quote', { product_id: amsterdam, ...arrival });
        assert.equal(inAmsterdam.statusCode, 422, inAmsterdam.body); // 0 days ahead there
        assert.equal(inAmsterdam.json().code, 'SK611');
        assert.equal(inAmsterdam.json().details, 'The arrival must be at least 1 days ahead');
        const inNewYork = await lateApi.post('/v1/quote', { product_id: newYork, ...arrival });
        assert.equal(inNewYork.statusCode, 200, inNewYork.body); // 1 day ahead there
      } finally {
        await late.close();
      }
    });

    it('with the real clock: advance counted from today in the product time zone', async () => {
      const real = await startBookingApp(ctx.db, null);
      try {
        const zone = 'Asia/Tokyo';
        const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
        const plus = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
        const tokyo = await f.product({ timezone: zone });
        await f.configuration(tokyo, { intervals: `{[${plus(-5)},${plus(400)})}`, min_advance: 2, max_advance: 30, rates: [{ duration: 1, occupancy: 0, rate: 100 }] });
        const realApi = client(real, org.key);
        const at = (start: number) => realApi.post('/v1/quote', { product_id: tokyo, interval: interval(plus(start), plus(start + 2)) });
        const tooSoon = await at(1);
        assert.equal(tooSoon.statusCode, 422, tooSoon.body);
        assert.deepEqual([tooSoon.json().code, tooSoon.json().details], ['SK611', 'The arrival must be at least 2 days ahead']);
        assert.equal((await at(2)).statusCode, 200);
        assert.equal((await at(30)).statusCode, 200);
        const tooLate = await at(31);
        assert.equal(tooLate.statusCode, 422, tooLate.body);
        assert.deepEqual([tooLate.json().code, tooLate.json().details], ['SK611', 'The arrival may be at most 30 days ahead']);
      } finally {
        await real.close();
      }
    });

    it('books daily products by inclusive last day', async () => {
      const daily = await f.product({ rent_period: 'daily', name: { default: 'Boat' } });
      await f.configuration(daily, { intervals: '{[2027-03-01,2027-04-01)}', checkout_days: [true, true, true, true, false, true, true],
        rates: [{ duration: 1, occupancy: 0, rate: 5000 }] });
      // 10–12 March inclusive = 3 days (a Friday, 2027-03-12, may not be the last day).
      await rejects('/v1/quote', { product_id: daily, interval: interval('2027-03-10', '2027-03-12') }, 422, 'SK611', /Check-out is not possible on Friday/);
      const quote = await api.post('/v1/quote', { product_id: daily, interval: interval('2027-03-10', '2027-03-11') });
      assert.equal(quote.json().total, 10000); // 2 days × 5000
      const single = await api.post('/v1/book', { product_id: daily, interval: interval('2027-03-10', '2027-03-10') });
      assert.equal(single.statusCode, 201, single.body);
      const { rows } = await ctx.db.query<{ start_date: string; end_date: string }>(
        'SELECT start_date::text, end_date::text FROM api.calendar_events WHERE booking_id = $1', [single.json().booking_id]);
      assert.deepEqual(rows[0], { start_date: '2027-03-10', end_date: '2027-03-11' });
      await rejects('/v1/book', { product_id: daily, interval: interval('2027-03-09', '2027-03-10') }, 409, 'SK610');
      assert.equal((await api.post('/v1/book', { product_id: daily, interval: interval('2027-03-11', '2027-03-11') })).statusCode, 201);
    });
  });

  describe('what a booking writes', () => {
    let instant: string;
    let onRequest: string;
    const svc: Record<string, string> = {};
    before(async () => {
      instant = await f.product({ name: { default: 'Instant' }, interaction: 'book' });
      onRequest = await f.product({ name: { default: 'On request' }, interaction: 'request', request_status: 'TENTATIVE' });
      for (const product of [instant, onRequest]) {
        await f.configuration(product, { rates: [{ duration: 1, occupancy: 1, rate: 10000 }], cooldown_time: 1 });
        await f.capacity(product, adults, 1, 4);
      }
      svc.name = await f.service(instant, { name: { default: 'Name' }, type: 'text', required: true });
      svc.email = await f.service(instant, { name: { default: 'Email' }, type: 'email' });
      svc.phone = await f.service(instant, { name: { default: 'Phone' }, type: 'phone' });
      svc.cleaning = await f.service(instant, { name: { default: 'Cleaning', nl: 'Schoonmaak' }, type: 'fee', pricing: { per: 'stay', amount: 5000 } });
      await f.tax(instant, { name: 'VAT', percentage: 21, inclusive: true, applies_to: 'all' });
      await f.coupon({ code: 'WELCOME', definition: { type: 'fixed', value: 2500 }, quota: 5 });
    });

    it('creates the booking, confirmed event, line items with taxes, details, contact and coupon use', async () => {
      const response = await api.post('/v1/book', {
        product_id: instant, interval: interval('2027-03-20', '2027-03-23'), occupancy: { [adults]: 2 }, language: 'nl',
        form_values: { [svc.name!]: 'Ada Lovelace', [svc.email!]: 'Ada@Example.com', [svc.phone!]: '+31 20 123 4567' },
        coupon_codes: ['welcome'], silent: true,
      });
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['booking_id', 'payment_schedule', 'payment_url', 'reference']);
      assert.match(body.reference, /^[A-HJ-NP-Z2-9]{3}-[A-HJ-NP-Z2-9]{4}$/);
      assert.equal(body.payment_url, null);

      const booking = (await ctx.db.query<Record<string, unknown>>('SELECT * FROM api.bookings WHERE id = $1', [body.booking_id])).rows[0]!;
      assert.equal(booking.reference, body.reference);
      assert.equal(booking.organization_id, org.id);
      assert.equal(booking.method, 'book');
      assert.equal(booking.language, 'nl');
      assert.equal(booking.silent, true);
      assert.equal(booking.currency, 'EUR');
      assert.notEqual(booking.confirmed_at, null);
      assert.equal(String(booking.secret).length, 32);
      assert.deepEqual(booking.occupancy, { [adults]: 2 });

      const events = (await ctx.db.query('SELECT start_date::text, end_date::text, padding, status, type, origin, generated_title FROM api.calendar_events WHERE booking_id = $1', [body.booking_id])).rows;
      assert.deepEqual(events, [{ start_date: '2027-03-20', end_date: '2027-03-23', padding: 1, status: 'CONFIRMED', type: 'booking', origin: 'api', generated_title: 'Instant – Ada Lovelace' }]);

      // Rent 3 × 10000 = 30000, Cleaning 5000, coupon −2500. VAT 21 % included: 30000 × 21/121 = 5206.6 → 5207;
      // 5000 × 21/121 = 867.8 → 868; −2500 × 21/121 = −433.9 → −434. Total 32500.
      const items = (await ctx.db.query<{ item_type: string; amount: number; name: Record<string, string>; vat: number | null }>(
        `SELECT li.item_type, li.amount, li.name, (SELECT sum(t.amount)::integer FROM api.line_item_taxes t WHERE t.line_item_id = li.id) AS vat
         FROM api.line_items li WHERE li.booking_id = $1 ORDER BY li.item_type DESC, li.amount DESC`, [body.booking_id])).rows;
      assert.deepEqual(items.map((i) => [i.item_type, i.amount, i.vat]), [['service', 5000, 868], ['rent', 30000, 5207], ['coupon', -2500, -434]]);
      assert.deepEqual(items[0]!.name, { default: 'Cleaning', nl: 'Schoonmaak' });

      const details = (await ctx.db.query<{ service_id: string; value: string }>('SELECT service_id, value FROM api.booking_details WHERE booking_id = $1 ORDER BY value', [body.booking_id])).rows;
      assert.deepEqual(details.map((d) => d.value), ['+31 20 123 4567', 'Ada Lovelace', 'Ada@Example.com']);

      const contacts = (await ctx.db.query('SELECT c.first_name, c.last_name, c.email, c.phone FROM api.contacts c JOIN api.contact_bookings cb ON cb.contact_id = c.id WHERE cb.booking_id = $1', [body.booking_id])).rows;
      assert.deepEqual(contacts, [{ first_name: 'Ada', last_name: 'Lovelace', email: 'Ada@Example.com', phone: '+31 20 123 4567' }]);

      const uses = (await ctx.db.query('SELECT amount FROM api.coupon_uses WHERE booking_id = $1', [body.booking_id])).rows;
      assert.deepEqual(uses, [{ amount: 2500 }]);

      // A second booking by the same guest (e-mail in another case) reuses the contact.
      const again = await api.post('/v1/book', {
        product_id: instant, interval: interval('2027-04-20', '2027-04-22'), occupancy: { [adults]: 1 },
        form_values: { [svc.name!]: 'Ada Lovelace', [svc.email!]: 'ada@example.COM' },
      });
      assert.equal(again.statusCode, 201, again.body);
      const count = await ctx.db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM api.contacts WHERE organization_id = $1 AND lower(email) = 'ada@example.com'`, [org.id]);
      assert.equal(count.rows[0]!.n, 1);
    });

    it('takes the guest from the contact object too, and validates its e-mail', async () => {
      const response = await api.post('/v1/book', {
        product_id: onRequest, interval: interval('2027-06-10', '2027-06-12'), occupancy: { [adults]: 1 },
        contact: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', phone: '+1 555 0100' },
      });
      assert.equal(response.statusCode, 201, response.body);
      const contacts = (await ctx.db.query('SELECT c.first_name, c.last_name, c.email, c.phone FROM api.contacts c JOIN api.contact_bookings cb ON cb.contact_id = c.id WHERE cb.booking_id = $1', [response.json().booking_id])).rows;
      assert.deepEqual(contacts, [{ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', phone: '+1 555 0100' }]);
      await rejects('/v1/book', { product_id: onRequest, interval: interval('2027-06-20', '2027-06-22'), occupancy: { [adults]: 1 }, contact: { email: 'nope' } }, 400, 'SK601');
    });

    it('gives request products the request_status and no confirmed_at', async () => {
      const response = await api.post('/v1/book', { product_id: onRequest, interval: interval('2027-03-20', '2027-03-22'), occupancy: { [adults]: 1 } });
      assert.equal(response.statusCode, 201, response.body);
      const { rows } = await ctx.db.query<{ method: string; confirmed_at: string | null; status: string }>(
        `SELECT b.method, b.confirmed_at, e.status FROM api.bookings b JOIN api.calendar_events e ON e.booking_id = b.id WHERE b.id = $1`,
        [response.json().booking_id]);
      assert.deepEqual(rows[0], { method: 'request', confirmed_at: null, status: 'TENTATIVE' });
    });

    it('needs bookings:write; read keys may quote but not book', async () => {
      const readKey = await createKey(ctx.db, org.id, ['read']);
      const reader = client(app, readKey);
      const body = { product_id: onRequest, interval: interval('2027-05-20', '2027-05-22'), occupancy: { [adults]: 1 } };
      assert.equal((await reader.post('/v1/quote', body)).statusCode, 200);
      const denied = await reader.post('/v1/book', body);
      assert.equal(denied.statusCode, 403);
      const writer = client(app, await createKey(ctx.db, org.id, ['bookings:write']));
      assert.equal((await writer.post('/v1/book', body)).statusCode, 201);
    });

    it('never sees or books another organization\'s product', async () => {
      const stranger = await createOrganization(ctx.db, 'Stranger');
      const response = await client(app, stranger.key).post('/v1/book', { product_id: instant, interval: interval('2027-06-20', '2027-06-22') });
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().code, 'SK602');
    });
  });
});
