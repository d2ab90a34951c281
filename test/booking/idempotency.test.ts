import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures } from '../support/fixtures.js';
import { canonicalJson } from '../../src/booking/idempotency.js';

forEachBackend('Idempotency-Key on /book, /cart-checkout and /create-product', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let org: { id: string; key: string };
  let product: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Idempotency');
    api = client(app, org.key);
    const f = fixtures(ctx.db, org.id);
    product = await f.product();
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
  });
  after(() => app.close());

  const count = async (table: string) =>
    (await ctx.db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM api.${table} WHERE organization_id = $1`, [org.id])).rows[0]!.n;

  it('/book: a replay returns the first response and creates nothing; another body with the key is a 422', async () => {
    const body = { product_id: product, interval: { start: '2027-03-10', end: '2027-03-12' } };
    const first = await api.post('/v1/book', body, { 'idempotency-key': 'book-1' });
    assert.equal(first.statusCode, 201, first.body);
    const bookings = await count('bookings');
    // Same body, keys in another order: the same request.
    const replay = await api.post('/v1/book', { interval: { end: '2027-03-12', start: '2027-03-10' }, product_id: product }, { 'idempotency-key': 'book-1' });
    assert.equal(replay.statusCode, 201);
    assert.deepEqual(replay.json(), first.json());
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(await count('bookings'), bookings);
    assert.equal(await count('calendar_events'), 1);

    const other = await api.post('/v1/book', { ...body, interval: { start: '2027-04-10', end: '2027-04-12' } }, { 'idempotency-key': 'book-1' });
    assert.equal(other.statusCode, 422);
    assert.equal(other.json().code, 'SK621');
    assert.equal(await count('bookings'), bookings);

    // Without a key the same body is a new request: the dates are taken now.
    const again = await api.post('/v1/book', body);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'SK610');
  });

  it('a failed request stores nothing: the retry runs again', async () => {
    const body = { product_id: product, interval: { start: '2027-03-11', end: '2027-03-13' } };
    const failed = await api.post('/v1/book', body, { 'idempotency-key': 'book-2' });
    assert.equal(failed.statusCode, 409);
    assert.equal(failed.json().code, 'SK610');
    await ctx.db.query(`UPDATE api.calendar_events SET status = 'CANCELLED' WHERE product_id = $1`, [product]);
    const retried = await api.post('/v1/book', body, { 'idempotency-key': 'book-2' });
    assert.equal(retried.statusCode, 201, retried.body);
  });

  it('keys belong to one organization', async () => {
    const other = await createOrganization(ctx.db, 'Other');
    const f = fixtures(ctx.db, other.id);
    const theirs = await f.product();
    await f.configuration(theirs, { rates: [{ duration: 1, occupancy: 0, rate: 500 }] });
    const response = await client(app, other.key).post('/v1/book', { product_id: theirs, interval: { start: '2027-03-10', end: '2027-03-12' } }, { 'idempotency-key': 'book-1' });
    assert.equal(response.statusCode, 201, response.body);
  });

  it('/create-product and /cart-checkout replay too', async () => {
    const productBody = { name: 'Replayed', rent_period: 'nightly', timezone: 'Europe/Lisbon' };
    const created = await api.post('/v1/create-product', productBody, { 'idempotency-key': 'product-1' });
    assert.equal(created.statusCode, 201, created.body);
    const replay = await api.post('/v1/create-product', productBody, { 'idempotency-key': 'product-1' });
    assert.equal(replay.statusCode, 201);
    assert.deepEqual(replay.json(), created.json());
    const products = await ctx.db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM api.products WHERE organization_id = $1 AND name->>'default' = 'Replayed'`, [org.id]);
    assert.equal(products.rows[0]!.n, 1);

    const cart = { cart: { items: [{ id: 'a', product_id: product, interval: { start: '2027-06-01', end: '2027-06-03' } }] } };
    const checkout = await api.post('/v1/cart-checkout', cart, { 'idempotency-key': 'cart-1' });
    assert.equal(checkout.statusCode, 201, checkout.body);
    const bookings = await count('bookings');
    const replayCart = await api.post('/v1/cart-checkout', cart, { 'idempotency-key': 'cart-1' });
    assert.deepEqual(replayCart.json(), checkout.json());
    assert.equal(await count('bookings'), bookings);
    // The same key on another operation is another request.
    const crossed = await api.post('/v1/create-product', productBody, { 'idempotency-key': 'cart-1' });
    assert.equal(crossed.statusCode, 422);
    assert.equal(crossed.json().code, 'SK621');
  });

  it('answers 409 while a request with the same key is still running', async (t) => {
    if (!ctx.url) {
      t.skip('PGlite runs one transaction at a time: nothing can be running alongside');
      return;
    }
    await ctx.db.transaction(async (tx) => {
      // What the first request holds until it commits.
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`staykit-idempotency:${org.id}:running-1`]);
      const response = await api.post('/v1/book', { product_id: product, interval: { start: '2027-09-10', end: '2027-09-12' } }, { 'idempotency-key': 'running-1' });
      assert.equal(response.statusCode, 409, response.body);
      assert.equal(response.json().code, 'SK620');
    });
  });

  it('rejects malformed keys with 400', async () => {
    const response = await api.post('/v1/book', { product_id: product, interval: { start: '2027-08-10', end: '2027-08-12' } }, { 'idempotency-key': 'x'.repeat(300) });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 'SK622');
  });

  it('hashes bodies canonically', () => {
    assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: null }] }), '{"a":[{"c":null,"d":2}],"b":1}');
  });
});
