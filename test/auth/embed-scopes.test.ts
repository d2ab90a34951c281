/**
 * Scopes hold through embeds: every table a request reads — embedded at any depth, through a junction, only to
 * filter, or in the rows a write returns — needs the key's read scope (403 SK403 naming it). And the database
 * holds the same line on its own: in a transaction of a scoped key, tables outside its scopes show no rows.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { fixtures, insert } from '../support/fixtures.js';
import { API_ROLE, inTenantTransaction } from '../../src/transaction/tenant-transaction.js';
import { runRequest } from '../../src/query/run.js';
import { loadSchemaCache } from '../../src/schema/load.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** `days` after today (UTC), as YYYY-MM-DD. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

forEachBackend('scopes through embeds', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let bookingId: string;
  let productId: string;
  let webhookId: string;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Scoped');
    const f = fixtures(ctx.db, org.id);
    productId = await f.product();
    await f.configuration(productId, { intervals: '{[2020-01-01,2040-01-01)}', rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    const booking = await insert<{ id: string }>(ctx.db, 'bookings', { organization_id: org.id, currency: 'EUR' });
    bookingId = booking.id;
    const contact = await insert<{ id: string }>(ctx.db, 'contacts', {
      organization_id: org.id, first_name: 'Ada', email: 'ada@example.com', phone: '+31 20 123 4567',
    });
    await insert(ctx.db, 'contact_bookings', { organization_id: org.id, contact_id: contact.id, booking_id: bookingId });
    await insert(ctx.db, 'line_items', { organization_id: org.id, booking_id: bookingId, item_type: 'rent', amount: 100, name: { default: 'Rent' } });
    const webhook = await insert<{ id: string }>(ctx.db, 'webhooks', { organization_id: org.id, endpoint: 'https://93.184.215.14/h', events: '{*}' });
    webhookId = webhook.id;
    await insert(ctx.db, 'webhook_notifications', {
      organization_id: org.id, webhook_id: webhookId, event_type: 'contacts.created', payload: { email: 'ada@example.com' },
    });
  });
  after(() => app.close());

  const get = (key: string, url: string) => app.inject({ method: 'GET', url, headers: bearer(key) });

  const assertMissingScope = (response: { statusCode: number; body: string; json(): { code: string; message: string } }, scope: string) => {
    assert.equal(response.statusCode, 403, response.body);
    assert.equal(response.json().code, 'SK403');
    assert.equal(response.json().message, `This API key lacks the scope "${scope}"`);
  };

  describe('the HTTP layer', () => {
    it('refuses a bookings:read key every embed of another table, at any depth', async () => {
      const key = await createKey(ctx.db, org.id, ['bookings:read']);
      const cases: [string, string][] = [
        ['/v1/bookings?select=reference,contact_bookings(contacts(first_name,email,phone))', 'contact_bookings:read'],
        ['/v1/bookings?select=id,organizations(*)', 'organizations:read'],
        ['/v1/bookings?select=id,line_items(*)', 'line_items:read'],
        ['/v1/bookings?select=id,calendar_events(products(name))', 'calendar_events:read'],
        // An embed only to filter or order by still reads the table.
        ['/v1/bookings?select=id,contact_bookings!inner()&contact_bookings.contact_id=not.is.null', 'contact_bookings:read'],
        ['/v1/bookings?select=id,organizations(name)&order=organizations(name)', 'organizations:read'],
      ];
      for (const [url, scope] of cases) assertMissingScope(await get(key, url), scope);
      const ownTable = await get(key, '/v1/bookings?select=id,currency');
      assert.equal(ownTable.statusCode, 200, ownTable.body);
      assert.deepEqual(ownTable.json(), [{ id: bookingId, currency: 'EUR' }]);
    });

    it('refuses a webhooks:write key the notifications, whose payloads are snapshots of every resource', async () => {
      const key = await createKey(ctx.db, org.id, ['webhooks:write']);
      assertMissingScope(await get(key, '/v1/webhooks?select=id,webhook_notifications(payload)'), 'webhook_notifications:read');
      const own = await get(key, '/v1/webhooks?select=id');
      assert.equal(own.statusCode, 200, own.body);
      assert.deepEqual(own.json(), [{ id: webhookId }]);
    });

    it('refuses embeds in the rows a write returns', async () => {
      const contactsKey = await createKey(ctx.db, org.id, ['contacts:write']);
      const post = await app.inject({
        method: 'POST', url: '/v1/contacts?select=id,organizations(name)',
        headers: { ...JSON_HEADERS, ...bearer(contactsKey), prefer: 'return=representation' }, payload: { first_name: 'Grace' },
      });
      assertMissingScope(post, 'organizations:read');
      const bookingsKey = await createKey(ctx.db, org.id, ['bookings:write']);
      const headers = { ...JSON_HEADERS, ...bearer(bookingsKey), prefer: 'return=representation' };
      const patch = await app.inject({
        method: 'PATCH', url: `/v1/bookings?id=eq.${bookingId}&select=id,contact_bookings(contacts(email))`, headers, payload: { language: 'nl' },
      });
      assertMissingScope(patch, 'contact_bookings:read');
      const del = await app.inject({ method: 'DELETE', url: `/v1/bookings?id=eq.${bookingId}&select=id,line_items(amount)`, headers });
      assertMissingScope(del, 'line_items:read');
      const written = await ctx.db.query<{ contacts: number; language: string | null }>(
        `SELECT (SELECT count(*)::integer FROM api.contacts WHERE first_name = 'Grace') AS contacts,
                (SELECT language FROM api.bookings WHERE id = $1) AS language`, [bookingId]);
      assert.deepEqual(written.rows[0], { contacts: 0, language: 'en' }, 'nothing was written');
    });

    it('lets a key with every table’s scope, or a read key, embed them', async () => {
      const url = '/v1/bookings?select=reference,contact_bookings(contacts(first_name,email))';
      for (const scopes of [['bookings:read', 'contact_bookings:read', 'contacts:write'], ['read']]) {
        const response = await get(await createKey(ctx.db, org.id, scopes), url);
        assert.equal(response.statusCode, 200, `${scopes.join(',')}: ${response.body}`);
        const [row] = response.json() as { contact_bookings: { contacts: { email: string } }[] }[];
        assert.equal(row!.contact_bookings[0]!.contacts.email, 'ada@example.com');
      }
    });
  });

  describe('the database', () => {
    it('hides the rows of tables outside the setting, whatever the statement', async () => {
      const visible = (scopes: string[], table: string) =>
        inTenantTransaction(ctx.db, { keyRowId: 'k', keyId: 'k', organizationId: org.id, scopes }, async (tx) => ({
          result: (await tx.query<{ n: number }>(`SELECT count(*)::integer AS n FROM api.${table}`)).rows[0]!.n,
          rollback: true,
        }));
      assert.equal(await visible(['bookings:read'], 'contacts'), 0);
      assert.equal(await visible(['bookings:read'], 'organizations'), 0);
      assert.equal(await visible(['webhooks:write'], 'webhook_notifications'), 0);
      assert.equal(await visible(['bookings:read'], 'bookings'), 1);
      assert.equal(await visible(['contacts:read'], 'contacts'), 1);
      assert.equal(await visible(['webhooks:write'], 'webhooks'), 1);
      assert.equal(await visible(['read'], 'contacts'), 1);

      // The same with the raw setting, as any statement of an API transaction would see it.
      const raw = await ctx.db.transaction(async (tx) => {
        await tx.query(`SELECT set_config('role', 'staykit_api', true), set_config('staykit.organization_id', $1, true),
                               set_config('staykit.readable_tables', '{bookings}', true)`, [org.id]);
        const { rows } = await tx.query<{ bookings: number; contacts: number }>(
          `SELECT (SELECT count(*)::integer FROM api.bookings) AS bookings,
                  (SELECT count(*)::integer FROM api.contacts) AS contacts`);
        await tx.query('RESET ROLE');
        return rows[0];
      });
      assert.deepEqual(raw, { bookings: 1, contacts: 0 });
    });

    it('keeps embeds empty even when the engine is run without the HTTP layer’s scope check', async () => {
      const cache = await loadSchemaCache(ctx.db, { schema: 'api', role: API_ROLE });
      const principal = { keyRowId: 'k', keyId: 'k', organizationId: org.id, scopes: ['bookings:read'] };
      const response = await inTenantTransaction(ctx.db, principal, async (tx) => {
        const result = await runRequest(
          tx,
          { method: 'GET', path: 'bookings', query: 'select=id,contact_bookings(contacts(email)),organizations(name)', headers: {}, body: undefined },
          cache,
          { maxRows: 100, requireFilterForWrites: true, basePath: '/v1' },
        );
        return { result, rollback: true };
      });
      assert.equal(response.status, 200, String(response.body));
      assert.deepEqual(JSON.parse(String(response.body ?? '')), [{ id: bookingId, contact_bookings: [], organizations: null }]);
    });

    it('has the read-scope policy on every table of the api schema', async () => {
      const { rows } = await ctx.db.query<{ table_name: string }>(`
        SELECT c.relname AS table_name
        FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
        WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p')
          AND NOT (c.relrowsecurity AND EXISTS (
            SELECT 1 FROM pg_policy AS p WHERE p.polrelid = c.oid AND p.polname = 'read_scope' AND NOT p.polpermissive))`);
      assert.deepEqual(rows, []);
    });
  });

  describe('the booking flow', () => {
    it('works for keys scoped to bookings or products only', async () => {
      const start = inDays(30);
      const end = inDays(33);
      const reader = await createKey(ctx.db, org.id, ['bookings:read']);
      const availability = await get(reader, `/v1/availability?product_ids=${productId}&start=${start}&end=${end}`);
      assert.equal(availability.statusCode, 200, availability.body);
      const quote = await app.inject({
        method: 'POST', url: '/v1/quote', headers: { ...JSON_HEADERS, ...bearer(reader) }, payload: { product_id: productId, interval: { start, end } },
      });
      assert.equal(quote.statusCode, 200, quote.body);
      assert.equal(quote.json().total, 30000);

      const writer = await createKey(ctx.db, org.id, ['bookings:write']);
      const booked = await app.inject({
        method: 'POST', url: '/v1/book', headers: { ...JSON_HEADERS, ...bearer(writer) }, payload: { product_id: productId, interval: { start, end } },
      });
      assert.equal(booked.statusCode, 201, booked.body);

      const products = await createKey(ctx.db, org.id, ['products:write']);
      const created = await app.inject({
        method: 'POST', url: '/v1/create-product', headers: { ...JSON_HEADERS, ...bearer(products) },
        payload: { name: { default: 'Beach Hut' }, rent_period: 'nightly', timezone: 'Europe/Amsterdam' },
      });
      assert.equal(created.statusCode, 201, created.body);
    });
  });
});
