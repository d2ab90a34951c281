/**
 * Display currencies: a quote asked in another currency shows the total and deposit converted at the
 * organization's own rate next to the product's currency, /book stores the rate used while the booking and its
 * payments stay in the product's currency, and a currency without a rate is refused.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';
import { assertRefused, type Json } from './support.js';

forEachBackend('display currency and exchange rates', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let org: { id: string; key: string };
  let product: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Rates');
    api = client(app, org.key);
    const f = fixtures(ctx.db, org.id);
    product = await f.product();
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    // The organization keeps its rates itself, through the API.
    const patched = await app.inject({
      method: 'PATCH', url: `/v1/organizations?id=eq.${org.id}`, headers: { authorization: `Bearer ${org.key}` },
      payload: { settings: { exchange_rates: { EUR: { USD: 1.0825 }, JPY: { EUR: 0.0062 } } } },
    });
    assert.equal(patched.statusCode < 300, true, patched.body);
  });
  after(() => app.close());

  const stay = { interval: { start: '2027-04-10', end: '2027-04-17' } };

  it('shows the quote in the asked currency next to the product currency', async () => {
    const same = (await api.post('/v1/quote', { product_id: product, ...stay })).json() as Json;
    assert.deepEqual([same.currency, same.display_currency, same.exchange_rate, same.total, same.display_total], ['EUR', 'EUR', 1, 70000, 70000]);
    const usd = await api.post('/v1/quote', { product_id: product, ...stay, currency: 'USD' });
    assert.equal(usd.statusCode, 200, usd.body);
    const body = usd.json() as Json;
    assert.deepEqual([body.currency, body.total, body.display_currency, body.exchange_rate, body.display_total], ['EUR', 70000, 'USD', 1.0825, 75775]);
    // The inverse of a rate the organization keeps, and a currency without minor units: 700 EUR at 1 / 0.0062.
    const yen = (await api.post('/v1/quote', { product_id: product, ...stay, currency: 'JPY' })).json() as Json;
    assert.deepEqual([yen.display_currency, yen.display_total], ['JPY', 112903]);
  });

  it('refuses a currency without a rate', async () => {
    assertRefused(await api.post('/v1/quote', { product_id: product, ...stay, currency: 'GBP' }), 422, 'SK618', /GBP/);
  });

  it('/book stores the rate used; the booking and its payments stay in the product currency', async () => {
    const booked = await api.post('/v1/book', { product_id: product, interval: { start: '2027-05-01', end: '2027-05-03' }, currency: 'USD' });
    assert.equal(booked.statusCode, 201, booked.body);
    const id = (booked.json() as Json).booking_id;
    const { rows } = await ctx.db.query<{ currency: string; display_currency: string; exchange_rate: number }>(
      'SELECT currency, display_currency, exchange_rate FROM api.bookings WHERE id = $1', [id]);
    assert.equal(rows[0]!.currency, 'EUR');
    assert.equal(rows[0]!.display_currency, 'USD');
    assert.ok(Math.abs(rows[0]!.exchange_rate - 1.0825) < 1e-6, String(rows[0]!.exchange_rate));
    const { rows: payments } = await ctx.db.query<{ currency: string; amount: number }>('SELECT currency, amount FROM api.payments WHERE booking_id = $1', [id]);
    assert.deepEqual(payments, [{ currency: 'EUR', amount: 20000 }]);
  });
});
