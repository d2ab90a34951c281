import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures } from '../support/fixtures.js';

forEachBackend('POST /v1/cart-validate and /v1/cart-checkout', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let org: { id: string; key: string };
  let a: string;
  let b: string;
  let adults: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Cart');
    api = client(app, org.key);
    const f = fixtures(ctx.db, org.id);
    adults = await f.group('Adults');
    a = await f.product({ name: { default: 'A' } });
    b = await f.product({ name: { default: 'B' } });
    for (const product of [a, b]) {
      await f.configuration(product, { rates: [{ duration: 1, occupancy: 1, rate: 10000 }] });
      await f.capacity(product, adults, 1, 2);
    }
    await f.event(b, { start_date: '2027-03-10', end_date: '2027-03-12' });
    await f.coupon({ code: 'ONCE', quota: 1, definition: { type: 'fixed', value: 500 } });
  });
  after(() => app.close());

  const count = async () =>
    (await ctx.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api.bookings WHERE organization_id = $1', [org.id])).rows[0]!.n;
  const item = (id: string, product: string, start: string, end: string, guests = 1) =>
    ({ id, product_id: product, interval: { start, end }, occupancy: { [adults]: guests } });

  it('validates every item, the items against each other, and books nothing', async () => {
    const response = await api.post('/v1/cart-validate', {
      items: [
        item('1', a, '2027-03-10', '2027-03-12'),
        item('2', b, '2027-03-11', '2027-03-13'), // B is booked 10–12 March
        item('3', a, '2027-03-20', '2027-03-22', 5), // at most 2 adults
        item('4', a, '2027-03-11', '2027-03-13'), // overlaps item 1
      ],
    });
    assert.equal(response.statusCode, 200, response.body);
    const results = response.json() as { id: string; valid: boolean; availabilityMatch: boolean; occupancyMatch: boolean; errors?: { code: string }[] }[];
    assert.deepEqual(results.map((r) => [r.id, r.valid, r.availabilityMatch, r.occupancyMatch, r.errors?.map((e) => e.code) ?? []]), [
      ['1', true, true, true, []],
      ['2', false, false, true, ['SK610']],
      ['3', false, true, false, ['SK612']],
      ['4', false, false, true, ['SK610']],
    ]);
    assert.equal(await count(), 0);
  });

  it('checkout books all items or none', async () => {
    const failing = await api.post('/v1/cart-checkout', { cart: { items: [item('1', a, '2027-03-10', '2027-03-12'), item('2', b, '2027-03-11', '2027-03-13')] } });
    assert.equal(failing.statusCode, 409, failing.body);
    const error = failing.json();
    assert.equal(error.code, 'SK630');
    assert.equal(JSON.parse(error.details).id, '2');
    assert.equal(await count(), 0);
    const events = await ctx.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api.calendar_events WHERE product_id = $1', [a]);
    assert.equal(events.rows[0]!.n, 0);

    const ok = await api.post('/v1/cart-checkout', { cart: { items: [item('1', a, '2027-03-10', '2027-03-12'), item('2', b, '2027-03-20', '2027-03-22')] } });
    assert.equal(ok.statusCode, 201, ok.body);
    const body = ok.json();
    assert.equal(body.payment_url, null);
    assert.deepEqual(body.items.map((i: { id: string }) => i.id), ['1', '2']);
    assert.equal(await count(), 2);
  });

  it('a coupon with one use left fails the second item, and the whole cart', async () => {
    const before = await count();
    const response = await api.post('/v1/cart-checkout', {
      cart: { coupon_codes: ['ONCE'], items: [item('x', a, '2027-04-10', '2027-04-12'), item('y', b, '2027-04-10', '2027-04-12')] },
    });
    assert.equal(response.statusCode, 422, response.body);
    assert.equal(response.json().code, 'SK630');
    assert.match(response.json().details, /SK615/);
    assert.equal(await count(), before);
  });

  it('answers malformed carts with 400', async () => {
    const cases: [string, unknown][] = [
      ['/v1/cart-checkout', {}],
      ['/v1/cart-checkout', { cart: { items: [] } }],
      ['/v1/cart-checkout', { cart: { items: [item('1', a, '2027-05-10', '2027-05-12'), item('1', b, '2027-05-10', '2027-05-12')] } }],
      ['/v1/cart-validate', { items: [{ id: {}, product_id: a }] }],
      ['/v1/cart-validate', { items: [{ id: 'z', product_id: a, interval: { start: 'tomorrow', end: '2027-05-12' } }] }],
    ];
    for (const [url, body] of cases) {
      const response = await api.post(url, body);
      assert.equal(response.statusCode, 400, `${url} ${JSON.stringify(body)}: ${response.body}`);
      assert.equal(response.json().code, 'SK601');
    }
  });
});
