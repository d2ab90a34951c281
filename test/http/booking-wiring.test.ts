/** The booking flow is served by the real app next to the resource API, with the same keys and errors. */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, startApp } from '../support/app.js';
import { seedDemoOrganization, type SeededOrganization } from '../../src/seed/demo-organization.js';

forEachBackend('booking flow in the app', (ctx) => {
  let app: FastifyInstance;
  let demo: SeededOrganization;
  before(async () => {
    demo = await seedDemoOrganization(ctx.db);
    app = await startApp(ctx.db);
  });
  after(() => app.close());

  it('answers /v1/availability for the demo products with the demo key', async () => {
    const products = (await app.inject({ method: 'GET', url: '/v1/products?select=id', headers: bearer(demo.api_key) })).json() as { id: string }[];
    const response = await app.inject({
      method: 'GET',
      url: `/v1/availability?product_ids=${products.map((p) => p.id).join(',')}`,
      headers: bearer(demo.api_key),
    });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json() as { product_id: string; intervals: { status: string }[] }[];
    assert.deepEqual(body.map((entry) => entry.product_id).sort(), products.map((p) => p.id).sort());
    assert.ok(body.every((entry) => entry.intervals.some((interval) => interval.status === 'booked' || interval.status === 'unavailable')));
  });

  it('requires a key for the booking flow too', async () => {
    const response = await app.inject({ method: 'POST', url: '/v1/quote', payload: {} });
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().code, 'SK401');
  });
});
