import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';

forEachBackend('POST /v1/create-product', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let org: { id: string; key: string };

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Create product');
    api = client(app, org.key);
  });
  after(() => app.close());

  it('creates a product with the documented defaults and returns the row', async () => {
    const response = await api.post('/v1/create-product', { name: 'Sea Cottage', rent_period: 'nightly', timezone: 'Europe/Amsterdam' });
    assert.equal(response.statusCode, 201, response.body);
    const row = response.json();
    assert.equal(row.organization_id, org.id);
    assert.deepEqual(row.name, { default: 'Sea Cottage' });
    assert.equal(row.currency, 'EUR');
    assert.equal(row.interaction, 'request');
    assert.equal(row.request_status, 'TENTATIVE');
    assert.equal(row.cooldown_time, 0);
    assert.equal(row.deleted_at, null);
    assert.equal(row.fts, undefined);
    const stored = await ctx.db.query('SELECT id FROM api.products WHERE id = $1 AND organization_id = $2', [row.id, org.id]);
    assert.equal(stored.rows.length, 1);
  });

  it('takes a product read back from the API as it is: empty description and confirmation message (a duplicate)', async () => {
    const response = await api.post('/v1/create-product', {
      name: { default: 'Copy' }, rent_period: 'nightly', timezone: 'Europe/Amsterdam',
      description: { default: '' }, confirmation_message: { default: '', nl: '' }, latest_arrival_time: null,
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(response.json().description, { default: '' });
  });

  it('takes the optional fields', async () => {
    const response = await api.post('/v1/create-product', {
      name: { default: 'Boat', nl: 'Boot' }, rent_period: 'daily', timezone: 'America/New_York', currency: 'USD', interaction: 'book',
      cooldown_time: 1, description: 'On the lake',
    });
    assert.equal(response.statusCode, 201, response.body);
    const row = response.json();
    assert.deepEqual([row.currency, row.interaction, row.cooldown_time, row.rent_period, row.description], ['USD', 'book', 1, 'daily', { default: 'On the lake' }]);
  });

  it('rejects bad input with 400 and the error shape', async () => {
    const cases: unknown[] = [
      { rent_period: 'nightly', timezone: 'Europe/Amsterdam' },
      { name: '', rent_period: 'nightly', timezone: 'Europe/Amsterdam' },
      { name: 'X', rent_period: 'weekly', timezone: 'Europe/Amsterdam' },
      { name: 'X', rent_period: 'nightly', timezone: 'Mars/Olympus' },
      { name: 'X', rent_period: 'nightly', timezone: 'Europe/Amsterdam', organization_id: org.id },
      { name: 'X', rent_period: 'nightly', timezone: 'Europe/Amsterdam', currency: 'euro' },
      { name: 'X', rent_period: 'nightly', timezone: 'Europe/Amsterdam', cooldown_time: -1 },
      [],
    ];
    for (const body of cases) {
      const response = await api.post('/v1/create-product', body);
      assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
      assert.deepEqual(Object.keys(response.json()).sort(), ['code', 'details', 'hint', 'message']);
    }
  });

  it('needs products:write', async () => {
    const bookingsOnly = client(app, await createKey(ctx.db, org.id, ['bookings:write']));
    const response = await bookingsOnly.post('/v1/create-product', { name: 'X', rent_period: 'nightly', timezone: 'UTC' });
    assert.equal(response.statusCode, 403);
    const productsWriter = client(app, await createKey(ctx.db, org.id, ['products:write']));
    assert.equal((await productsWriter.post('/v1/create-product', { name: 'X', rent_period: 'nightly', timezone: 'UTC' })).statusCode, 201);
  });
});
