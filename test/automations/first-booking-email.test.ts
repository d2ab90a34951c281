/**
 * What a new user meets: `staykit serve` on the embedded default with nothing configured but its data folder (as
 * `npm start` runs it). A guest whose browser speaks German books the demo's Beach House (Strandhaus) in the widget, embedded by
 * a website on another origin; within seconds the confirmation is an .eml file in DATA_DIR/outbox/ — HTML and text,
 * in German, with the unit's cover photo and the stay as an .ics. Then the same with SMTP_URL set: the confirmation
 * reaches a real SMTP server. Skipped with a message when /usr/bin/chromium is absent, unless
 * STAYKIT_TEST_REQUIRE_BROWSER=1.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { browserMissing, fileBrowser } from '../dashboard/support/browser.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { widgetSite } from '../widget/support.js';
import { parseMime, startSmtpServer, textOf, type MimePart } from './support.js';

const skip = browserMissing && 'chromium not found';
const browser = fileBrowser();

interface Demo {
  server: ServerProcess;
  api: <T>(method: string, path: string, body?: unknown) => Promise<{ status: number; body: T }>;
}

/** A port nothing listens on now: the server is given it as a user gives theirs, so its links default to it. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `staykit serve` as a user starts it: the embedded database and the scheduler inside (the defaults). */
async function startDemo(dataDir: string, env: Record<string, string> = {}): Promise<Demo> {
  const server = await startServerProcess({ DATABASE_URL: '', DATA_DIR: dataDir, STAYKIT_WORKER: 'embedded', ...env }, ['--port', String(await freePort())]);
  const key = /Demo organization API key: (sk_\S+)/.exec(server.output())?.[1];
  assert.ok(key, server.output());
  const api = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', prefer: 'return=representation' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };
  return { server, api };
}

interface BeachHouse {
  id: string;
  coverHash: string;
  adults: string;
  start: string;
  end: string;
}

/** The demo's Beach House once its photos are in (they are made after the server starts), and three free nights. */
async function beachHouse({ api }: Demo): Promise<BeachHouse> {
  let unit: { id: string; images: { media_id: string; cover?: boolean }[] } | undefined;
  for (const until = Date.now() + 60_000; !unit?.images.length;) {
    assert.ok(Date.now() < until, 'the demo photos arrive within a minute');
    unit = (await api<typeof unit[]>('GET', '/v1/products?name->>default=eq.Beach House&select=id,images')).body[0];
    if (!unit?.images.length) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const cover = unit.images.find((image) => image.cover) ?? unit.images[0]!;
  const { body: [media] } = await api<{ hash: string }[]>('GET', `/v1/media?id=eq.${cover.media_id}&select=hash`);
  const { body: groups } = await api<{ capacity_group_id: string; capacity_groups: { name: { default: string } } }[]>(
    'GET', `/v1/capacities?product_id=eq.${unit.id}&select=capacity_group_id,capacity_groups(name)`);
  const adults = groups.find((group) => group.capacity_groups.name.default === 'Adults')!.capacity_group_id;
  // Three nights in the winter (the summer is rented by the week), on the first Monday the demo has free.
  for (let monday = Date.UTC(2027, 0, 4); monday < Date.UTC(2027, 5, 1); monday += 7 * 86_400_000) {
    const start = new Date(monday).toISOString().slice(0, 10);
    const end = new Date(monday + 3 * 86_400_000).toISOString().slice(0, 10);
    const quote = await api('POST', '/v1/quote', { product_id: unit.id, interval: { start, end }, occupancy: { [adults]: 2 } });
    if (quote.status === 200) return { id: unit.id, coverHash: media!.hash, adults, start, end };
  }
  throw new Error('the demo Beach House has no three free nights in the first half of 2027');
}

/** A German-speaking guest books the stay in the widget on the organization's own website. */
async function bookInWidget(demo: Demo, unit: BeachHouse, email: string): Promise<string> {
  const site = await widgetSite('Seaside Rentals');
  try {
    const widget = await demo.api<{ id: string }[]>('POST', '/v1/widgets', { name: 'Website', allowed_origins: [site.origin] });
    assert.equal(widget.status, 201, JSON.stringify(widget.body));
    await demo.api('POST', '/v1/widget_listings', { widget_id: widget.body[0]!.id, product_id: unit.id });
    const key = await demo.api<{ key: string }>('POST', '/v1/publishable-keys', { widget_id: widget.body[0]!.id, name: 'Website' });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    site.embed(demo.server.url, key.body.key);

    const guest = await browser().newContext({ locale: 'de-DE', viewport: { width: 1024, height: 900 } });
    try {
      const page = await guest.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(site.origin);
      const embedded = page.locator('staykit-widget');
      await embedded.locator('#title').filter({ hasText: 'Strandhaus' }).waitFor();
      const day = (date: string) => embedded.locator(`button[data-date="${date}"]`);
      while (await day(unit.start).count() === 0) await embedded.getByRole('button', { name: 'Nächster Monat' }).click();
      await day(unit.start).click();
      await day(unit.end).click();
      await embedded.locator('#selection').filter({ hasText: 'gewählt' }).waitFor();
      await embedded.getByLabel(/^Adults/).fill('2');
      await embedded.getByLabel('Vorname').fill('Lena');
      await embedded.getByLabel('Nachname').fill('Huber');
      await embedded.getByLabel(/^E-Mail/).first().fill(email);
      await embedded.getByRole('button', { name: 'Preis anzeigen' }).click();
      await embedded.getByRole('region', { name: 'Preis' }).locator('[data-total]').waitFor();
      const terms = embedded.getByRole('checkbox', { name: /^Ich akzeptiere/ });
      if (await terms.count() > 0) await terms.check();
      await embedded.getByRole('button', { name: 'Jetzt buchen' }).click();
      await embedded.locator('#done').getByText(/Ihre Buchung .* ist erfolgt/).waitFor();
      await page.screenshot({ path: join(tmpdir(), `first-booking-widget-${email.split('@')[0]}.png`), fullPage: true });
      return /Buchung (\S+) ist erfolgt/.exec((await embedded.locator('#done').textContent())!)![1]!;
    } finally {
      await guest.close();
    }
  } finally {
    site.close();
  }
}

function allParts(mail: MimePart): MimePart[] {
  return [mail, ...mail.parts.flatMap(allParts)];
}

/** The confirmation as a guest's mail program shows it: German subject and text, HTML with the photo, the .ics. */
function assertGermanConfirmation(raw: string, unit: BeachHouse, reference: string, baseUrl: string): void {
  const mail = parseMime(raw);
  assert.equal(mail.headers.subject, `Ihr Aufenthalt in Strandhaus ist bestätigt (${reference})`);
  assert.match(textOf(mail), /^Guten Tag Lena,\n\nIhre Buchung ist bestätigt: Strandhaus, vom /);
  const parts = allParts(mail);
  const html = parts.find((part) => (part.headers['content-type'] ?? '').startsWith('text/html'));
  assert.ok(html, 'an HTML alternative beside the text');
  assert.match(html.body, /Ihre Buchung ist bestätigt: Strandhaus/);
  const photo = new RegExp(`<img[^>]+src="${baseUrl.replace('127.0.0.1', 'localhost').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/media/${unit.coverHash}/\\d+\\.jpeg"`);
  assert.match(html.body, photo, `the unit's cover photo, served by this Staykit: ${/<img[^>]*>/.exec(html.body)?.[0]}`);
  const calendar = parts.find((part) => (part.headers['content-type'] ?? '').startsWith('text/calendar'));
  assert.ok(calendar, 'the stay as an .ics attachment');
  assert.match(calendar.body, /BEGIN:VEVENT/);
  assert.match(calendar.body, new RegExp(`DTSTART;VALUE=DATE:${unit.start.replaceAll('-', '')}`));
  assert.match(calendar.body, new RegExp(`DTEND;VALUE=DATE:${unit.end.replaceAll('-', '')}`));
}

async function waitFor<T>(what: string, find: () => Promise<T | undefined>, deadlineMs = 20_000): Promise<T> {
  for (const until = Date.now() + deadlineMs; ;) {
    const found = await find();
    if (found !== undefined) return found;
    assert.ok(Date.now() < until, `${what} within ${deadlineMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the first booking of a new install sends its confirmation', () => {
  const folders: string[] = [];
  const servers: ServerProcess[] = [];
  after(async () => {
    for (const server of servers) await server.stop();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('with nothing configured: an .eml in DATA_DIR/outbox/, in German, HTML and text, the photo and the .ics', { skip }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'staykit-first-booking-'));
    folders.push(dataDir);
    const demo = await startDemo(dataDir);
    servers.push(demo.server);
    const unit = await beachHouse(demo);
    const reference = await bookInWidget(demo, unit, 'lena.huber@example.com');

    const outbox = join(dataDir, 'outbox');
    const confirmation = await waitFor('the confirmation in the outbox folder', async () => {
      for (const name of (await readdir(outbox).catch(() => [] as string[])).filter((file) => file.endsWith('.eml'))) {
        const raw = await readFile(join(outbox, name), 'utf8');
        if (raw.includes(reference) && /^To: .*lena\.huber@example\.com/im.test(raw)) return raw;
      }
      return undefined;
    });
    assertGermanConfirmation(confirmation, unit, reference, demo.server.url);
  });

  it('with SMTP_URL: the same confirmation reaches the SMTP server', { skip }, async () => {
    const smtp = await startSmtpServer();
    const dataDir = await mkdtemp(join(tmpdir(), 'staykit-first-booking-smtp-'));
    folders.push(dataDir);
    try {
      const demo = await startDemo(dataDir, { SMTP_URL: smtp.url, STAYKIT_EMAIL_FROM: 'stay@seaside.example' });
      servers.push(demo.server);
      const unit = await beachHouse(demo);
      const reference = await bookInWidget(demo, unit, 'lena.huber@example.com');
      const confirmation = await waitFor('the confirmation at the SMTP server', async () =>
        smtp.received.find((raw) => raw.includes(reference) && /^To: .*lena\.huber@example\.com/im.test(raw)));
      assertGermanConfirmation(confirmation, unit, reference, demo.server.url);
      assert.match(parseMime(confirmation).headers.from ?? '', /<stay@seaside\.example>$/);
      assert.deepEqual(await readdir(join(dataDir, 'outbox')).catch(() => []), [], 'nothing written to the outbox folder');
    } finally {
      await smtp.close();
    }
  });
});
