/**
 * A unit's iCal export secrets are credentials (docs/ical.md#who-may-read-the-secrets): a cleaner's session and a
 * `products:read` key — or even a `read` key — read neither by any route (select=*, a named column, embeds, filters
 * and orders on it, the change feed, create-product's answer); `products:write` with `calendar_events:read` reads
 * the no-details secret only; with bookings, contacts and contact_bookings too, both. Rotation (PATCH to null) takes
 * the same right, answers with the new secret, and the old feed URL is 404 from then on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { createUser, login, type Session } from '../users/support.js';
import { settled } from '../changes/support.js';
import { createBooking, createProduct, day } from './support.js';

const SECRETS = ['ical_export_secret', 'ical_export_secret_no_details'] as const;
const DETAILS_READS = ['calendar_events:read', 'bookings:read', 'contacts:read', 'contact_bookings:read'];

forEachBackend('who may read the iCal export secrets', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let product: Awaited<ReturnType<typeof createProduct>>;
  let cleaner: Session;
  let owner: Session;
  let productsRead: string;
  let readAll: string;
  let noDetails: string;
  let details: string;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Secrets');
    product = await createProduct(ctx.db, org.id, 'Dune House');
    await createBooking(ctx.db, org.id, product.id, day(5), day(9), { first: 'Anna', last: 'de Vries' });
    const cleanerUser = await createUser(ctx.db, org.id, 'cleaner@example.com', {
      role: 'cleaner', permissions: [{ resource: 'calendar_events', access: 'read' }],
    });
    const ownerUser = await createUser(ctx.db, org.id, 'owner@example.com', { role: 'owner' });
    cleaner = await login(app, cleanerUser.email, cleanerUser.password);
    owner = await login(app, ownerUser.email, ownerUser.password);
    productsRead = await createKey(ctx.db, org.id, ['products:read']);
    readAll = await createKey(ctx.db, org.id, ['read']);
    noDetails = await createKey(ctx.db, org.id, ['products:write', 'calendar_events:read']);
    details = await createKey(ctx.db, org.id, ['products:write', ...DETAILS_READS]);
  });
  after(() => app.close());

  const get = (url: string, auth: string | Session) =>
    app.inject({ method: 'GET', url, headers: typeof auth === 'string' ? bearer(auth) : { cookie: auth.cookie } });
  const mentionsSecret = (response: LightMyRequestResponse) =>
    response.body.includes(product.ical_export_secret) || response.body.includes(product.ical_export_secret_no_details);

  describe('a cleaner session, a products:read key and a read key', () => {
    const principals = (): [string, string | Session][] => [['cleaner', cleaner], ['products:read', productsRead], ['read', readAll]];

    it('read the units without either secret: select=* and embeds at any depth leave them out', async () => {
      for (const [who, auth] of principals()) {
        const units = await get('/v1/products?select=*', auth);
        assert.equal(units.statusCode, 200, `${who}: ${units.body}`);
        assert.equal(units.json<unknown[]>().length, 1);
        assert.ok(!mentionsSecret(units), `${who} read a secret through select=*`);
      }
      const embedded = await get('/v1/bookings?select=calendar_events(products(*))', readAll);
      assert.equal(embedded.statusCode, 200, embedded.body);
      assert.equal(embedded.json<{ calendar_events: { products: Record<string, unknown> }[] }[]>()[0]!.calendar_events[0]!.products.id, product.id);
      assert.ok(!mentionsSecret(embedded));
    });

    it('are refused a named secret column, in select, embeds, filters and orders, the same whatever its value', async () => {
      for (const [who, auth] of principals()) {
        for (const secret of SECRETS) {
          const urls = [
            `/v1/products?select=id,${secret}`,
            `/v1/calendar_events?select=id,products(${secret})`,
            `/v1/products?select=id&order=${secret}`,
          ];
          for (const url of urls) {
            const response = await get(url, auth);
            assert.equal(response.statusCode, 403, `${who} ${url}: ${response.body}`);
            assert.ok(!mentionsSecret(response));
          }
          // A filter on the column is no oracle: the right value and a wrong one get the same answer.
          const right = await get(`/v1/products?select=id&${secret}=eq.${product[secret]}`, auth);
          const wrong = await get(`/v1/products?select=id&${secret}=eq.${'x'.repeat(32)}`, auth);
          assert.equal(right.statusCode, 403, `${who} filter: ${right.body}`);
          assert.deepEqual([right.statusCode, right.json()], [wrong.statusCode, wrong.json()]);
        }
      }
    });

    it('find no secret in the change feed of products', async () => {
      await ctx.db.query(`UPDATE api.products SET description = '{"default": "By the sea"}' WHERE id = $1`, [product.id]);
      await settled(ctx.db);
      // Neither for whoever may read the secrets: the feed's rows never carry them (its policies hold for the
      // secret roles too, which inherit the API role's).
      for (const auth of [readAll, details]) {
        const feed = await get('/v1/changes?types=products.updated', auth);
        assert.equal(feed.statusCode, 200, feed.body);
        assert.ok(feed.json<{ changes: unknown[] }>().changes.length > 0);
        assert.ok(!mentionsSecret(feed));
      }
    });
  });

  describe('products:write', () => {
    it('with calendar_events:read reads the no-details secret only', async () => {
      const mine = await get('/v1/products?select=id,ical_export_secret_no_details', noDetails);
      assert.equal(mine.statusCode, 200, mine.body);
      assert.deepEqual(mine.json(), [{ id: product.id, ical_export_secret_no_details: product.ical_export_secret_no_details }]);
      assert.equal((await get('/v1/products?select=id,ical_export_secret', noDetails)).statusCode, 403);
      assert.equal((await get('/v1/products?select=id,ical_export_secret_no_details', await createKey(ctx.db, org.id, ['products:write']))).statusCode, 403);
    });

    it('with bookings, contacts and contact_bookings read too reads both; so do the owner and a write key', async () => {
      for (const auth of [details, owner, await createKey(ctx.db, org.id, ['write'])]) {
        const both = await get('/v1/products?select=id,ical_export_secret,ical_export_secret_no_details', auth);
        assert.equal(both.statusCode, 200, both.body);
        assert.deepEqual(both.json(), [{ id: product.id, ...Object.fromEntries(SECRETS.map((secret) => [secret, product[secret]])) }]);
      }
    });

    it('create-product answers with the new unit without the secrets the key may not read', async () => {
      const create = (key: string) => app.inject({
        method: 'POST', url: '/v1/create-product', headers: bearer(key),
        payload: { name: 'Pine Lodge', rent_period: 'nightly', timezone: 'Europe/Amsterdam' },
      });
      const plain = await create(await createKey(ctx.db, org.id, ['products:write']));
      assert.equal(plain.statusCode, 201, plain.body);
      assert.ok(!SECRETS.some((secret) => secret in plain.json()), plain.body);
      const partly = await create(noDetails);
      assert.deepEqual(SECRETS.filter((secret) => secret in partly.json()), ['ical_export_secret_no_details']);
      const full = await create(details);
      assert.deepEqual(SECRETS.filter((secret) => secret in full.json()), [...SECRETS]);
    });
  });

  describe('rotation', () => {
    const patch = (auth: string, body: Record<string, unknown>) => app.inject({
      method: 'PATCH', url: `/v1/products?id=eq.${product.id}&select=id,ical_export_secret,ical_export_secret_no_details`,
      headers: { ...bearer(auth), prefer: 'return=representation' }, payload: body,
    });

    it('is refused to whoever may not read the secret, be it to null or to a value of their own', async () => {
      const refused = [
        await patch(noDetails, { ical_export_secret: null }),
        await patch(noDetails, { ical_export_secret: 'chosen-by-the-key-0123456789' }),
        await patch(await createKey(ctx.db, org.id, ['products:write']), { ical_export_secret_no_details: null }),
      ];
      for (const response of refused) {
        assert.equal(response.statusCode, 403, response.body);
        assert.equal(response.json().code, '42501');
      }
      const { rows } = await ctx.db.query('SELECT ical_export_secret, ical_export_secret_no_details FROM api.products WHERE id = $1', [product.id]);
      assert.deepEqual(rows[0], Object.fromEntries(SECRETS.map((secret) => [secret, product[secret]])));
    });

    it('issues a new secret on a PATCH to null: the old URL is 404, the new one serves the feed', async () => {
      const before = await app.inject({ method: 'GET', url: `/v1/ical/${product.ical_export_secret}.ics` });
      assert.equal(before.statusCode, 200);
      const rotated = await patch(details, { ical_export_secret: null });
      assert.equal(rotated.statusCode, 200, rotated.body);
      const [row] = rotated.json<Record<string, string>[]>();
      assert.match(row!.ical_export_secret!, /^[A-Za-z0-9]{32}$/);
      assert.notEqual(row!.ical_export_secret, product.ical_export_secret);
      assert.equal(row!.ical_export_secret_no_details, product.ical_export_secret_no_details, 'the other secret is unchanged');
      assert.equal((await app.inject({ method: 'GET', url: `/v1/ical/${product.ical_export_secret}.ics` })).statusCode, 404);
      const fresh = await app.inject({ method: 'GET', url: `/v1/ical/${row!.ical_export_secret}.ics` });
      assert.equal(fresh.statusCode, 200);
      assert.match(fresh.body, /Anna de Vries/);
      product = { ...product, ical_export_secret: row!.ical_export_secret! };
    });
  });

  it('the API role itself may read neither column (a grant on the table would open them again)', async () => {
    const { rows } = await ctx.db.query<{ column_name: string; readable: boolean }>(
      `SELECT c AS column_name, has_column_privilege('staykit_api', 'api.products', c, 'SELECT') AS readable
       FROM unnest($1::text[]) AS c`, [[...SECRETS]]);
    assert.deepEqual(rows.map((row) => row.readable), [false, false]);
  });
});
