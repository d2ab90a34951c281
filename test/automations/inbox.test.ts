/**
 * One inbox (docs/automations.md#inbox), end to end with real parts: a booking's confirmation goes out through a real
 * SMTP server with its Message-ID and the booking's reply address; the guest answers it with nodemailer to the
 * inbound SMTP listener, and the reply is stored under the booking with the guest as its contact, unread, with a
 * `messages.received` webhook notification; made-up addresses are refused at RCPT TO (550), an oversized mail at
 * 552, the same mail twice is stored once; staff answer it with POST /v1/messages and the answer reaches the guest's
 * mailbox in the same thread (In-Reply-To); a provider's inbound webhook stores a reply the same way and refuses a
 * wrong secret. The files of a guest's mail are kept in the media store (a real folder) and downloaded with
 * GET /v1/message-attachments/{id}, byte for byte; an HTML file is not kept.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import { loadConfig } from '../../src/config.js';
import { replyAddressesFor } from '../../src/inbox/reply-address.js';
import { startInboundSmtp, type InboundSmtpListener } from '../../src/inbox/smtp-listener.js';
import { silentLogger } from '../../src/observability/worker-logger.js';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization } from '../support/app.js';
import { FolderStore } from '../../src/media/folder-store.js';
import { client, startBookingApp } from '../booking/support.js';
import { insert } from '../support/fixtures.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, textOf, type TestSmtpServer } from './support.js';

const DOMAIN = 'inbox.seaside.test';
const WEBHOOK_SECRET = 'postmark-hook-secret';
const MAX_BYTES = 20_000;
const config = loadConfig({
  STAYKIT_SECRET_KEY: 'a long random server secret for the tests',
  STAYKIT_INBOUND_DOMAIN: DOMAIN,
  STAYKIT_INBOUND_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STAYKIT_INBOUND_MAX_BYTES: String(MAX_BYTES),
  STAYKIT_EMAIL_FROM: 'bookings@seaside.test',
});
const addresses = replyAddressesFor(config)!;

forEachBackend('the inbox', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let listener: InboundSmtpListener;
  let api: ReturnType<typeof client>;
  let org: { id: string; key: string };
  let unit: { product: string; adults: string };
  const time = clock('2027-03-01T10:00:00Z');
  const options = () => schedulerOptions(smtp, time, { replyAddresses: addresses, emailFrom: config.emailFrom });
  let start = 10;
  let folder: string;

  before(async () => {
    smtp = await startSmtpServer();
    folder = await mkdtemp(join(tmpdir(), 'staykit-inbox-files-'));
    const store = new FolderStore(folder);
    app = await startBookingApp(ctx.db, undefined, { config, mediaStore: store });
    listener = await startInboundSmtp({ db: ctx.db, addresses, store, port: 0, host: '127.0.0.1', maxBytes: MAX_BYTES, logger: silentLogger });
    org = await createOrganization(ctx.db, 'Seaside Rentals');
    api = client(app, org.key);
    unit = await bookableUnit(ctx.db, org.id);
    const replyTo = await insert<{ id: string }>(ctx.db, 'reply_to_addresses', { organization_id: org.id, email: 'host@seaside.example', name: 'Seaside Host' });
    await insert(ctx.db, 'product_reply_to_addresses', { organization_id: org.id, product_id: unit.product, reply_to_address_id: replyTo.id });
    await insert(ctx.db, 'email_templates', {
      organization_id: org.id, trigger: 'confirmed', include_booking_details: false, include_booking_link: false,
      subject: { default: 'Booking {{ booking.reference }} confirmed' }, body: { default: 'Dear {{ guest.first_name }}, see you soon.' },
    });
    await insert(ctx.db, 'webhooks', { organization_id: org.id, endpoint: 'https://hooks.seaside.example/staykit', events: ['messages.received'] });
  });
  after(async () => {
    await listener.close();
    await app.close();
    await smtp.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** A booking, confirmed at once; its confirmation sent; the e-mail the guest received. */
  const bookAndConfirm = async () => {
    const day = (n: number) => `2027-06-${String(n).padStart(2, '0')}`;
    const interval = { start: day(start), end: day(start + 2) };
    start += 2;
    const response = await api.post('/v1/book', {
      product_id: unit.product, interval, occupancy: { [unit.adults]: 2 },
      contact: { first_name: 'Zoë', last_name: 'Ångström', email: 'zoe@example.com' },
    });
    assert.equal(response.statusCode, 201, response.body);
    const booking = response.json() as { booking_id: string; reference: string };
    assert.deepEqual((await runDue(ctx.db, options())).map((r) => r.outcome), ['queued', 'sent']);
    return { booking, mail: parseMime(smtp.received.at(-1)!) };
  };

  const guestMailer = () => nodemailer.createTransport({ url: listener.url, ignoreTLS: true });
  const inbound = async (bookingId: string) => (await ctx.db.query<{
    id: string; contact_id: string | null; status: string; read_at: Date | null; from_address: string; subject: string; body: string;
    in_reply_to_id: string | null; rfc_message_id: string;
  }>(`SELECT id, contact_id, status, read_at, from_address, subject, body, in_reply_to_id, rfc_message_id FROM api.messages
      WHERE booking_id = $1 AND direction = 'inbound' ORDER BY created_at`, [bookingId])).rows;
  const received = async (messageId: string) => (await ctx.db.query<{ payload: { from_guest: boolean; transport: string; attachments: Record<string, unknown>[] } }>(
    `SELECT payload FROM api.message_events WHERE message_id = $1 AND type = 'received'`, [messageId])).rows;
  const guestOf = async (bookingId: string) => (await ctx.db.query<{ contact_id: string }>(
    'SELECT contact_id FROM api.contact_bookings WHERE booking_id = $1', [bookingId])).rows[0]!.contact_id;
  const outbound = async (bookingId: string) => (await ctx.db.query<{ id: string; rfc_message_id: string | null }>(
    `SELECT id, rfc_message_id FROM api.messages WHERE booking_id = $1 AND direction = 'outbound' ORDER BY created_at`, [bookingId])).rows;

  it('sends e-mail about a booking with its Message-ID and the booking\'s reply address before the unit\'s', async () => {
    const { booking, mail } = await bookAndConfirm();
    const [sent] = await outbound(booking.booking_id);
    assert.equal(mail.headers['message-id'], `<${sent!.id}@seaside.test>`);
    assert.equal(sent!.rfc_message_id, mail.headers['message-id']);
    const replyTo = (mail.headers['reply-to'] ?? '').split(/,\s*/);
    assert.equal(replyTo.length, 2);
    assert.match(replyTo[0]!, new RegExp(`^reply\\+[a-z2-7]{42}@${DOMAIN.replace(/\./g, '\\.')}$`));
    assert.equal(addresses.bookingOf(replyTo[0]!), booking.booking_id);
    assert.equal(replyTo[1], 'Seaside Host <host@seaside.example>');
  });

  it('stores the guest\'s reply under the booking, from the guest, unread, and fires messages.received; the same mail twice once', async () => {
    const { booking, mail } = await bookAndConfirm();
    const replyAddress = mail.headers['reply-to']!.split(/,\s*/)[0]!;
    const reply = {
      from: 'Zoë Ångström <ZOE@example.com>', to: replyAddress, subject: `Re: ${mail.headers.subject}`,
      text: 'Can we arrive at 18:00?\n\nZoë', messageId: '<reply-1@mail.example.com>',
      inReplyTo: mail.headers['message-id'], references: [mail.headers['message-id']!],
    };
    const transport = guestMailer();
    const info = await transport.sendMail(reply);
    assert.match(info.response, /^250/);
    const [stored] = await inbound(booking.booking_id);
    assert.ok(stored, 'the reply is stored on the booking');
    assert.equal(stored.contact_id, await guestOf(booking.booking_id));
    assert.equal(stored.status, 'received');
    assert.equal(stored.read_at, null);
    assert.equal(stored.from_address, 'Zoë Ångström <ZOE@example.com>');
    assert.equal(stored.subject, `Re: Booking ${booking.reference} confirmed`);
    assert.equal(stored.body.trim(), 'Can we arrive at 18:00?\n\nZoë');
    assert.equal(stored.rfc_message_id, '<reply-1@mail.example.com>');
    assert.equal(stored.in_reply_to_id, (await outbound(booking.booking_id))[0]!.id);
    assert.deepEqual((await received(stored.id)).map((e) => [e.payload.from_guest, e.payload.transport]), [[true, 'smtp']]);
    const notifications = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM api.webhook_notifications WHERE event_type = 'messages.received' AND payload -> 'payload' -> 'new' ->> 'id' = $1`, [stored.id]);
    assert.equal(notifications.rows[0]!.n, 1);

    // Delivered again (a sender's retry): answered as received, stored once, notified once.
    assert.match((await transport.sendMail(reply)).response, /^250/);
    transport.close();
    assert.equal((await inbound(booking.booking_id)).length, 1);
    const again = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM api.webhook_notifications WHERE event_type = 'messages.received' AND payload -> 'payload' -> 'new' ->> 'id' = $1`, [stored.id]);
    assert.equal(again.rows[0]!.n, 1);

    // Staff read it: read_at set through the API, and a 'read' event.
    const read = await app.inject({
      method: 'PATCH', url: `/v1/messages?id=eq.${stored.id}`, headers: { authorization: `Bearer ${org.key}` },
      payload: { read_at: '2027-03-01T10:05:00Z' },
    });
    assert.equal(read.statusCode, 204, read.body);
    const events = await ctx.db.query<{ type: string }>(`SELECT type FROM api.message_events WHERE message_id = $1 ORDER BY created_at, type`, [stored.id]);
    assert.deepEqual(events.rows.map((e) => e.type).sort(), ['read', 'received']);
  });

  it('refuses mail to an address that is no reply address at RCPT TO (550), a made-up token included, and stores nothing', async () => {
    const transport = guestMailer();
    const made = `reply+${'a'.repeat(42)}@${DOMAIN}`;
    for (const to of [`info@${DOMAIN}`, made, 'someone@elsewhere.example']) {
      await assert.rejects(transport.sendMail({ from: 'spam@bulk.example', to, subject: 'Offer', text: 'Buy now' }),
        (error: { responseCode?: number }) => error.responseCode === 550, to);
    }
    transport.close();
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api.messages WHERE from_address LIKE '%bulk.example%'`);
    assert.equal(rows[0]!.n, 0);
  });

  it('refuses a mail larger than STAYKIT_INBOUND_MAX_BYTES with 552, and stores nothing', async () => {
    const { booking, mail } = await bookAndConfirm();
    const transport = guestMailer();
    await assert.rejects(transport.sendMail({
      from: 'zoe@example.com', to: mail.headers['reply-to']!.split(/,\s*/)[0]!, subject: 'Photos', text: 'x'.repeat(MAX_BYTES + 1000),
    }), (error: { responseCode?: number }) => error.responseCode === 552);
    transport.close();
    assert.deepEqual(await inbound(booking.booking_id), []);
  });

  it('sends a staff answer to the guest in the same thread: In-Reply-To the guest\'s Message-ID, Re: subject', async () => {
    const { booking, mail } = await bookAndConfirm();
    const transport = guestMailer();
    await transport.sendMail({
      from: 'zoe@example.com', to: mail.headers['reply-to']!.split(/,\s*/)[0]!, subject: 'Late arrival',
      text: 'We arrive at midnight.', messageId: '<late-1@mail.example.com>', inReplyTo: mail.headers['message-id'],
    });
    transport.close();
    const [question] = await inbound(booking.booking_id);
    assert.ok(question);
    const answer = await app.inject({
      method: 'POST', url: '/v1/messages', headers: { authorization: `Bearer ${org.key}`, prefer: 'return=representation' },
      payload: { in_reply_to_id: question.id, body: 'No problem: the key is in the box by the door.' },
    });
    assert.equal(answer.statusCode, 201, answer.body);
    const [row] = answer.json() as { id: string; booking_id: string; contact_id: string; to_address: string; subject: string }[];
    assert.deepEqual([row!.booking_id, row!.contact_id, row!.to_address, row!.subject],
      [booking.booking_id, question.contact_id, 'zoe@example.com', 'Re: Late arrival']);
    assert.deepEqual((await runDue(ctx.db, options())).map((r) => r.outcome), ['sent']);
    const sent = parseMime(smtp.received.at(-1)!);
    assert.equal(sent.headers.to, 'zoe@example.com');
    assert.equal(sent.headers['in-reply-to'], '<late-1@mail.example.com>');
    assert.match(sent.headers.references ?? '', /<late-1@mail\.example\.com>$/);
    assert.equal(sent.headers.subject, 'Re: Late arrival');
    assert.equal(textOf(sent).trim(), 'No problem: the key is in the box by the door.');

    // A reply names its own booking's message only.
    const other = await bookAndConfirm();
    const wrong = await app.inject({
      method: 'POST', url: '/v1/messages', headers: { authorization: `Bearer ${org.key}` },
      payload: { in_reply_to_id: question.id, booking_id: other.booking.booking_id, body: 'Hi' },
    });
    assert.equal(wrong.statusCode, 400, wrong.body);
    assert.match(wrong.body, /messages_reply_same_booking/);
  });

  it('stores a reply posted by a mail provider\'s inbound webhook (Postmark), and refuses a wrong secret', async () => {
    const { booking, mail } = await bookAndConfirm();
    const replyAddress = mail.headers['reply-to']!.split(/,\s*/)[0]!;
    const payload = {
      FromFull: { Email: 'partner@other.example', Name: 'Alex' }, ToFull: [{ Email: replyAddress, Name: '' }],
      OriginalRecipient: replyAddress, Subject: 'Parking?', TextBody: '', HtmlBody: '<p>Is there <b>parking</b>?</p>',
      Headers: [{ Name: 'Message-ID', Value: '<pm-1@other.example>' }, { Name: 'In-Reply-To', Value: mail.headers['message-id']! }],
      Attachments: [{ Name: 'car.txt', ContentType: 'text/plain', Content: Buffer.from('AB-123').toString('base64'), ContentLength: 6 },
        // Larger than STAYKIT_INBOUND_MAX_BYTES once decoded: listed, not kept.
        { Name: 'scan.tiff', ContentType: 'image/tiff', Content: Buffer.alloc(MAX_BYTES + 1, 1).toString('base64') }],
      MessageStream: 'inbound',
    };
    const post = (password: string | undefined, body: unknown = payload) => app.inject({
      method: 'POST', url: '/v1/inbound-email', payload: body as object,
      headers: password === undefined ? {} : { authorization: `Basic ${Buffer.from(`postmark:${password}`).toString('base64')}` },
    });
    for (const password of [undefined, 'wrong']) {
      const refused = await post(password);
      assert.equal(refused.statusCode, 401, refused.body);
      assert.equal((refused.json() as { code: string }).code, 'SK691');
    }
    assert.deepEqual(await inbound(booking.booking_id), []);

    const accepted = await post(WEBHOOK_SECRET);
    assert.equal(accepted.statusCode, 200, accepted.body);
    const receipt = accepted.json() as { outcome: string; message_id: string };
    assert.equal(receipt.outcome, 'stored');
    const [stored] = await inbound(booking.booking_id);
    assert.equal(stored!.id, receipt.message_id);
    assert.equal(stored!.body.trim(), 'Is there parking?');
    assert.equal(stored!.from_address, 'Alex <partner@other.example>');
    assert.equal(stored!.contact_id, await guestOf(booking.booking_id));
    // Not the guest's address: stored on the booking all the same, and said so.
    const [event] = await received(stored!.id);
    assert.equal(event!.payload.from_guest, false);
    assert.equal(event!.payload.transport, 'webhook');
    const [car, scan] = event!.payload.attachments;
    assert.deepEqual([scan!.filename, scan!.stored, scan!.reason], ['scan.tiff', false, 'too_large']);
    assert.deepEqual({ ...car, attachment_id: undefined },
      { filename: 'car.txt', content_type: 'text/plain', size: 6, inline: false, stored: true, attachment_id: undefined });
    const download = await api.get(`/v1/message-attachments/${String(car!.attachment_id)}`);
    assert.equal(download.statusCode, 200, download.body);
    assert.equal(download.headers['content-type'], 'text/plain');
    assert.equal(download.body, 'AB-123');
    const kept = await ctx.db.query<{ filename: string }>('SELECT filename FROM api.message_attachments WHERE message_id = $1', [stored!.id]);
    assert.deepEqual(kept.rows.map((row) => row.filename), ['car.txt']);

    assert.equal((await post(WEBHOOK_SECRET)).json<{ outcome: string }>().outcome, 'duplicate');
    const stranger = await post(WEBHOOK_SECRET, { ...payload, ToFull: [{ Email: `sales@${DOMAIN}` }], OriginalRecipient: `sales@${DOMAIN}`, Headers: [] });
    assert.equal(stranger.statusCode, 403, stranger.body);
    assert.equal((stranger.json() as { code: string }).code, 'SK692');
  });
  it('keeps a guest\'s PDF and picture, downloadable byte for byte with messages:read; an HTML file is listed, not kept', async () => {
    const { booking, mail } = await bookAndConfirm();
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256))]);
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(Array.from({ length: 1500 }, (_, i) => (i * 13) % 256))]);
    const transport = guestMailer();
    await transport.sendMail({
      from: 'zoe@example.com', to: mail.headers['reply-to']!.split(/,\s*/)[0]!, subject: 'Our documents', text: 'Passport scan and car photo attached.',
      attachments: [
        { filename: 'Reisepass Zoë.pdf', content: pdf, contentType: 'application/pdf' },
        { filename: 'car.png', content: png, contentType: 'image/png' },
        { filename: 'page.html', content: '<script>alert(1)</script>', contentType: 'text/html' },
      ],
    });
    transport.close();
    const [message] = await inbound(booking.booking_id);
    assert.ok(message);
    const rows = (await ctx.db.query<{ id: string; filename: string; content_type: string; bytes: number; sha256: string }>(
      'SELECT id, filename, content_type, bytes, sha256 FROM api.message_attachments WHERE message_id = $1 ORDER BY filename', [message.id])).rows;
    const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    assert.deepEqual(rows.map((row) => [row.filename, row.content_type, row.bytes, row.sha256]), [
      ['Reisepass Zoë.pdf', 'application/pdf', pdf.length, sha(pdf)],
      ['car.png', 'image/png', png.length, sha(png)],
    ]);
    const [event] = await received(message.id);
    assert.deepEqual(event!.payload.attachments.map((file) => [file.filename, file.stored, file.reason ?? file.attachment_id]), [
      ['Reisepass Zoë.pdf', true, rows[0]!.id],
      ['car.png', true, rows[1]!.id],
      ['page.html', false, 'type_not_served'],
    ]);

    const download = (id: string, key: string) => app.inject({ method: 'GET', url: `/v1/message-attachments/${id}`, headers: { authorization: `Bearer ${key}` } });
    const messagesOnly = await createKey(ctx.db, org.id, ['messages:read']);
    for (const [row, bytes, type] of [[rows[0]!, pdf, 'application/pdf'], [rows[1]!, png, 'image/png']] as const) {
      const answer = await download(row.id, messagesOnly);
      assert.equal(answer.statusCode, 200, answer.body);
      assert.equal(sha(answer.rawPayload), sha(bytes));
      assert.equal(answer.headers['content-type'], type);
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
      assert.match(String(answer.headers['content-security-policy']), /^sandbox/);
    }
    assert.equal((await download(rows[0]!.id, org.key)).headers['content-disposition'],
      'attachment; filename="Reisepass Zo_.pdf"; filename*=UTF-8\'\'Reisepass%20Zo%C3%AB.pdf');

    const bookingsOnly = await download(rows[0]!.id, await createKey(ctx.db, org.id, ['bookings:read']));
    assert.equal(bookingsOnly.statusCode, 403, bookingsOnly.body);
    const stranger = await createOrganization(ctx.db, 'Other Rentals');
    const elsewhere = await download(rows[0]!.id, stranger.key);
    assert.equal(elsewhere.statusCode, 404, elsewhere.body);
    // The rows are listed as a read-only resource (what the dashboard shows as download links).
    const listed = await api.get(`/v1/message_attachments?message_id=eq.${message.id}&select=id,filename,bytes&order=filename`);
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(listed.json(), rows.map((row) => ({ id: row.id, filename: row.filename, bytes: row.bytes })));
    // Read-only through the API: the rows are the inbound path's.
    const write = await app.inject({
      method: 'POST', url: '/v1/message_attachments', headers: { authorization: `Bearer ${org.key}` },
      payload: { message_id: message.id, filename: 'x.pdf', content_type: 'application/pdf', bytes: 1, sha256: sha(pdf), storage_key: `attachments/${org.id}/${sha(pdf)}` },
    });
    assert.equal(write.statusCode, 405, write.body);
    assert.equal(write.headers.allow, 'OPTIONS,GET,HEAD');
    // A row whose file the store no longer has (restored without its media): told so, not a server error.
    await rm(join(folder, 'attachments', org.id, sha(png)));
    const gone = await download(rows[1]!.id, org.key);
    assert.equal(gone.statusCode, 404, gone.body);
    assert.match(gone.json<{ message: string }>().message, /no longer in the media store/);
  });

  // Last: from here on the organization has a member, whose notifications the other tests would count.
  it('tells the members who get messages.received by e-mail, with the guest\'s message', async () => {
    const { booking, mail } = await bookAndConfirm();
    await insert(ctx.db, 'members', { organization_id: org.id, name: 'Olivia Owner', email: 'olivia@seaside.example', role: 'owner' });
    const transport = guestMailer();
    await transport.sendMail({ from: 'zoe@example.com', to: mail.headers['reply-to']!.split(/,\s*/)[0]!, subject: 'Towels', text: 'Are towels provided?' });
    transport.close();
    const before = smtp.received.length;
    assert.deepEqual((await runDue(ctx.db, options())).map((r) => r.outcome), ['queued', 'sent']);
    const notice = parseMime(smtp.received.at(-1)!);
    assert.equal(smtp.received.length, before + 1);
    assert.equal(notice.headers.to, 'olivia@seaside.example');
    assert.match(notice.headers.subject ?? '', new RegExp(`^New message about booking ${booking.reference}: Dune House`));
    assert.match(textOf(notice), /Zoë Ångström wrote about their stay at Dune House\. Answer in the inbox\./);
    assert.match(textOf(notice), /Are towels provided\?/);
    // A members' notification is no e-mail to the guest: no reply address of the booking on it.
    assert.doesNotMatch(notice.headers['reply-to'] ?? '', /reply\+/);
  });
});
