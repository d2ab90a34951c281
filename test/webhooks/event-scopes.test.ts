/**
 * Receiving a webhook event is reading the rows it carries (docs/webhooks.md#event-scopes): a key with only
 * `webhooks:write` — or a dashboard member with only the webhooks permission — may not subscribe to
 * contacts.created or booking.created, repoint or enable a webhook that has them, redeliver their notifications or
 * read them in webhook_notifications (403 SK742 naming the missing scope, nothing changed); with the read scopes of
 * the payloads it may. What carries no guest data (a description, the test message) needs webhooks:write alone.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, createOrganization, type TestOrganization } from '../support/app.js';
import { createUser, login, type Session } from '../users/support.js';
import { buildApp } from '../../src/http/app.js';
import { loadConfig } from '../../src/config.js';
import { eventReadScopes } from '../../src/webhooks/event-scopes.js';
import { createContact, createWebhook, notifications, type TestWebhook } from './support.js';

const BOOKING_READS = ['bookings:read', 'calendar_events:read', 'contact_bookings:read', 'contacts:read', 'line_items:read', 'products:read'];

forEachBackend('webhooks need the read scopes of their events', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let hook: TestWebhook;
  let notificationId: string;
  let writeOnly: string;
  let manager: Session;

  before(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true' }) });
    org = await createOrganization(ctx.db, 'Hooks');
    hook = await createWebhook(ctx.db, org.id, 'http://127.0.0.1:9/guests', ['contacts.created', 'booking.created']);
    await createContact(ctx.db, org.id, 'Ada');
    const [notification] = await notifications(ctx.db, hook.id);
    notificationId = notification!.id;
    await ctx.db.query(`UPDATE api.webhook_notifications SET status = 'error' WHERE id = $1`, [notificationId]);
    writeOnly = await createKey(ctx.db, org.id, ['webhooks:write']);
    const user = await createUser(ctx.db, org.id, 'manager@example.com', { role: 'manager', permissions: [{ resource: 'webhooks', access: 'write' }] });
    manager = await login(app, user.email, user.password);
  });
  after(() => app.close());

  const send = (method: 'POST' | 'PATCH', url: string, who: string | Session, payload: unknown) =>
    app.inject({
      method, url, payload: payload as object,
      headers: typeof who === 'string' ? bearer(who) : { cookie: who.cookie, 'x-csrf-token': who.csrf },
    });
  const refused = (response: LightMyRequestResponse, event: string, scope: string) => {
    assert.equal(response.statusCode, 403, response.body);
    assert.deepEqual({ code: response.json().code, message: response.json().message },
      { code: 'SK742', message: `The webhook event "${event}" needs the read scope "${scope}"` });
    assert.doesNotMatch(response.body, /Ada/);
  };
  const stored = async () =>
    (await ctx.db.query('SELECT endpoint, events, disabled_at FROM api.webhooks WHERE id = $1', [hook.id])).rows[0];

  describe('a webhooks:write key alone', () => {
    it('may not subscribe to events that carry guests, nor to every event', async () => {
      refused(await send('POST', '/v1/webhooks', writeOnly, { endpoint: 'http://127.0.0.1:9/mine', events: ['contacts.created'] }), 'contacts.created', 'contacts:read');
      refused(await send('POST', '/v1/webhooks', writeOnly, { endpoint: 'http://127.0.0.1:9/mine', events: ['booking.created'] }), 'booking.created', 'bookings:read');
      refused(await send('POST', '/v1/webhooks', writeOnly, { endpoint: 'http://127.0.0.1:9/mine', events: ['*'] }), '*', 'bookings:read');
      refused(await send('PATCH', `/v1/webhooks?id=eq.${hook.id}`, writeOnly, { events: ['contacts.updated'] }), 'contacts.updated', 'contacts:read');
      const { rows } = await ctx.db.query('SELECT count(*)::int AS n FROM api.webhooks WHERE organization_id = $1', [org.id]);
      assert.equal(rows[0]!.n, 1);
    });

    it('may not repoint or enable a webhook that has them, nor redeliver their notifications', async () => {
      const before = await stored();
      refused(await send('PATCH', `/v1/webhooks?id=eq.${hook.id}`, writeOnly, { endpoint: 'http://127.0.0.1:9/mine' }), 'contacts.created', 'contacts:read');
      await ctx.db.query('UPDATE api.webhooks SET disabled_at = now() WHERE id = $1', [hook.id]);
      const disabled = await stored();
      refused(await send('PATCH', `/v1/webhooks?id=eq.${hook.id}`, writeOnly, { disabled_at: null }), 'contacts.created', 'contacts:read');
      assert.deepEqual(await stored(), disabled);
      await ctx.db.query('UPDATE api.webhooks SET disabled_at = NULL WHERE id = $1', [hook.id]);
      assert.deepEqual(await stored(), before);

      refused(await send('POST', '/v1/webhook-redeliver', writeOnly, { ids: [notificationId] }), 'contacts.created', 'contacts:read');
      assert.equal((await notifications(ctx.db, hook.id))[0]!.status, 'error', 'not re-queued');
    });

    it('may still describe it and send it the test message, which carries no data', async () => {
      const described = await send('PATCH', `/v1/webhooks?id=eq.${hook.id}`, writeOnly, { description: 'Guest sync' });
      assert.equal(described.statusCode, 204, described.body);
      const tested = await send('POST', '/v1/webhook-test', writeOnly, { webhook_id: hook.id });
      assert.equal(tested.statusCode, 200, tested.body);
    });
  });

  it('webhook_notifications shows a notification only with the read scopes of its event', async () => {
    const listed = async (scopes: string[]) => {
      const response = await app.inject({ method: 'GET', url: '/v1/webhook_notifications?select=id,payload', headers: bearer(await createKey(ctx.db, org.id, scopes)) });
      assert.equal(response.statusCode, 200, response.body);
      return response.json<{ id: string }[]>().map((row) => row.id);
    };
    assert.deepEqual(await listed(['webhook_notifications:read']), []);
    assert.deepEqual(await listed(['webhook_notifications:read', 'contacts:read']), [notificationId]);
  });

  it('a dashboard member with the webhooks permission alone is held to the same', async () => {
    refused(await send('POST', '/v1/webhooks', manager, { endpoint: 'http://127.0.0.1:9/mine', events: ['contacts.created'] }), 'contacts.created', 'contacts:read');
    refused(await send('PATCH', `/v1/webhooks?id=eq.${hook.id}`, manager, { endpoint: 'http://127.0.0.1:9/mine' }), 'contacts.created', 'contacts:read');
    refused(await send('POST', '/v1/webhook-redeliver', manager, { ids: [notificationId] }), 'contacts.created', 'contacts:read');
    const products = await send('POST', '/v1/webhooks', manager, { endpoint: 'http://127.0.0.1:9/units', events: ['products.updated'] });
    assert.equal(products.statusCode, 201, products.body);
  });

  it('with the read scopes of the payloads, subscribing, repointing and redelivering work', async () => {
    const contacts = await createKey(ctx.db, org.id, ['webhooks:write', 'contacts:read']);
    assert.equal((await send('POST', '/v1/webhooks', contacts, { endpoint: 'http://127.0.0.1:9/c', events: ['contacts.created'] })).statusCode, 201);
    refused(await send('PATCH', `/v1/webhooks?id=eq.${hook.id}`, contacts, { endpoint: 'http://127.0.0.1:9/moved' }), 'booking.created', 'bookings:read');

    const full = await createKey(ctx.db, org.id, ['webhooks:write', ...BOOKING_READS]);
    const moved = await send('PATCH', `/v1/webhooks?id=eq.${hook.id}`, full, { endpoint: 'http://127.0.0.1:9/moved' });
    assert.equal(moved.statusCode, 204, moved.body);
    assert.equal((await stored())!.endpoint, 'http://127.0.0.1:9/moved');
    const redelivered = await send('POST', '/v1/webhook-redeliver', full, { ids: [notificationId] });
    assert.equal(redelivered.statusCode, 200, redelivered.body);
    assert.deepEqual(redelivered.json(), { requeued: [notificationId] });
  });

  it('names the read scopes of every event of the catalogue, for whoever lists it', async () => {
    const scopes = await eventReadScopes(ctx.db);
    const { rows: catalogue } = await ctx.db.query<{ name: string }>('SELECT unnest(staykit_internal.webhook_event_catalogue()) AS name');
    assert.deepEqual([...scopes.keys()], catalogue.map((row) => row.name));
    assert.deepEqual(scopes.get('contacts.created'), ['contacts']);
    assert.deepEqual(scopes.get('messages.sent'), ['messages']);
    assert.deepEqual(scopes.get('booking.created'), BOOKING_READS.map((scope) => scope.replace(':read', '')));
    assert.deepEqual(scopes.get('availability.changed'), ['bookings']);
  });

  it('GET /v1/webhook-events lists the catalogue with what each event means, its read scopes and whether the key may subscribe', async () => {
    const listed = await app.inject({ method: 'GET', url: '/v1/webhook-events', headers: bearer(await createKey(ctx.db, org.id, ['webhooks:read', 'contacts:read'])) });
    assert.equal(listed.statusCode, 200, listed.body);
    const events = listed.json() as { name: string; resource: string; description: string; read_scopes: string[]; allowed: boolean }[];
    const { rows: catalogue } = await ctx.db.query<{ name: string }>('SELECT unnest(staykit_internal.webhook_event_catalogue()) AS name');
    assert.deepEqual(events.map((event) => event.name), catalogue.map((row) => row.name));
    const byName = new Map(events.map((event) => [event.name, event]));
    assert.deepEqual(byName.get('contacts.created'),
      { name: 'contacts.created', resource: 'contacts', description: 'A row of contacts was created.', read_scopes: ['contacts'], allowed: true });
    assert.equal(byName.get('booking.created')!.resource, 'booking');
    assert.match(byName.get('booking.created')!.description, /booking was made/);
    assert.equal(byName.get('booking.created')!.allowed, false);
    assert.ok(events.every((event) => event.description.length > 0));

    const withoutScope = await app.inject({ method: 'GET', url: '/v1/webhook-events', headers: bearer(await createKey(ctx.db, org.id, ['contacts:read'])) });
    assert.equal(withoutScope.statusCode, 403, withoutScope.body);
  });

  it('refuses an event outside the catalogue as before, naming it, and stores nothing', async () => {
    const response = await send('POST', '/v1/webhooks', await createKey(ctx.db, org.id, ['write']), { endpoint: 'http://127.0.0.1:9/typo', events: ['contacts.created', 'booking.craeted'] });
    assert.equal(response.statusCode, 400, response.body);
    assert.match(response.json().details ?? '', /booking\.craeted/);
    const { rows } = await ctx.db.query(`SELECT 1 FROM api.webhooks WHERE endpoint = 'http://127.0.0.1:9/typo'`);
    assert.equal(rows.length, 0);
  });
});
