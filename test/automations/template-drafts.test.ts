/**
 * The template editor's API (issue 35): a preview of unsaved text (a draft of a stored template, or of a new one),
 * checked as a save is; and a test-send, rendered the same way, that reaches the signed-in user's own mailbox — a real
 * SMTP server here, the outbox folder without SMTP_URL — and nobody else.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { TEST_SENDS_PER_WINDOW } from '../../src/automations/test-send.js';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization, type TestOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { createUser, login, type Session } from '../users/support.js';
import { bookableUnit, parseMime, startSmtpServer, textOf, type TestSmtpServer } from './support.js';

forEachBackend('template drafts and test-sends', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let org: TestOrganization;
  let owner: Session;
  let bookingId: string;
  let reference: string;
  let templateId: string;

  const asKey = (url: string, body: object, key = org.key) => client(app, key).post(url, body);
  const asOwner = (url: string, body: object, session = owner, on = app) => on.inject({
    method: 'POST', url, payload: body, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
  });

  before(async () => {
    smtp = await startSmtpServer();
    app = await startBookingApp(ctx.db, undefined, {
      config: loadConfig({ SMTP_URL: smtp.url, STAYKIT_PUBLIC_URL: 'https://stays.example.com', STAYKIT_EMAIL_FROM: 'team@stays.example.com' }),
    });
    org = await createOrganization(ctx.db, 'Draft Rentals');
    const user = await createUser(ctx.db, org.id, 'olivia@example.com', { role: 'owner' });
    owner = await login(app, user.email, user.password);
    const unit = await bookableUnit(ctx.db, org.id);
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-06-10', end: '2027-06-12' }, occupancy: { [unit.adults]: 2 },
      contact: { first_name: 'Ada', email: 'ada@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    ({ booking_id: bookingId, reference } = booked.json() as { booking_id: string; reference: string });
    const created = await client(app, org.key).post('/v1/email_templates', {
      type: 'manual', subject: { default: 'Stored subject' }, body: { default: 'Stored body' }, include_booking_details: false, include_booking_link: false,
    }, { prefer: 'return=representation' });
    assert.equal(created.statusCode, 201, created.body);
    templateId = (created.json() as { id: string }[])[0]!.id;
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  it('previews the unsaved text of a stored template, as text and HTML, and stores nothing', async () => {
    const preview = await asKey('/v1/template-preview', {
      booking_id: bookingId, email_template_id: templateId,
      draft: { subject: { default: 'Welcome {{ guest.first_name }}', nl: 'Welkom' }, body: { default: 'See you at {{ product.name }}, {{ booking.reference }}.' } },
    });
    assert.equal(preview.statusCode, 200, preview.body);
    const answer = preview.json();
    assert.equal(answer.subject, 'Welcome Ada');
    assert.equal(answer.body, `See you at Dune House, ${reference}.\n`);
    assert.match(answer.html, /^<!doctype html>/i);
    assert.match(answer.html, new RegExp(`See you at Dune House, ${reference}\\.`));
    const stored = await ctx.db.query<{ subject: { default: string } }>('SELECT subject FROM api.email_templates WHERE id = $1', [templateId]);
    assert.equal(stored.rows[0]!.subject.default, 'Stored subject');
  });

  it('previews a draft of a new template, with its flags', async () => {
    const preview = await asKey('/v1/template-preview', {
      booking_id: bookingId, draft: { subject: { default: 'New' }, body: { default: 'Hi {{ guest.name }}' }, include_booking_link: true, include_booking_details: false },
    });
    assert.equal(preview.statusCode, 200, preview.body);
    assert.match(preview.json().body, /^Hi Ada\n[\s\S]*https:\/\/stays\.example\.com\/g\//);
  });

  it('refuses a draft a save would refuse, naming the field and language', async () => {
    const refused = await asKey('/v1/template-preview', { booking_id: bookingId, draft: { subject: { default: 'x' }, body: { default: 'ok', nl: '{{ guest.frist_name }}' } } });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.json().code, 'SK680');
    assert.match(refused.json().message, /^body\.nl does not render/);
    const both = await asKey('/v1/template-preview', { booking_id: bookingId, message_template_id: templateId, draft: { body: { default: 'x' } } });
    assert.equal(both.statusCode, 400, both.body);
  });

  it('e-mails a test to the signed-in user only, marked as a test, through the mail server', async () => {
    const before = smtp.received.length;
    const sent = await asOwner('/v1/template-test-send', {
      booking_id: bookingId, email_template_id: templateId, draft: { body: { default: 'Dear {{ guest.first_name }}, draft text.' } },
    });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.deepEqual(sent.json(), { to: 'olivia@example.com', subject: '[Test] Stored subject' });
    assert.equal(smtp.received.length, before + 1);
    const mail = parseMime(smtp.received.at(-1)!);
    assert.equal(mail.headers.to, 'olivia@example.com');
    assert.equal(mail.headers.subject, '[Test] Stored subject');
    assert.match(textOf(mail), /^Dear Ada, draft text\./);
    assert.doesNotMatch(smtp.received.at(-1)!, /^(To|Cc|Bcc):.*ada@example\.com/im, 'never to the guest');
    const messages = await ctx.db.query('SELECT 1 FROM api.messages WHERE booking_id = $1', [bookingId]);
    assert.equal(messages.rows.length, 0, 'a test is not a message to the guest');
  });

  it('refuses an API key (it has no user to send to) and a member without the scopes', async () => {
    const byKey = await asKey('/v1/template-test-send', { booking_id: bookingId, email_template_id: templateId });
    assert.equal(byKey.statusCode, 403, byKey.body);
    assert.equal(byKey.json().code, 'SK687');
    const readOnly = await createKey(ctx.db, org.id, ['read']);
    assert.equal((await asKey('/v1/template-test-send', { booking_id: bookingId, email_template_id: templateId }, readOnly)).statusCode, 403);
    const noContacts = await createKey(ctx.db, org.id, ['bookings:read', 'email_templates:read']);
    const preview = await asKey('/v1/template-preview', { booking_id: bookingId, draft: { subject: { default: 'x' }, body: { default: 'x' } } }, noContacts);
    assert.equal(preview.statusCode, 403, preview.body);
    const writer = await createUser(ctx.db, org.id, 'cleo@example.com', {
      role: 'cleaner', permissions: [{ resource: 'email_templates', access: 'write' }, { resource: 'bookings', access: 'read' }],
    });
    const session = await login(app, writer.email, writer.password);
    const refused = await asOwner('/v1/template-test-send', { booking_id: bookingId, email_template_id: templateId }, session);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.match(refused.json().message, /lacks the permission "\w+:read"/, "the booking record's read scopes");
  });

  it('limits the tests a user sends, counted across server processes', async () => {
    const user = await createUser(ctx.db, org.id, 'busy@example.com', { role: 'owner' });
    const session = await login(app, user.email, user.password);
    // A second server on the same database, as behind a load balancer: the session is valid on both.
    const second = await startBookingApp(ctx.db, undefined, {
      config: loadConfig({ SMTP_URL: smtp.url, STAYKIT_PUBLIC_URL: 'https://stays.example.com', STAYKIT_EMAIL_FROM: 'team@stays.example.com' }),
    });
    try {
      const answers = [];
      for (let i = 0; i <= TEST_SENDS_PER_WINDOW; i += 1) {
        answers.push(await asOwner('/v1/template-test-send', { booking_id: bookingId, email_template_id: templateId }, session, i % 2 === 0 ? app : second));
      }
      assert.deepEqual(answers.map((answer) => answer.statusCode), [...Array(TEST_SENDS_PER_WINDOW).fill(200), 429]);
      const refused = answers.at(-1)!;
      assert.equal(refused.json<{ code: string }>().code, 'SK429');
      assert.ok(Number(refused.headers['retry-after']) > 500, `wait most of the 10 minutes: ${refused.headers['retry-after']}`);
      assert.equal((await asOwner('/v1/template-test-send', { booking_id: bookingId, email_template_id: templateId }, session, app)).statusCode, 429, 'the first server refuses too');
      // Another user is not held by this one's tests.
      assert.equal((await asOwner('/v1/template-test-send', { booking_id: bookingId, email_template_id: templateId }, owner, second)).statusCode, 200);
    } finally {
      await second.close();
    }
  });

  it('writes the test to the outbox folder when there is no SMTP server', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'staykit-test-send-'));
    const local = await startBookingApp(ctx.db, undefined, { config: loadConfig({ DATA_DIR: dataDir, STAYKIT_EMAIL_FROM: 'team@stays.example.com' }) });
    try {
      const session = await login(local, 'olivia@example.com', 'correct horse battery staple');
      const sent = await asOwner('/v1/template-test-send', { booking_id: bookingId, email_template_id: templateId }, session, local);
      assert.equal(sent.statusCode, 200, sent.body);
      const files = (await readdir(join(dataDir, 'outbox'))).filter((name) => name.endsWith('.eml'));
      assert.equal(files.length, 1);
      const mail = await readFile(join(dataDir, 'outbox', files[0]!), 'utf8');
      assert.match(mail, /^To: olivia@example\.com\r?$/m);
      assert.match(mail, /^Subject: \[Test\] Stored subject\r?$/m);
    } finally {
      await local.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
