/**
 * Every answer of the routes outside the resource engine and the booking flow — payments and invoices, template
 * previews and test-sends, webhook operations, the change feed, the widget and its keys, dashboard logins and the dashboard's own
 * API, health and the document itself — as the running server gives it, successes and the usual refusals, matches
 * the OpenAPI document the same server serves (./answers.ts: status, media type, and a body with no field the
 * document does not name). The last tests demand that every such operation of the document was answered here, so
 * a new route comes with its answers checked, and that every route the app registers is a route definition
 * (src/routing/route-schema.ts), the resource engine's, or one of the few pages and files outside the API named here.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import sharp from 'sharp';
import Stripe from 'stripe';
import { loadConfig } from '../../src/config.js';
import { replyAddressesFor, type ReplyAddresses } from '../../src/inbox/reply-address.js';
import { expireChanges } from '../../src/changes/feed.js';
import { createPasswordToken } from '../../src/users/password-links.js';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, createOrganization, type TestOrganization } from '../support/app.js';
import { client, NOW, startBookingApp } from '../booking/support.js';
import { fixtures, insert } from '../support/fixtures.js';
import { bookableUnit } from '../automations/support.js';
import { createContact, createWebhook, startReceiver, type Receiver } from '../webhooks/support.js';
import { settled } from '../changes/support.js';
import { ALLOWED_ORIGIN, publishableKeyFor, widgetOrganization } from '../widget/support.js';
import { startFakeStripe, type FakeStripe } from '../money/stripe-server.js';
import { createUser, login, type Session } from '../users/support.js';
import { listedRoutes } from '../../src/routing/route-list.js';
import { answerChecker, HTTP_METHODS, type AnswerChecker, type Method } from './answers.js';

const SECRET_KEY = 'sk_test_51StaykitLocalOnly0000abcd';
const WEBHOOK_SECRET = 'whsec_localtestsecret1234567890';
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const INBOUND_SECRET = 'inbound-webhook-secret';

/** The document's tag of the booking flow, whose answers test/booking checks. */
const BOOKING_FLOW_TAG = 'booking flow';

/**
 * The routes that are no operation of the API, so have no route definition: pages, files and feeds for browsers and
 * calendar apps, with why. Any other route without a definition fails the last test.
 */
const OUTSIDE_THE_API: [url: string | RegExp, why: string][] = [
  ['/metrics', 'Prometheus metrics, for the operator'],
  ['/media/:hash/:file', "an uploaded image's stored variant"],
  [/^\/g\/:secret(\/.*)?$/, "the guest's pages: HTML, their calendar, their invoices and the cancellation form"],
  ['/widget.js', "the widget's script"],
  ['/w/:widgetId', "a widget's hosted page"],
  [/^\/docs(\/.*)?$/, "the document's reference page and its assets"],
  [/^\/admin(\/(?!api\/).*)?$/, "the dashboard's built app (its API is /admin/api)"],
  ['/v1/ical/:file', 'iCal feeds for calendar apps and channels (docs/ical.md)'],
  ['/v1*', 'CORS preflight of publishable keys (OPTIONS, @fastify/cors)'],
];

forEachBackend('answers of the non-engine routes match the served OpenAPI document', (ctx) => {
  let app: FastifyInstance;
  let answers: AnswerChecker;
  let stripe: FakeStripe;
  let receiver: Receiver;
  let dataDir: string;
  let org: TestOrganization;
  let readOnly: string;
  let bookingId: string;
  let owner: Session;
  let replyAddresses: ReplyAddresses;

  before(async () => {
    stripe = await startFakeStripe();
    receiver = await startReceiver(() => ({ status: 202, body: 'accepted' }));
    dataDir = await mkdtemp(join(tmpdir(), 'staykit-route-answers-'));
    const config = loadConfig({
      STAYKIT_SECRET_KEY: 'server-secret-for-tests-only', STAYKIT_STRIPE_API_URL: stripe.url, STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true',
      DATA_DIR: dataDir, STAYKIT_PUBLIC_URL: 'https://stays.example.com',
      STAYKIT_INBOUND_DOMAIN: 'reply.stays.example.com', STAYKIT_INBOUND_WEBHOOK_SECRET: INBOUND_SECRET,
    });
    replyAddresses = replyAddressesFor(config)!;
    app = await startBookingApp(ctx.db, undefined, { config });
    answers = await answerChecker(app);
    org = await createOrganization(ctx.db, 'Documented Rentals');
    readOnly = await createKey(ctx.db, org.id, ['bookings:read']);
    // A booking with a guest's address and a payment due at confirmation.
    const unit = await bookableUnit(ctx.db, org.id);
    const form = await fixtures(ctx.db, org.id).service(unit.product, { type: 'text', name: { default: 'Remarks' } });
    await insert(ctx.db, 'service_payment_moments', {
      organization_id: org.id, service_id: form, moment: { type: 'confirmation', offset: 0 }, value: { type: 'percentage', value: 100 },
    });
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-05-03', end: '2027-05-05' }, occupancy: { [unit.adults]: 2 },
      contact: { first_name: 'Mila', email: 'mila@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    bookingId = booked.json<{ booking_id: string }>().booking_id;
    const user = await createUser(ctx.db, org.id, 'olivia@example.com', { role: 'owner' });
    owner = await login(app, user.email, user.password);
  });
  after(async () => {
    await app.close();
    await stripe.close();
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Sends the request and checks its answer against `method path` of the document. */
  const call = async (method: Method, path: string, request: InjectOptions) =>
    answers.check(await app.inject({ method: method.toUpperCase() as 'GET', ...request }), method, path);
  const withKey = (key: string, extra: Record<string, string> = {}) => ({ ...bearer(key), ...extra });
  const status = (response: { statusCode: number; body: string }, expected: number) => assert.equal(response.statusCode, expected, response.body);

  it('health, readiness and the document', async () => {
    status(await call('get', '/health', { url: '/health' }), 200);
    status(await call('get', '/ready', { url: '/ready' }), 200);
    status(await call('get', '/openapi.json', { url: '/v1/openapi.json?tag=operations' }), 200);
    status(await call('get', '/openapi.json', { url: '/v1/openapi.json?tag=nope' }), 404);
    status(await call('get', '/openapi.json', { url: '/v1/' }), 200);
    status(await call('get', '/health', { url: `/health?${'x'.repeat(20_000)}` }), 414);
  });

  it('payment settings, payment links, Stripe events and invoice PDFs', async () => {
    const settings = { url: '/v1/payment-settings', headers: withKey(org.key) };
    status(await call('get', '/payment-settings', settings), 200);
    status(await call('get', '/payment-settings', { url: '/v1/payment-settings' }), 401);
    status(await call('get', '/payment-settings', { ...settings, headers: withKey(readOnly) }), 403);
    status(await call('post', '/payment-link', { url: '/v1/payment-link', headers: withKey(org.key), payload: { booking_id: bookingId } }), 409);
    const account = { stripe_secret_key: SECRET_KEY, stripe_webhook_secret: WEBHOOK_SECRET, success_url: 'https://stay.example/thanks', cancel_url: 'https://stay.example/no' };
    status(await call('put', '/payment-settings', { ...settings, payload: { ...account, stripe_secret_key: 'nope' } }), 400);
    status(await call('put', '/payment-settings', { ...settings, payload: account }), 200);
    status(await call('get', '/payment-settings', settings), 200);

    const link = { url: '/v1/payment-link', headers: withKey(org.key) };
    status(await call('post', '/payment-link', { ...link, payload: { booking_id: bookingId } }), 200);
    status(await call('post', '/payment-link', { ...link, payload: { booking_id: 'nope' } }), 400);
    status(await call('post', '/payment-link', { ...link, payload: { booking_id: NO_SUCH_ID } }), 404);

    const event = JSON.stringify({ id: 'evt_documented_1', object: 'event', type: 'customer.created', created: 1_800_000_000, data: { object: {} } });
    const stripeEvent = (organization: string, signature: string) => call('post', '/stripe/webhook/{organization_id}', {
      url: `/v1/stripe/webhook/${organization}`, payload: event, headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: event, secret: WEBHOOK_SECRET });
    status(await stripeEvent(org.id, signature), 200);
    status(await stripeEvent(org.id, signature), 200);
    status(await stripeEvent(org.id, 'forged'), 400);
    status(await stripeEvent('nope', signature), 400);

    const invoice = await app.inject({ method: 'POST', url: '/v1/invoices', headers: withKey(org.key, { prefer: 'return=representation' }), payload: { booking_id: bookingId } });
    status(invoice, 201);
    const invoiceId = invoice.json<{ id: string }[]>()[0]!.id;
    const pdf = { url: `/v1/invoices/${invoiceId}`, headers: withKey(org.key, { accept: 'application/pdf' }) };
    status(await call('get', '/invoices/{id}', pdf), 200);
    status(await call('get', '/invoices/{id}', { ...pdf, headers: withKey(org.key) }), 406);
    status(await call('get', '/invoices/{id}', { ...pdf, url: `/v1/invoices/${NO_SUCH_ID}` }), 404);
    status(await call('get', '/invoices/{id}', { ...pdf, url: '/v1/invoices/nope' }), 400);
    status(await call('get', '/invoices/{id}', { ...pdf, headers: { accept: 'application/pdf' } }), 401);
    status(await call('get', '/invoices/{id}', { ...pdf, headers: withKey(readOnly, { accept: 'application/pdf' }) }), 403);

    status(await call('delete', '/payment-settings', settings), 204);
  });

  it('inbound e-mail from a mail provider', async () => {
    const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`postmark:${password}`).toString('base64')}` });
    const to = replyAddresses.forBooking(bookingId);
    const email = { FromFull: { Email: 'mila@example.com', Name: 'Mila' }, ToFull: [{ Email: to }], Subject: 'Parking?', TextBody: 'Is there parking?',
      Headers: [{ Name: 'Message-ID', Value: '<documented-1@example.com>' }] };
    const inbound = (headers: Record<string, string>, payload: object) => call('post', '/inbound-email', { url: '/v1/inbound-email', headers, payload });
    status(await inbound(basic(INBOUND_SECRET), email), 200);
    status(await inbound(basic(INBOUND_SECRET), email), 200);
    status(await inbound(basic('wrong'), email), 401);
    status(await inbound(basic(INBOUND_SECRET), { ...email, ToFull: 'nobody' }), 400);
    status(await inbound(basic(INBOUND_SECRET), { ...email, ToFull: [{ Email: 'sales@reply.stays.example.com' }], Headers: [] }), 403);

    const withFile = { ...email, Headers: [{ Name: 'Message-ID', Value: '<documented-2@example.com>' }],
      Attachments: [{ Name: 'plan.pdf', ContentType: 'application/pdf', Content: Buffer.from('%PDF-1.4').toString('base64') }] };
    const stored = await inbound(basic(INBOUND_SECRET), withFile);
    status(stored, 200);
    const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM api.message_attachments WHERE message_id = $1', [stored.json<{ message_id: string }>().message_id]);
    const file = { url: `/v1/message-attachments/${rows[0]!.id}`, headers: withKey(org.key) };
    status(await call('get', '/message-attachments/{id}', file), 200);
    status(await call('get', '/message-attachments/{id}', { ...file, url: `/v1/message-attachments/${NO_SUCH_ID}` }), 404);
    status(await call('get', '/message-attachments/{id}', { ...file, url: '/v1/message-attachments/nope' }), 400);
    status(await call('get', '/message-attachments/{id}', { ...file, headers: {} }), 401);
    status(await call('get', '/message-attachments/{id}', { ...file, headers: withKey(readOnly) }), 403);
  });

  it('image uploads', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7d5c' } }).png().toBuffer();
    const upload = (payload: Buffer | string, headers: Record<string, string>) => call('post', '/media', { url: '/v1/media', payload, headers });
    status(await upload(png, withKey(org.key, { 'content-type': 'image/png' })), 201);
    status(await upload('not an image', withKey(org.key, { 'content-type': 'image/jpeg' })), 415);
    status(await upload(png, { 'content-type': 'image/png' }), 401);
    status(await upload(png, withKey(readOnly, { 'content-type': 'image/png' })), 403);
  });

  it('template previews', async () => {
    const template = await insert<{ id: string }>(ctx.db, 'email_templates', {
      organization_id: org.id, subject: { default: 'Your stay' }, body: { default: 'Hello {{ guest.first_name }}' },
    });
    const preview = (payload: unknown, key = org.key) => call('post', '/template-preview', { url: '/v1/template-preview', headers: withKey(key), payload: payload as object });
    status(await preview({ booking_id: bookingId, email_template_id: template.id }), 200);
    status(await preview({ booking_id: bookingId }), 400);
    status(await preview({ booking_id: NO_SUCH_ID, email_template_id: template.id }), 404);
    status(await preview({ booking_id: bookingId, email_template_id: template.id }, readOnly), 403);
    status(await call('post', '/template-preview', { url: '/v1/template-preview', payload: {} }), 401);
    status(await preview({ booking_id: bookingId, email_template_id: template.id, draft: { body: { default: '{{ guest.nope }}' } } }), 400);

    const testSend = (payload: unknown, headers: Record<string, string>) => call('post', '/template-test-send', { url: '/v1/template-test-send', headers, payload: payload as object });
    const ownSession = { cookie: owner.cookie, 'x-csrf-token': owner.csrf };
    status(await testSend({ booking_id: bookingId, draft: { subject: { default: 'Hi' }, body: { default: 'Hello' } } }, ownSession), 200);
    status(await testSend({ booking_id: bookingId }, ownSession), 400);
    status(await testSend({ booking_id: NO_SUCH_ID, email_template_id: template.id }, ownSession), 404);
    status(await testSend({ booking_id: bookingId, email_template_id: template.id }, withKey(org.key)), 403);
    status(await testSend({}, {}), 401);
  });

  it('webhook tests, redeliveries and the event catalogue', async () => {
    const hook = await createWebhook(ctx.db, org.id, receiver.url, ['contacts.created']);
    receiver.secret = hook.signing_secret;
    const test = (payload: unknown) => call('post', '/webhook-test', { url: '/v1/webhook-test', headers: withKey(org.key), payload: payload as object });
    const sent = await test({ webhook_id: hook.id });
    status(sent, 200);
    status(await test({ webhook_id: 'nope' }), 400);
    status(await test({ webhook_id: NO_SUCH_ID }), 404);

    const redeliver = (payload: unknown, key = org.key) => call('post', '/webhook-redeliver', { url: '/v1/webhook-redeliver', headers: withKey(key), payload: payload as object });
    status(await redeliver({ ids: [sent.json<{ id: string }>().id] }), 200);
    status(await redeliver({ ids: [] }), 400);
    await createContact(ctx.db, org.id, 'Ada');
    const { rows } = await ctx.db.query<{ id: string }>(`SELECT id FROM api.webhook_notifications WHERE webhook_id = $1 AND event_type = 'contacts.created'`, [hook.id]);
    status(await redeliver({ ids: [rows[0]!.id] }, await createKey(ctx.db, org.id, ['webhooks:write'])), 403);

    status(await call('get', '/webhook-events', { url: '/v1/webhook-events', headers: withKey(org.key) }), 200);
    status(await call('get', '/webhook-events', { url: '/v1/webhook-events' }), 401);
    status(await call('get', '/webhook-events', { url: '/v1/webhook-events', headers: withKey(readOnly) }), 403);
  });

  it('the change feed', async () => {
    const own = await createOrganization(ctx.db, 'Feed');
    await createContact(ctx.db, own.id, 'Old');
    await settled(ctx.db);
    const feed = (query: string, key = own.key) => call('get', '/changes', { url: `/v1/changes?${query}`, headers: withKey(key) });
    const first = await feed('limit=1');
    status(first, 200);
    status(await feed('limit=0'), 400);
    status(await feed('', await createKey(ctx.db, own.id, ['webhooks:write'])), 403);
    status(await call('get', '/changes', { url: '/v1/changes' }), 401);
    await createContact(ctx.db, own.id, 'Expired');
    await expireChanges(ctx.db, new Date(Date.now() + 60_000));
    status(await feed(`since=${first.json<{ next: string }>().next}`), 410);
  });

  it('the widget catalogue and publishable keys', async () => {
    const site = await widgetOrganization(ctx.db, 'Widget Rentals');
    const keys = { url: '/v1/publishable-keys', headers: withKey(site.secretKey) };
    const created = await call('post', '/publishable-keys', { ...keys, payload: { widget_id: site.widget, name: 'site' } });
    status(created, 201);
    status(await call('post', '/publishable-keys', { ...keys, payload: { name: 'neither' } }), 400);
    status(await call('post', '/publishable-keys', { ...keys, payload: { widget_id: NO_SUCH_ID } }), 404);
    status(await call('get', '/publishable-keys', keys), 200);
    status(await call('get', '/publishable-keys', { url: keys.url }), 401);
    const publishable = created.json<{ key: string; id: string }>().key;
    status(await call('get', '/publishable-keys', { url: keys.url, headers: withKey(publishable) }), 403);

    const widget = { url: '/v1/widget', headers: withKey(publishable, { origin: ALLOWED_ORIGIN }) };
    status(await call('get', '/widget', widget), 200);
    status(await call('get', '/widget', { url: '/v1/widget' }), 401);
    status(await call('get', '/widget', { ...widget, headers: withKey(publishable, { origin: 'https://elsewhere.example' }) }), 403);

    const revoke = (id: string, headers: Record<string, string> = withKey(site.secretKey)) => call('delete', '/publishable-keys/{id}', { url: `/v1/publishable-keys/${id}`, headers });
    status(await revoke(await publishableKeyFor(app, site.secretKey, site.widget)), 200);
    status(await revoke(NO_SUCH_ID), 404);
    status(await revoke(NO_SUCH_ID, {}), 401);
    status(await revoke(NO_SUCH_ID, withKey(publishable)), 403);
  });

  it('dashboard logins and sessions', async () => {
    const user = await createUser(ctx.db, org.id, 'sam@example.com', { role: 'manager' });
    const other = await createOrganization(ctx.db, 'Second Rentals');
    await createUser(ctx.db, other.id, 'sam@example.com', { role: 'staff' });
    const loginAs = (payload: unknown) => call('post', '/auth/login', { url: '/auth/login', payload: payload as object });
    status(await loginAs({ email: user.email, password: user.password }), 200);
    status(await loginAs({ email: user.email, password: 'wrong horse battery staple' }), 401);
    status(await loginAs({ email: 'not an address', password: 'x' }), 400);
    const session = await login(app, user.email, user.password);
    const cookie = { cookie: session.cookie };
    status(await call('get', '/auth/session', { url: '/auth/session', headers: cookie }), 200);
    status(await call('get', '/auth/session', { url: '/auth/session' }), 401);
    const switchTo = (payload: unknown, csrf = session.csrf) =>
      call('post', '/auth/organization', { url: '/auth/organization', headers: { ...cookie, 'x-csrf-token': csrf }, payload: payload as object });
    status(await switchTo({ organization_id: other.id }), 200);
    status(await switchTo({ organization_id: NO_SUCH_ID }), 403);
    status(await switchTo({ organization_id: 'nope' }), 400);
    status(await switchTo({ organization_id: org.id }, 'not-the-token'), 403);
    status(await call('post', '/auth/logout', { url: '/auth/logout', headers: { ...cookie, 'x-csrf-token': session.csrf } }), 204);

    const token = await createPasswordToken(ctx.db, user.id, NOW);
    const setPassword = (payload: unknown) => call('post', '/auth/set-password', { url: '/auth/set-password', payload: payload as object });
    status(await setPassword({ token, password: 'short' }), 400);
    status(await setPassword({ token, password: 'a brand new passphrase for sam' }), 200);
    status(await setPassword({ token, password: 'a brand new passphrase for sam' }), 400);
  });

  it("the dashboard's API keys, invitations, notifications and unit preview", async () => {
    const cleanerUser = await createUser(ctx.db, org.id, 'cleo@example.com', { role: 'cleaner' });
    const cleaner = await login(app, cleanerUser.email, cleanerUser.password);
    const as = (session: Session) => ({ cookie: session.cookie, 'x-csrf-token': session.csrf });

    const keys = { url: '/admin/api/keys', headers: as(owner) };
    const created = await call('post', '/admin/api/keys', { ...keys, payload: { name: 'Website', scopes: ['bookings:read'], expires_at: '2099-01-01' } });
    status(created, 201);
    status(await call('post', '/admin/api/keys', { ...keys, payload: { name: '', scopes: [] } }), 400);
    status(await call('get', '/admin/api/keys', keys), 200);
    status(await call('get', '/admin/api/keys', { url: keys.url }), 401);
    status(await call('get', '/admin/api/keys', { url: keys.url, headers: as(cleaner) }), 403);
    const revoke = (id: string, headers: Record<string, string> = as(owner)) => call('delete', '/admin/api/keys/{id}', { url: `/admin/api/keys/${id}`, headers });
    status(await revoke(created.json<{ key_id: string }>().key_id), 200);
    status(await revoke('nokey'), 404);
    status(await revoke('nokey', {}), 401);
    status(await revoke('nokey', as(cleaner)), 403);

    const member = async (name: string, email: string | null) =>
      (await insert<{ id: string }>(ctx.db, 'members', { organization_id: org.id, name, email, role: 'cleaner' })).id;
    const invite = (memberId: string, session = owner) =>
      call('post', '/admin/api/invitations', { url: '/admin/api/invitations', headers: as(session), payload: { member_id: memberId } });
    status(await invite(await member('Cas', 'cas@example.com')), 201);
    status(await invite(await member('Nomail', null)), 409);
    status(await invite(NO_SUCH_ID), 404);
    status(await invite('nope'), 400);
    status(await invite(NO_SUCH_ID, cleaner), 403);

    const mine = { url: '/admin/api/my-notifications', headers: as(cleaner) };
    status(await call('get', '/admin/api/my-notifications', mine), 200);
    status(await call('get', '/admin/api/my-notifications', { url: mine.url }), 401);
    status(await call('put', '/admin/api/my-notifications', { ...mine, payload: { notify: ['booking.created'] } }), 200);
    status(await call('put', '/admin/api/my-notifications', { ...mine, payload: { notify: null } }), 200);
    status(await call('put', '/admin/api/my-notifications', { ...mine, payload: { notify: 'all' } }), 400);
    status(await call('put', '/admin/api/my-notifications', { ...mine, payload: { notify: ['no.such'] } }), 400);

    const { rows: [unit] } = await ctx.db.query<{ id: string }>('SELECT id FROM api.products WHERE organization_id = $1 LIMIT 1', [org.id]);
    const preview = (id: string, headers: Record<string, string> = as(owner)) =>
      call('get', '/admin/api/unit-preview/{id}', { url: `/admin/api/unit-preview/${id}`, headers });
    status(await preview(unit!.id), 200);
    status(await preview(NO_SUCH_ID), 404);
    status(await preview('nope'), 400);
    status(await preview(unit!.id, {}), 401);
    status(await preview(unit!.id, as(cleaner)), 403);
  });

  it('answered every operation of the document outside the resource engine and the booking flow, each with success at least once', () => {
    const tables = new Set(answers.document.tags.map((tag) => tag.name));
    const owned = Object.entries(answers.document.paths).flatMap(([path, item]) => HTTP_METHODS
      .filter((method) => method in item)
      .filter((method) => !(tables.has(path.slice(1)) || ((item[method] as { tags?: string[] }).tags ?? []).includes(BOOKING_FLOW_TAG)))
      .map((method) => `${method} ${path}`));
    const unanswered = owned.filter((operation) => !answers.answered.has(operation));
    assert.deepEqual(unanswered, [], 'operations no test here answered');
    const neverSucceeded = owned.filter((operation) => ![...answers.answered.get(operation)!].some((status) => status < 300));
    assert.deepEqual(neverSucceeded, [], 'operations never answered with success here');
    for (const path of ['/auth/login', '/admin/api/keys', '/webhook-test', '/webhook-redeliver']) {
      assert.ok(owned.some((operation) => operation.endsWith(` ${path}`)), `${path} is documented`);
    }
  });

  it('registered every route outside the resource engine from a route definition, whose operation the document has', () => {
    const routes = listedRoutes(app);
    const outside = (url: string) => OUTSIDE_THE_API.some(([pattern]) => (typeof pattern === 'string' ? pattern === url : pattern.test(url)));
    const undefinedRoutes = routes.filter((route) => route.role === undefined && !outside(route.url)).map((route) => `${route.methods.join(',')} ${route.url}`);
    assert.deepEqual(undefinedRoutes, [], 'routes registered without a route definition (src/routing/route-schema.ts)');
    const documented = new Set(Object.values(answers.document.paths).flatMap((item) => HTTP_METHODS
      .filter((method) => method in item).map((method) => (item[method] as { operationId?: string }).operationId)));
    const undocumented = routes.flatMap((route) => (route.role?.kind === 'definition' && !documented.has(route.role.operationId) ? [route.role.operationId] : []));
    assert.deepEqual(undocumented, [], 'definitions whose operation the served document lacks');
    const stale = OUTSIDE_THE_API.filter(([pattern]) => !routes.some((route) => route.role === undefined
      && (typeof pattern === 'string' ? pattern === route.url : pattern.test(route.url))));
    assert.deepEqual(stale.map(([pattern]) => String(pattern)), [], 'entries of OUTSIDE_THE_API no route is registered at');
  });
});
