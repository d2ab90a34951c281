/**
 * Triggered e-mails end to end: a booking made through /book queues the template's message in the booking's
 * transaction, the scheduler renders and sends it through a real SMTP server, and the server's answers decide
 * (250 sent, 4xx and no answer retried, 5xx failed).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { insert } from '../support/fixtures.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, textOf, type TestSmtpServer } from './support.js';

forEachBackend('triggered e-mails', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let api: ReturnType<typeof client>;
  let org: { id: string; key: string };
  let unit: { product: string; adults: string };
  const time = clock('2027-03-01T10:00:00Z');
  let start = 10;

  before(async () => {
    smtp = await startSmtpServer();
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Seaside Rentals');
    api = client(app, org.key);
    unit = await bookableUnit(ctx.db, org.id);
    const replyTo = await insert<{ id: string }>(ctx.db, 'reply_to_addresses', { organization_id: org.id, email: 'host@seaside.example', name: 'Seaside Høst' });
    await insert(ctx.db, 'product_reply_to_addresses', { organization_id: org.id, product_id: unit.product, reply_to_address_id: replyTo.id });
    await insert(ctx.db, 'email_templates', {
      organization_id: org.id,
      trigger: 'confirmed',
      subject: { default: 'Booking {{ booking.reference }} confirmed', nl: 'Boeking {{ booking.reference }} bevestigd, {{ guest.first_name }}' },
      body: {
        default: 'Dear {{ guest.first_name }}, see you on {{ stay.start }} at {{ product.name }}.',
        nl: 'Beste {{ guest.first_name }}, tot {{ stay.start }} in {{ product.name }}. Totaal {{ booking.total }}.',
      },
      include_booking_details: false,
      include_booking_link: true,
      include_ical_data: true,
    });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  /** A booking of two nights, each test on later dates; returns its id and reference. */
  const book = async (extra: Record<string, unknown> = {}) => {
    const day = (n: number) => `2027-06-${String(n).padStart(2, '0')}`;
    const interval = { start: day(start), end: day(start + 2) };
    start += 2;
    const response = await api.post('/v1/book', {
      product_id: unit.product, interval, occupancy: { [unit.adults]: 2 }, language: 'nl',
      contact: { first_name: 'Zoë', last_name: 'Ångström', email: 'zoe@example.com' }, ...extra,
    });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { booking_id: string; reference: string };
  };
  const message = async (bookingId: string) =>
    (await ctx.db.query<{ id: string; status: string; sent_at: Date | null; subject: string; to_address: string }>(
      'SELECT id, status, sent_at, subject, to_address FROM api.messages WHERE booking_id = $1', [bookingId])).rows;
  const events = async (messageId: string) =>
    (await ctx.db.query<{ type: string; payload: Record<string, unknown> }>(
      'SELECT type, payload FROM api.message_events WHERE message_id = $1 ORDER BY created_at, type DESC', [messageId])).rows;

  it('sends the confirmation at once, rendered in the guest\'s language, with the .ics attached', async () => {
    const booking = await book();
    const before = smtp.received.length;
    const reports = await runDue(ctx.db, schedulerOptions(smtp, time));
    assert.deepEqual(reports.map((r) => r.outcome), ['queued', 'sent']);
    assert.equal(smtp.received.length, before + 1);
    const mail = parseMime(smtp.received.at(-1)!);
    assert.equal(mail.headers.subject, `Boeking ${booking.reference} bevestigd, Zoë`);
    assert.equal(mail.headers.to, 'Zoë Ångström <zoe@example.com>');
    // Non-ASCII names travel as RFC 2047 encoded words; the header lines themselves are ASCII.
    const raw = smtp.received.at(-1)!;
    assert.match(raw, /^Subject: =\?UTF-8\?[QB]\?/m);
    assert.match(raw, /^To: =\?UTF-8\?[QB]\?.*\?= <zoe@example\.com>$/m);
    assert.ok(/^[\x00-\x7f]*$/.test(raw.slice(0, raw.indexOf('\r\n\r\n'))), 'headers are 7-bit');
    assert.equal(mail.headers.from, 'Seaside Rentals <bookings@staykit.test>');
    assert.equal(mail.headers['reply-to'], 'Seaside Høst <host@seaside.example>');
    const text = textOf(mail);
    assert.match(text, /^Beste Zoë, tot 2027-06-10 in Duinhuis\. Totaal €\s200,00\./);
    assert.match(text, /Je boeking: https:\/\/stay\.example\.com\/g\/\w+/);
    const ics = mail.parts.find((part) => (part.headers['content-type'] ?? '').startsWith('text/calendar'));
    assert.ok(ics, 'an .ics attachment');
    assert.match(ics.headers['content-disposition'] ?? '', new RegExp(`booking-${booking.reference}\\.ics`));
    assert.match(ics.body, /DTSTART;VALUE=DATE:20270610/);
    assert.match(ics.body, /DTEND;VALUE=DATE:20270612/);
    // The guest page's "add to calendar" is the same event: same UID (the guest does not get the stay twice), and
    // stamped now, not in 1970.
    const secret = /\/g\/(\w+)/.exec(text)![1]!;
    const fromPage = await app.inject({ method: 'GET', url: `/g/${secret}/calendar.ics` });
    assert.equal(fromPage.statusCode, 200);
    const uid = (body: string) => /^UID:(.+)$/m.exec(body.replace(/\r\n /g, ''))?.[1]?.trim();
    assert.equal(uid(fromPage.body), `${booking.booking_id}@staykit`);
    assert.equal(uid(fromPage.body), uid(ics.body));
    assert.match(fromPage.body, /^DTSTAMP:2\d{3}/m);
    assert.doesNotMatch(fromPage.body, /^DTSTAMP:1970/m);

    const [row] = await message(booking.booking_id);
    assert.equal(row!.status, 'sent');
    assert.ok(row!.sent_at);
    assert.equal(row!.subject, `Boeking ${booking.reference} bevestigd, Zoë`);
    assert.equal(row!.to_address, '"Zoë Ångström" <zoe@example.com>');
    assert.deepEqual((await events(row!.id)).map((e) => e.type), ['queued', 'sent']);
  });

  it('sends nothing for a silent booking', async () => {
    const booking = await book({ silent: true });
    const before = smtp.received.length;
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
    assert.equal(smtp.received.length, before);
    assert.deepEqual(await message(booking.booking_id), []);
  });

  it('retries after a 4xx answer, then sends', async () => {
    const booking = await book();
    smtp.answers.push({ code: 451, message: 'Greylisted, try again later' });
    const before = smtp.received.length;
    const first = await runDue(ctx.db, schedulerOptions(smtp, time));
    assert.deepEqual(first.map((r) => r.outcome), ['queued', 'retry']);
    const [queued] = await message(booking.booking_id);
    assert.equal(queued!.status, 'queued');
    const failed = (await events(queued!.id)).find((e) => e.type === 'failed')!;
    assert.equal(failed.payload.code, 451);
    assert.match(String(failed.payload.response), /Greylisted/);
    assert.equal(failed.payload.retry_at, '2027-03-01T10:01:00.000Z');

    // Not before its time; then sent.
    time.set('2027-03-01T10:00:59Z');
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
    time.set('2027-03-01T10:01:00Z');
    assert.deepEqual((await runDue(ctx.db, schedulerOptions(smtp, time))).map((r) => r.outcome), ['sent']);
    assert.equal(smtp.received.length, before + 1);
    assert.equal((await message(booking.booking_id))[0]!.status, 'sent');
    time.set('2027-03-01T10:00:00Z');
  });

  it('fails for good on a 5xx answer', async () => {
    const booking = await book();
    smtp.answers.push({ code: 550, message: 'No such user here' });
    const reports = await runDue(ctx.db, schedulerOptions(smtp, time));
    assert.deepEqual(reports.map((r) => r.outcome), ['queued', 'failed']);
    const [row] = await message(booking.booking_id);
    assert.equal(row!.status, 'failed');
    assert.equal(row!.sent_at, null);
    const failed = (await events(row!.id)).find((e) => e.type === 'failed')!;
    assert.equal(failed.payload.permanent, true);
    assert.match(String(failed.payload.response), /550 No such user here/);
  });

  it('times out on a server that does not answer, and retries', async () => {
    const booking = await book();
    smtp.answers.push('hang');
    const before = smtp.received.length;
    const reports = await runDue(ctx.db, schedulerOptions(smtp, time));
    assert.deepEqual(reports.map((r) => r.outcome), ['queued', 'retry']);
    const [row] = await message(booking.booking_id);
    assert.equal(row!.status, 'queued');
    time.set('2027-03-01T10:01:00Z');
    assert.deepEqual((await runDue(ctx.db, schedulerOptions(smtp, time))).map((r) => r.outcome), ['sent']);
    assert.equal(smtp.received.length, before + 1);
    time.set('2027-03-01T10:00:00Z');
  });

  it('sends a message POSTed to /v1/messages the same way', async () => {
    const response = await app.inject({
      method: 'POST', url: '/v1/messages', headers: { authorization: `Bearer ${org.key}`, prefer: 'return=representation' },
      payload: { to_address: 'guest@example.com', subject: 'Key box code', body: 'The code is 1234.' },
    });
    assert.equal(response.statusCode, 201, response.body);
    const id = (response.json() as { id: string }[])[0]!.id;
    const reports = await runDue(ctx.db, schedulerOptions(smtp, time));
    assert.deepEqual(reports.map((r) => r.outcome), ['sent']);
    const mail = parseMime(smtp.received.at(-1)!);
    assert.equal(mail.headers.subject, 'Key box code');
    assert.equal(mail.headers['message-id'], `<${id}@staykit.test>`);
    assert.equal(textOf(mail).trim(), 'The code is 1234.');
    const row = (await ctx.db.query<{ status: string }>('SELECT status FROM api.messages WHERE id = $1', [id])).rows[0];
    assert.equal(row!.status, 'sent');
  });

  it('fails an SMS at once, saying that no sender exists for it', async () => {
    const response = await app.inject({
      method: 'POST', url: '/v1/messages', headers: { authorization: `Bearer ${org.key}`, prefer: 'return=representation' },
      payload: { channel: 'sms', to_address: '+31 6 1234 5678', body: 'Hi' },
    });
    assert.equal(response.statusCode, 201, response.body);
    const id = (response.json() as { id: string }[])[0]!.id;
    const row = (await ctx.db.query<{ status: string }>('SELECT status FROM api.messages WHERE id = $1', [id])).rows[0];
    assert.equal(row!.status, 'failed');
    const failed = (await events(id)).find((e) => e.type === 'failed')!;
    assert.equal(failed.payload.response, 'no sender is configured for channel sms');
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
  });

  it('refuses a message whose to_address is not one e-mail address', async () => {
    const response = await app.inject({
      method: 'POST', url: '/v1/messages', headers: { authorization: `Bearer ${org.key}` },
      payload: { to_address: 'guest at example dot com', subject: 'Hi', body: 'Hi' },
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, 'SK682');
    assert.equal(response.json().message, 'to_address must be one e-mail address, optionally with a name: Name <address>');
  });

  it('emits messages.sent and messages.failed to subscribed webhooks', async () => {
    await insert(ctx.db, 'webhooks', { organization_id: org.id, endpoint: 'https://hooks.example.com/m', events: '{messages.sent,messages.failed}' });
    const post = async (to: string) => {
      const response = await app.inject({
        method: 'POST', url: '/v1/messages', headers: { authorization: `Bearer ${org.key}`, prefer: 'return=representation' },
        payload: { to_address: to, subject: 'Hello', body: 'Hi' },
      });
      assert.equal(response.statusCode, 201, response.body);
      return (response.json() as { id: string }[])[0]!.id;
    };
    const delivered = await post('one@example.com');
    await runDue(ctx.db, schedulerOptions(smtp, time));
    const refused = await post('two@example.com');
    smtp.answers.push({ code: 554, message: 'Rejected' });
    await runDue(ctx.db, schedulerOptions(smtp, time));
    const { rows } = await ctx.db.query<{ event_type: string; payload: { payload: { new: { id: string; status: string } } } }>(
      `SELECT event_type, payload FROM api.webhook_notifications WHERE organization_id = $1 AND event_type LIKE 'messages.%' ORDER BY created_at`, [org.id]);
    assert.deepEqual(rows.map((row) => [row.event_type, row.payload.payload.new.id, row.payload.payload.new.status]), [
      ['messages.sent', delivered, 'sent'],
      ['messages.failed', refused, 'failed'],
    ]);
  });

  it('fails a message once its retries are used up', async () => {
    const booking = await book();
    smtp.answers.push(...[1, 2, 3].map(() => ({ code: 452, message: 'Mailbox full' })));
    const options = () => schedulerOptions(smtp, time); // retries after 60 s, then 300 s
    assert.deepEqual((await runDue(ctx.db, options())).map((r) => r.outcome), ['queued', 'retry']);
    time.set('2027-03-01T10:01:00Z');
    assert.deepEqual((await runDue(ctx.db, options())).map((r) => r.outcome), ['retry']);
    time.set('2027-03-01T10:06:00Z');
    assert.deepEqual((await runDue(ctx.db, options())).map((r) => r.outcome), ['failed']);
    const [row] = await message(booking.booking_id);
    assert.equal(row!.status, 'failed');
    const failures = (await events(row!.id)).filter((e) => e.type === 'failed');
    assert.deepEqual(failures.map((e) => [e.payload.attempt, e.payload.permanent]), [[1, false], [2, false], [3, false]]);
    time.set('2027-03-01T10:00:00Z');
  });

  it('sends a message with scheduled_at at that time', async () => {
    const response = await app.inject({
      method: 'POST', url: '/v1/messages', headers: { authorization: `Bearer ${org.key}` },
      payload: { to_address: 'later@example.com', subject: 'Tomorrow', body: 'Later.', scheduled_at: '2027-03-02T09:00:00Z' },
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
    time.set('2027-03-02T09:00:00Z');
    assert.deepEqual((await runDue(ctx.db, schedulerOptions(smtp, time))).map((r) => r.outcome), ['sent']);
    assert.equal(parseMime(smtp.received.at(-1)!).headers.subject, 'Tomorrow');
    time.set('2027-03-01T10:00:00Z');
  });

  it('follows a request through confirmation and cancellation, each template for its status', async () => {
    await insert(ctx.db, 'email_templates', {
      organization_id: org.id, trigger: 'created', status: 'TENTATIVE',
      subject: { default: 'Request {{ booking.reference }} received' }, body: { default: 'We will get back to you.' },
    });
    await insert(ctx.db, 'email_templates', {
      organization_id: org.id, trigger: 'cancelled', status: 'CANCELLED',
      subject: { default: 'Booking {{ booking.reference }} cancelled' }, body: { default: 'Sorry to see you go.' },
    });
    const requested = await bookableUnit(ctx.db, org.id, { interaction: 'request' });
    const response = await api.post('/v1/book', {
      product_id: requested.product, interval: { start: '2027-06-20', end: '2027-06-22' }, occupancy: { [requested.adults]: 1 },
      contact: { first_name: 'Ida', email: 'ida@example.com' },
    });
    assert.equal(response.statusCode, 201, response.body);
    const { booking_id: bookingId, reference } = response.json() as { booking_id: string; reference: string };
    const event = (await ctx.db.query<{ id: string }>('SELECT id FROM api.calendar_events WHERE booking_id = $1', [bookingId])).rows[0]!.id;
    const subjects = async () => {
      await runDue(ctx.db, schedulerOptions(smtp, time));
      return smtp.received.map(parseMime).filter((mail) => (mail.headers.to ?? '').endsWith('<ida@example.com>')).map((mail) => mail.headers.subject);
    };
    assert.deepEqual(await subjects(), [`Request ${reference} received`]);
    for (const status of ['CONFIRMED', 'CANCELLED']) {
      const changed = await app.inject({ method: 'PATCH', url: `/v1/calendar_events?id=eq.${event}`, headers: { authorization: `Bearer ${org.key}` }, payload: { status } });
      assert.equal(changed.statusCode, 204, changed.body);
    }
    assert.deepEqual(await subjects(), [`Request ${reference} received`, `Booking ${reference} confirmed`, `Booking ${reference} cancelled`]);
  });
});
