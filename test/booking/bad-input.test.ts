import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures } from '../support/fixtures.js';

// Whatever a client sends, the answer is a 4xx in the API's error shape — never a 500.
forEachBackend('Booking flow: bad input never gives a 500', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let product: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    const org = await createOrganization(ctx.db, 'Garbage');
    api = client(app, org.key);
    const f = fixtures(ctx.db, org.id);
    product = await f.product();
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 100 }] });
  });
  after(() => app.close());

  it('answers every malformed body with 4xx and {code, message, details, hint}', async () => {
    const stay = { product_id: product, interval: { start: '2027-03-10', end: '2027-03-12' } };
    const bodies: unknown[] = [
      null, [], 0, {}, { product_id: {} }, { ...stay, interval: [] }, { ...stay, interval: { start: 1, end: 2 } },
      { ...stay, interval: { start: '9999-12-30', end: '9999-12-31' } }, { ...stay, interval: { start: '2027-03-10', end: '2029-03-12' } },
      { ...stay, occupancy: [] }, { ...stay, occupancy: { [product]: 'two' } }, { ...stay, occupancy: { [product]: 1e9 } },
      { ...stay, form_values: [] }, { ...stay, form_values: { x: 1 } }, { ...stay, form_values: { [product]: { nested: true } } },
      { ...stay, coupon_codes: [1] }, { ...stay, coupon_codes: ['a b'.repeat(40)] }, { ...stay, silent: 'yes' },
      { ...stay, currency: 'euro' }, { ...stay, language: 'english!' }, { ...stay, contact: 'me' }, { ...stay, contact: { email: 5 } },
      { items: 'x' }, { items: [null] }, { cart: [] }, { cart: { items: [{ id: 1, product_id: product, interval: null }] } },
      { interval: 'soon' }, { option_ids: [1] }, { name: { default: 5 }, rent_period: 'nightly', timezone: 'UTC' },
    ];
    const urls = ['/v1/quote', '/v1/book', '/v1/cart-validate', '/v1/cart-checkout', '/v1/search', '/v1/create-product'];
    for (const url of urls) {
      for (const body of bodies) {
        const response = await api.post(url, body);
        assert.ok(response.statusCode >= 400 && response.statusCode < 500 || [200, 201].includes(response.statusCode),
          `${url} ${JSON.stringify(body)} → ${response.statusCode} ${response.body}`);
        if (response.statusCode >= 400) {
          assert.deepEqual(Object.keys(response.json()).sort(), ['code', 'details', 'hint', 'message'], `${url} ${response.body}`);
        }
      }
    }
    for (const query of ['start=9999-12-30', 'end=0000-01-01', 'product_ids=,,,', 'perform_sync=maybe', 'start[]=x', 'product_ids=' + 'a'.repeat(5000)]) {
      const response = await api.get(`/v1/availability?${query}`);
      assert.ok(response.statusCode >= 400 && response.statusCode < 500 || response.statusCode === 200, `${query} → ${response.statusCode} ${response.body}`);
    }
  });
});
