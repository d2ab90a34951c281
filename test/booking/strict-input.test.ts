import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, fixtures, insert, startBookingApp } from './support.js';

const STAY = { start: '2027-03-10', end: '2027-03-12' };

function refused(response: LightMyRequestResponse, code: string, field?: string): void {
  assert.equal(response.statusCode, code === 'SK601' ? 400 : 404, response.body);
  assert.equal(response.json().code, code);
  if (field) assert.match(response.json().message, new RegExp(`Unknown fields?: .*${field.replace(/[[\].]/g, '\\$&')}`));
}

// Every booking-flow endpoint refuses fields it does not know (like /create-product) instead of dropping them; the
// site and widget a booking came through are accepted, checked and stored.
forEachBackend('Strict booking-flow input, site_id and widget_id', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let other: { id: string; key: string };
  let product: string;
  let site: string;
  let widget: string;
  let foreignSite: string;
  const post = (url: string, body: unknown) => client(app, org.key).post(url, body);

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Strict');
    other = await createOrganization(ctx.db, 'Other');
    const f = fixtures(ctx.db, org.id);
    product = await f.product();
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    site = (await insert<{ id: string }>(ctx.db, 'sites', { organization_id: org.id, name: 'Our site' })).id;
    widget = (await insert<{ id: string }>(ctx.db, 'widgets', { organization_id: org.id, name: 'Booking widget' })).id;
    foreignSite = (await insert<{ id: string }>(ctx.db, 'sites', { organization_id: other.id, name: 'Theirs' })).id;
  });
  after(() => app.close());

  it('an unknown field is a 400 naming it, at the top level and inside interval, contact and cart items', async () => {
    refused(await post('/v1/book', { product_id: product, interval: STAY, price: 1 }), 'SK601', 'price');
    refused(await post('/v1/quote', { product_id: product, interval: STAY, coupon_code: 'X' }), 'SK601', 'coupon_code');
    refused(await post('/v1/book', { product_id: product, interval: { ...STAY, nights: 2 } }), 'SK601', 'interval.nights');
    refused(await post('/v1/book', { product_id: product, interval: STAY, contact: { email: 'a@b.nl', age: 3 } }), 'SK601', 'contact.age');
    const item = { id: '1', product_id: product, interval: STAY };
    refused(await post('/v1/cart-checkout', { cart: { items: [{ ...item, amount: 5 }] } }), 'SK601', 'cart.items[0].amount');
    refused(await post('/v1/cart-checkout', { cart: { items: [item], discount: 5 } }), 'SK601', 'cart.discount');
    refused(await post('/v1/cart-checkout', { cart: { items: [item] }, total: 5 }), 'SK601', 'total');
    refused(await post('/v1/cart-validate', { items: [item], total: 5 }), 'SK601', 'total');
    refused(await post('/v1/search', { interval: STAY, guests: 2 }), 'SK601', 'guests');
    refused(await client(app, org.key).get(`/v1/availability?product_ids=${product}&from=2027-03-01`), 'SK601', 'from');
    const nothingBooked = await ctx.db.query('SELECT 1 FROM api.bookings WHERE organization_id = $1', [org.id]);
    assert.equal(nothingBooked.rows.length, 0);
  });

  it('a malformed field is a 400 naming it and what it must be, worded from the request schema', async () => {
    const cases: [string, unknown, string][] = [
      ['/v1/quote', { product_id: product, interval: { start: '2027-02-30', end: '2027-03-02' } }, 'interval.start must be a date (YYYY-MM-DD)'],
      ['/v1/quote', { interval: STAY }, 'product_id is required: a uuid'],
      ['/v1/quote', { product_id: product }, 'interval is required: a JSON object with start, end'],
      ['/v1/book', { product_id: product, interval: STAY, currency: 'euro' }, 'currency must be an ISO 4217 code like EUR'],
      ['/v1/book', { product_id: product, interval: STAY, occupancy: { [product]: 1.5 } }, `occupancy.${product} must be an integer from 0 to 10000`],
      ['/v1/book', { product_id: product, interval: STAY, form_values: { pool: true } }, 'form_values keys must each be a uuid'],
      ['/v1/cart-validate', { items: [] }, 'items must be a non-empty array of at most 50 items'],
      ['/v1/cart-checkout', { cart: { items: [{ id: {}, product_id: product, interval: STAY }] } }, 'cart.items[0].id must be a string or a number'],
      ['/v1/create-product', { name: { default: '' }, rent_period: 'nightly', timezone: 'UTC' }, 'name.default must be a non-empty string'],
      ['/v1/booking-cancel', { booking_id: product, refund: 'half' }, 'refund must be one of policy, full, none'],
    ];
    for (const [url, body, message] of cases) {
      const response = await post(url, body);
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual([response.json().code, response.json().message], ['SK601', message], `${url} ${JSON.stringify(body)}`);
    }
    const query = await client(app, org.key).get('/v1/availability?perform_sync=maybe');
    assert.deepEqual([query.statusCode, query.json().message], [400, 'perform_sync must be a boolean']);
  });

  it('the known fields still work: /cart-validate takes the options beside its items', async () => {
    const validated = await post('/v1/cart-validate', {
      items: [{ id: '1', product_id: product, interval: STAY }], coupon_codes: [], currency: 'EUR', language: 'nl', site_id: site,
    });
    assert.equal(validated.statusCode, 200, validated.body);
    assert.equal(validated.json()[0].valid, true);
  });

  it('/book and /cart-checkout store site_id and widget_id', async () => {
    const booked = await post('/v1/book', { product_id: product, interval: STAY, site_id: site, widget_id: widget });
    assert.equal(booked.statusCode, 201, booked.body);
    const checkout = await post('/v1/cart-checkout', {
      cart: { items: [{ id: 'a', product_id: product, interval: { start: '2027-03-20', end: '2027-03-22' } }] }, widget_id: widget,
    });
    assert.equal(checkout.statusCode, 201, checkout.body);
    const rows = await ctx.db.query<{ id: string; site_id: string | null; widget_id: string | null }>(
      'SELECT id, site_id, widget_id FROM api.bookings WHERE id = ANY ($1::uuid[]) ORDER BY created_at',
      [[booked.json().booking_id, checkout.json().items[0].booking_id]]);
    assert.deepEqual(rows.rows.map((r) => [r.site_id, r.widget_id]), [[site, widget], [null, widget]]);
  });

  it('a site or widget of another organization, or none at all, is a 404 and nothing is booked', async () => {
    refused(await post('/v1/book', { product_id: product, interval: { start: '2027-04-01', end: '2027-04-03' }, site_id: foreignSite }), 'SK640');
    refused(await post('/v1/book', { product_id: product, interval: { start: '2027-04-01', end: '2027-04-03' }, widget_id: site }), 'SK641');
    const refusedCart = await post('/v1/cart-checkout', {
      cart: { items: [{ id: 'a', product_id: product, interval: { start: '2027-04-01', end: '2027-04-03' } }] }, site_id: foreignSite,
    });
    assert.equal(refusedCart.statusCode, 404, refusedCart.body);
    assert.equal(refusedCart.json().code, 'SK630');
    assert.equal(JSON.parse(refusedCart.json().details).code, 'SK640');
    refused(await post('/v1/book', { product_id: product, interval: STAY, site_id: 'not-a-uuid' }), 'SK601');
    const april = await ctx.db.query(`SELECT 1 FROM api.calendar_events WHERE product_id = $1 AND start_date = '2027-04-01'`, [product]);
    assert.equal(april.rows.length, 0);
  });
});
