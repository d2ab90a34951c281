/**
 * The widget's traffic in the organization's request log: requests made with a publishable key are written to
 * api_requests with the key's id in `publishable_key_id` (not `api_key_id`, which names secret keys), and only the
 * key's own organization reads them.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer } from '../support/app.js';
import { startBookingApp } from '../booking/support.js';
import { waitFor } from '../webhooks/support.js';
import { publishableKeyFor, widgetOrganization, type WidgetOrganization } from './support.js';

interface LoggedRequest {
  api_key_id: string | null;
  publishable_key_id: string | null;
  method: string;
  path: string;
  status: number;
}

forEachBackend('publishable keys in the request log (api_requests)', (ctx) => {
  let app: FastifyInstance;
  let org: WidgetOrganization;
  let other: WidgetOrganization;
  let pk: string;
  let otherPk: string;

  const call = (key: string, options: InjectOptions) => app.inject({ ...options, headers: { ...bearer(key), ...(options.headers ?? {}) } });

  /** The id GET /v1/publishable-keys gives `key`. */
  async function keyRowId(secretKey: string, key: string): Promise<string> {
    const listed = (await call(secretKey, { method: 'GET', url: '/v1/publishable-keys' })).json<{ id: string; key: string }[]>();
    return listed.find((row) => row.key === key)!.id;
  }

  /** The organization's logged requests made with publishable keys, once `count` of them are written. */
  function publishableRequests(secretKey: string, count: number): Promise<LoggedRequest[]> {
    return waitFor(async () => {
      const response = await call(secretKey, {
        method: 'GET', url: '/v1/api_requests?select=api_key_id,publishable_key_id,method,path,status&publishable_key_id=not.is.null&order=created_at',
      });
      assert.equal(response.statusCode, 200, response.body);
      const rows = response.json<LoggedRequest[]>();
      return rows.length >= count && rows;
    }, 20_000, `${count} publishable-key requests in the log`);
  }

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await widgetOrganization(ctx.db, 'Logged Rentals');
    other = await widgetOrganization(ctx.db, 'Other Rentals');
    pk = await publishableKeyFor(app, org.secretKey, org.widget);
    otherPk = await publishableKeyFor(app, other.secretKey, other.widget);
  });
  after(() => app.close());

  it("records the widget's requests, refused ones too, with the key, method, path and status, for its organization only", async () => {
    const requests: [InjectOptions, number][] = [
      [{ method: 'GET', url: '/v1/widget' }, 200],
      [{ method: 'GET', url: `/v1/availability?product_ids=${org.listed}&start=2027-04-01&end=2027-04-30` }, 200],
      [{
        method: 'POST', url: '/v1/quote',
        payload: { product_id: org.listed, interval: { start: '2027-04-05', end: '2027-04-08' }, occupancy: { [org.adults]: 2 }, form_values: { [org.email]: 'a@example.com' } },
      }, 200],
      [{ method: 'GET', url: `/v1/availability?product_ids=${org.unlisted}` }, 403],
    ];
    for (const [request, status] of requests) {
      const response = await call(pk, request);
      assert.equal(response.statusCode, status, `${request.method} ${request.url}: ${response.body}`);
    }
    assert.equal((await call(otherPk, { method: 'GET', url: '/v1/widget' })).statusCode, 200);

    const id = await keyRowId(org.secretKey, pk);
    assert.deepEqual(await publishableRequests(org.secretKey, 4), [
      { api_key_id: null, publishable_key_id: id, method: 'GET', path: '/v1/widget', status: 200 },
      { api_key_id: null, publishable_key_id: id, method: 'GET', path: '/v1/availability', status: 200 },
      { api_key_id: null, publishable_key_id: id, method: 'POST', path: '/v1/quote', status: 200 },
      { api_key_id: null, publishable_key_id: id, method: 'GET', path: '/v1/availability', status: 403 },
    ]);
    const otherId = await keyRowId(other.secretKey, otherPk);
    assert.deepEqual(await publishableRequests(other.secretKey, 1), [
      { api_key_id: null, publishable_key_id: otherId, method: 'GET', path: '/v1/widget', status: 200 },
    ]);
  });

  it('keeps naming a secret key in api_key_id, and no publishable key', async () => {
    const response = await call(org.secretKey, { method: 'GET', url: '/v1/products?select=id&limit=1' });
    assert.equal(response.statusCode, 200);
    const rows = await waitFor(async () => {
      const logged = (await call(org.secretKey, {
        method: 'GET', url: '/v1/api_requests?select=api_key_id,publishable_key_id&path=eq./v1/products',
      })).json<{ api_key_id: string | null; publishable_key_id: string | null }[]>();
      return logged.length > 0 && logged;
    }, 20_000, 'the secret-key request in the log');
    assert.ok(rows.every((row) => row.api_key_id !== null && row.publishable_key_id === null), JSON.stringify(rows));
  });
});
