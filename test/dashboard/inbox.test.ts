/**
 * The inbox in a real browser (Debian's chromium through playwright-core), on both backends, on the demo
 * organization: guests wrote about two bookings, one message already read and one not. The unread conversation is
 * listed first with its count, and the navigation counts it too; opening it shows what the guest wrote beside their
 * stay and marks it read (in the database); a reply typed there is queued in the same thread (`in_reply_to_id`) and
 * reaches the guest's mailbox — a real SMTP server — with `In-Reply-To` naming the guest's mail and the booking's
 * reply address; the guest's answer, sent to the inbound SMTP listener, comes back into the same conversation, its
 * PDF a download link (name and size) whose download is the file the guest sent.
 * "Mark unread" makes the conversation unread again; the booking page's Reply opens it; mail that matched no booking
 * is its sender's conversation. A member who may read messages but not guests, nor write, sees no names and no reply
 * box. Screenshots of the list, a conversation and a conversation at a phone's width go to a temporary folder
 * (STAYKIT_UPDATE_SCREENSHOTS=1: the list and the conversation to docs/dashboard/inbox-list.png and inbox.png).
 */
import { insert } from '../support/fixtures.js';
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Page } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { forEachBackend } from '../support/databases.js';
import { clock, parseMime, runDue, schedulerOptions, startSmtpServer, textOf, type TestSmtpServer } from '../automations/support.js';
import { replyAddresses } from '../../src/inbox/reply-address.js';
import { startInboundSmtp, type InboundSmtpListener } from '../../src/inbox/smtp-listener.js';
import { silentLogger } from '../../src/observability/worker-logger.js';
import { FolderStore } from '../../src/media/folder-store.js';
import { createUser } from '../users/support.js';
import { browserMissing, fileBrowser } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const skip = browserMissing && 'chromium not found';
const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'dashboard');
const TEMPORARY = mkdtempSync(join(tmpdir(), 'staykit-dashboard-inbox-shots-'));
const SCREENSHOTS = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1' ? DOCS : TEMPORARY;
console.log(`# screenshots: ${TEMPORARY}`);

const browser = fileBrowser();
/** The media store the app and the inbound listener share: the guests' files are kept there. */
const store = new FolderStore(join(TEMPORARY, 'media'));
/** The bookings' reply addresses, as a server with STAYKIT_INBOUND_DOMAIN makes them. */
const addresses = replyAddresses('inbox-test-secret-key-of-at-least-32-chars', 'reply.stays.example.com');

interface Guest { booking_id: string; reference: string; contact_id: string; first_name: string; last_name: string; email: string; unit: string }

forEachBackend('the inbox in the dashboard', (ctx) => {
  let smtp: TestSmtpServer;
  before(async () => {
    if (!browserMissing) smtp = await startSmtpServer();
  });
  const session = dashboardSession(ctx, browser, {
    app: () => ({ config: loadConfig({ SMTP_URL: smtp.url, STAYKIT_EMAIL_FROM: 'team@stays.example.com' }), mediaStore: store }),
  });
  after(() => smtp?.close());
  /** The inbound SMTP listener guests' replies reach (STAYKIT_INBOUND_SMTP_PORT). */
  let inboundSmtp: InboundSmtpListener;
  after(() => inboundSmtp?.close());
  /** The reply as the guest's mailbox got it. */
  let delivered: { messageId: string; replyTo: string; subject: string };
  let organizationId: string;
  let page: Page;
  /** The guest whose message was read already, and the one whose message is not. */
  let read: Guest;
  let unread: Guest;
  let unreadMessageId: string;

  /** Two bookings of the demo with a guest, confirmed, in the organization's future. */
  async function twoGuests(): Promise<[Guest, Guest]> {
    const { rows } = await ctx.db.query<Guest & { name: Record<string, string> }>(
      `SELECT b.id AS booking_id, b.reference, c.id AS contact_id, c.first_name, c.last_name, c.email, p.name
       FROM api.bookings AS b JOIN api.contact_bookings AS cb ON cb.booking_id = b.id JOIN api.contacts AS c ON c.id = cb.contact_id
       JOIN api.calendar_events AS e ON e.booking_id = b.id AND e.type = 'booking' JOIN api.products AS p ON p.id = e.product_id
       WHERE b.organization_id = $1 AND e.status = 'CONFIRMED' AND c.email IS NOT NULL
       ORDER BY e.start_date DESC, b.id LIMIT 2`, [organizationId]);
    assert.equal(rows.length, 2, 'the demo has two bookings with a guest');
    const [first, second] = rows.map((row): Guest => ({ ...row, unit: row.name.en ?? row.name.default ?? '' }));
    return [first!, second!];
  }

  /** A guest's e-mail as the inbound mail path stores it. */
  async function inbound(guest: Guest, body: string, receivedAt: string, readAt: string | null): Promise<string> {
    const message = await insert<{ id: string }>(ctx.db, 'messages', {
      organization_id: organizationId, booking_id: guest.booking_id, contact_id: guest.contact_id, channel: 'email', direction: 'inbound',
      status: 'received', from_address: guest.email, to_address: 'team@stays.example.com', subject: `Question about ${guest.reference}`, body,
      created_at: receivedAt, read_at: readAt, rfc_message_id: `<guest-${guest.reference}@mail.example.net>`,
    });
    return message.id;
  }

  /** Whether each of the guest's messages about their booking is read, oldest first. */
  const readStates = async (guest: Guest) => (await ctx.db.query<{ read: boolean }>(
    `SELECT read_at IS NOT NULL AS read FROM api.messages WHERE booking_id = $1 AND direction = 'inbound' ORDER BY created_at`,
    [guest.booking_id])).rows.map((row) => row.read);

  const unreadInDatabase = async () => Number((await ctx.db.query<{ count: string }>(
    `SELECT count(*) AS count FROM api.messages WHERE organization_id = $1 AND direction = 'inbound' AND read_at IS NULL`, [organizationId])).rows[0]!.count);

  before(async () => {
    if (browserMissing) return;
    page = session.page;
    organizationId = session.seeded.organization_id;
    [read, unread] = await twoGuests();
    const now = Date.now();
    // The unread message is the older one: it is listed first because it is unread, not because it is newer.
    unreadMessageId = await inbound(unread, 'Hello! Can we bring our dog?\nHe is small and quiet.', new Date(now - 3 * 3600_000).toISOString(), null);
    await inbound(read, 'Thanks, the keys worked fine.', new Date(now - 3600_000).toISOString(), new Date(now - 1800_000).toISOString());
  });

  it('lists the unread conversation first, with its count in the list and the navigation', { skip }, async () => {
    await session.logIn(session.owner);
    const link = page.getByRole('navigation').getByRole('link', { name: /^Inbox/ });
    await link.getByTestId('inbox-unread').filter({ hasText: String(await unreadInDatabase()) }).waitFor();
    await link.click();
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    const entries = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    await entries.first().waitFor();
    const first = entries.first();
    assert.match(await first.textContent() ?? '', new RegExp(`${unread.first_name} ${unread.last_name}`));
    assert.match(await first.textContent() ?? '', /Can we bring our dog\?/);
    assert.match(await first.textContent() ?? '', new RegExp(unread.unit));
    assert.equal(await first.getByLabel('1 unread').count(), 1, 'the unread count badge');
    const readEntry = entries.filter({ hasText: 'the keys worked fine' });
    assert.equal(await readEntry.count(), 1);
    assert.equal(await readEntry.getByLabel(/unread/).count(), 0, 'a read conversation has no badge');
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-list.png'), fullPage: true });
  });

  it('opens the conversation beside the stay and marks the guest\'s message read', { skip }, async () => {
    await page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first().getByRole('link').click();
    await page.getByRole('heading', { name: `${unread.first_name} ${unread.last_name}`, level: 2 }).waitFor();
    const messages = page.getByRole('list', { name: 'Messages' });
    await messages.getByText('He is small and quiet.', { exact: false }).waitFor();
    const stay = page.getByRole('region', { name: 'Stay' });
    await stay.getByText(unread.unit).waitFor();
    await stay.getByRole('link', { name: `Booking ${unread.reference}` }).waitFor();
    await until(async () => (await ctx.db.query<{ read_at: Date | null }>(
      'SELECT read_at FROM api.messages WHERE id = $1', [unreadMessageId])).rows[0]!.read_at !== null, 'the message is read in the database');
    await until(async () => await page.getByRole('navigation').getByTestId('inbox-unread').count() === (await unreadInDatabase() > 0 ? 1 : 0),
      'the navigation counts again');
  });

  it('sends a reply that reaches the guest in the same thread', { skip }, async () => {
    await page.getByLabel(`Reply to ${unread.email}`).fill('Of course, dogs are welcome!');
    await page.getByRole('button', { name: 'Send reply' }).click();
    const sent = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Of course, dogs are welcome!' });
    await sent.waitFor();
    assert.equal(await sent.getAttribute('data-direction'), 'outbound');
    const { rows } = await ctx.db.query<{ id: string; status: string; to_address: string; in_reply_to_id: string | null; subject: string; booking_id: string }>(
      `SELECT id, status, to_address, in_reply_to_id, subject, booking_id FROM api.messages
       WHERE organization_id = $1 AND direction = 'outbound' AND body = 'Of course, dogs are welcome!'`, [organizationId]);
    assert.equal(rows.length, 1, 'one reply queued');
    assert.equal(rows[0]!.in_reply_to_id, unreadMessageId);
    assert.equal(rows[0]!.to_address, unread.email);
    assert.equal(rows[0]!.booking_id, unread.booking_id);

    // The scheduler sends it (its clock a minute ahead: the message is due).
    const before = smtp.received.length;
    await runDue(ctx.db, schedulerOptions(smtp, clock(new Date(Date.now() + 60_000).toISOString()), { replyAddresses: addresses }));
    const mails = smtp.received.slice(before).map(parseMime).filter((mail) => mail.headers.to?.includes(unread.email));
    assert.equal(mails.length, 1, 'the guest receives the reply');
    assert.match(textOf(mails[0]!), /Of course, dogs are welcome!/);
    assert.equal(mails[0]!.headers['in-reply-to'], `<guest-${unread.reference}@mail.example.net>`);
    assert.match(mails[0]!.headers.subject ?? '', new RegExp(`^Re: Question about ${unread.reference}`));
    assert.equal(mails[0]!.headers['reply-to'], addresses.forBooking(unread.booking_id), 'a reply comes back to the booking');
    delivered = { messageId: mails[0]!.headers['message-id']!, replyTo: addresses.forBooking(unread.booking_id), subject: mails[0]!.headers.subject! };

    await page.reload();
    await page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Of course, dogs are welcome!' })
      .locator('[data-status="sent"]').waitFor();
    await page.getByRole('region', { name: 'Stay' }).getByText(unread.unit).waitFor();
    await page.getByRole('heading', { name: `${unread.first_name} ${unread.last_name}`, level: 2 }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox.png'), fullPage: true });
  });

  it('shows the guest\'s answer, received by the inbound SMTP listener, in the same conversation', { skip }, async () => {
    inboundSmtp = await startInboundSmtp({ db: ctx.db, addresses, store, port: 0, host: '127.0.0.1', maxBytes: 1_000_000, logger: silentLogger });
    const certificate = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2400, 7)]);
    const listening = new URL(inboundSmtp.url);
    await createTransport({ host: listening.hostname, port: Number(listening.port), secure: false, ignoreTLS: true }).sendMail({
      from: unread.email, to: delivered.replyTo, subject: delivered.subject, inReplyTo: delivered.messageId, references: delivered.messageId,
      text: 'Great, he will love the beach!', attachments: [{ filename: 'dog vaccination.pdf', content: certificate, contentType: 'application/pdf' }],
    });
    await page.getByRole('navigation').getByRole('link', { name: /^Inbox/ }).click();
    const first = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first();
    await first.filter({ hasText: 'Great, he will love the beach!' }).getByLabel('1 unread').waitFor();
    assert.match(await first.textContent() ?? '', new RegExp(`${unread.first_name} ${unread.last_name}`));
    await first.getByRole('link').click();
    const messages = page.getByRole('list', { name: 'Messages' }).getByRole('listitem');
    await messages.last().filter({ hasText: 'Great, he will love the beach!' }).waitFor();
    // The booking's other e-mails (the automated ones) are part of the conversation too; these three are in time order.
    const said = ['He is small and quiet.', 'Of course, dogs are welcome!', 'Great, he will love the beach!'];
    assert.deepEqual(await messages.evaluateAll((items, texts) => items
      .filter((item) => texts.some((text) => item.textContent?.includes(text)))
      .map((item) => item.getAttribute('data-direction')), said),
    ['inbound', 'outbound', 'inbound'], 'the guest, the reply, the guest again, in time order');
    const shown = await messages.evaluateAll((items) => items.map((item) => item.textContent ?? '').join('\n'));
    assert.equal(shown.split('Great, he will love the beach!').length - 1, 1, 'stored once');
    assert.doesNotMatch(shown, /Hello Demo owner/, 'the members\' notification about the guest\'s e-mail is not part of the conversation');

    // The file the guest sent is a download link with its name and size, and downloads as sent (the session's cookie).
    const file = messages.last().getByRole('group', { name: 'Attached files' });
    await file.getByRole('link', { name: 'dog vaccination.pdf' }).waitFor();
    assert.match(await file.textContent() ?? '', /dog vaccination\.pdf \(2\.4 KB\)/);
    const href = await file.getByRole('link').getAttribute('href');
    const downloaded = await page.evaluate(async (url) => {
      const answer = await fetch(url!);
      return { status: answer.status, disposition: answer.headers.get('content-disposition'), bytes: [...new Uint8Array(await answer.arrayBuffer())] };
    }, href);
    assert.equal(downloaded.status, 200);
    assert.match(downloaded.disposition ?? '', /^attachment;/);
    assert.deepEqual(Buffer.from(downloaded.bytes), certificate);
  });

  it('shows a conversation at a phone\'s width', { skip }, async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // Loaded at that width: no navigation sliding away in the picture.
    await page.reload();
    await page.getByRole('list', { name: 'Messages' }).getByText('He is small and quiet.', { exact: false }).waitFor();
    await page.getByRole('region', { name: 'Stay' }).getByText(unread.unit).waitFor();
    await page.screenshot({ path: join(TEMPORARY, 'inbox-phone.png'), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);
    await page.setViewportSize({ width: 1360, height: 900 });
  });

  it('marks the conversation unread again', { skip }, async () => {
    await page.getByRole('button', { name: 'Mark unread' }).click();
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    const first = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first();
    await first.getByLabel('1 unread').waitFor();
    assert.match(await first.textContent() ?? '', new RegExp(`${unread.first_name} ${unread.last_name}`));
    assert.deepEqual(await readStates(unread), [true, false], 'the newest of the guest\'s messages is unread again, the first stays read');
  });

  it('opens the conversation from the booking page\'s Reply', { skip }, async () => {
    await page.goto(`${session.base}/admin/bookings/${read.booking_id}`);
    const messages = page.getByRole('table', { name: 'Messages' });
    await messages.getByText('the keys worked fine', { exact: false }).waitFor();
    await messages.getByRole('link', { name: 'Reply' }).click();
    await page.getByRole('heading', { name: `${read.first_name} ${read.last_name}`, level: 2 }).waitFor();
    await page.getByLabel(`Reply to ${read.email}`).waitFor();
  });

  it('lists mail that matched no booking as its sender\'s conversation', { skip }, async () => {
    await insert(ctx.db, 'messages', {
      organization_id: organizationId, channel: 'email', direction: 'inbound', status: 'received', from_address: 'stranger@example.org',
      to_address: 'team@stays.example.com', subject: 'Availability', body: 'Is the cottage free at Easter?',
    });
    await page.getByRole('navigation').getByRole('link', { name: /^Inbox/ }).click();
    const entry = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first();
    await entry.filter({ hasText: 'stranger@example.org' }).getByLabel('1 unread').waitFor();
    await entry.getByRole('link').click();
    await page.getByRole('heading', { name: 'stranger@example.org', level: 2 }).waitFor();
    await page.getByRole('list', { name: 'Messages' }).getByText('Is the cottage free at Easter?').waitFor();
    await page.getByText('This sender\'s mail matched no booking.').waitFor();
    assert.equal(new URL(page.url()).pathname, '/admin/inbox/sender/stranger%40example.org');
  });

  it('shows a member who may not read guests or write messages no names and no reply box', { skip }, async () => {
    const reader = await createUser(ctx.db, organizationId, 'inbox-reader@staykit.test', {
      role: 'cleaner', permissions: [{ resource: 'messages', access: 'read' }, { resource: 'bookings', access: 'read' }],
    });
    const context = await browser().newContext({ viewport: { width: 1360, height: 900 } });
    try {
      const other = await context.newPage();
      const refused: string[] = [];
      other.on('response', (response) => {
        if (response.url().includes('/v1/') && response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
      });
      await session.logIn(reader, other);
      await other.getByRole('navigation').getByRole('link', { name: /^Inbox/ }).click();
      const first = other.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first();
      await first.waitFor();
      assert.match(await first.textContent() ?? '', new RegExp(`Booking ${unread.reference}`));
      assert.doesNotMatch(await first.textContent() ?? '', new RegExp(unread.last_name));
      await first.getByRole('link').click();
      await other.getByRole('list', { name: 'Messages' }).getByText('He is small and quiet.', { exact: false }).waitFor();
      assert.equal(await other.getByRole('button', { name: 'Send reply' }).count(), 0, 'no reply box without messages write');
      assert.equal(await other.getByRole('button', { name: 'Mark unread' }).count(), 0);
      assert.deepEqual(refused, [], 'no request the member may not make');
      assert.deepEqual(await readStates(unread), [true, false], 'reading without write leaves it unread for the others');
    } finally {
      await context.close();
    }
  });
});

/** Waits (up to 15 s) until `condition` holds. */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 15_000;) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`timed out waiting until ${what}`);
}
