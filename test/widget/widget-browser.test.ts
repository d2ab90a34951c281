/**
 * The booking widget in a real browser (Debian's chromium through playwright-core), embedded by a page served from
 * another origin than Staykit's, as a property manager's website would: it loads, shows the seeded availability,
 * is driven by keyboard to pick dates, quotes and books; the booking appears through the API with its widget_id;
 * a page from an origin the widget does not allow gets nothing (CORS); the guest page shows the booking and its
 * .ics; the iframe page works; with Stripe set up (a local server speaking Stripe's API), the confirmation links to
 * the Checkout session of /book's payment_url; axe-core finds no serious or critical accessibility violations. Skipped with a
 * message when /usr/bin/chromium is absent, unless STAYKIT_TEST_REQUIRE_BROWSER=1.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserMissing } from '../support/browser-required.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { addDays } from '../../src/common/dates.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { bearer, startApp } from '../support/app.js';
import { startFakeStripe, type FakeStripe } from '../money/stripe-server.js';
import { publishableKeyFor, widgetOrganization, type WidgetOrganization } from './support.js';

const CHROMIUM = process.env.STAYKIT_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];
const missing = browserMissing(CHROMIUM, 'widget browser test');
const skip = missing && `${CHROMIUM} not found`;

const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** A website on its own origin: every path answers `html`. */
async function website(html: () => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const embedding = (staykit: string, key: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Seaside Rentals</title></head>
<body><main><h1>Seaside Rentals</h1>
<script>window.widgetEvents = []; for (const type of ['staykit:ready', 'staykit:dates', 'staykit:quote', 'staykit:booked', 'staykit:error'])
  document.addEventListener(type, (event) => window.widgetEvents.push({ type, detail: event.detail }));</script>
<script src="${staykit}/widget.js"></script>
<staykit-widget key="${key}"></staykit-widget></main></body></html>`;

/** Picks the focused day (the first free check-in) and, by keyboard, checkout three nights later. */
async function chooseThreeNights(page: Page, widget: Locator): Promise<void> {
  await widget.locator('td button[tabindex="0"]').focus();
  await page.keyboard.press('Enter');
  await widget.locator('#selection').filter({ hasText: 'Now choose a checkout day' }).waitFor();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await widget.locator('#selection').filter({ hasText: 'selected' }).waitFor();
}

async function fillGuest(widget: Locator): Promise<void> {
  await widget.getByLabel(/^Adults/).fill('2');
  await widget.getByLabel('First name').fill('Ada');
  await widget.getByLabel('Last name').fill('Lovelace');
  await widget.getByLabel(/^E-mail/).fill('ada@example.com');
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }> } }).axe;
    return axe.run();
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** Where the screenshots go (a temp folder, named in the test output). */
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-widget-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

let testDb: TestDatabase;
let app: FastifyInstance;
let browser: Browser;
let staykit: string;
let org: WidgetOrganization;
let key: string;
let allowedSite: { server: Server; origin: string };
let otherSite: { server: Server; origin: string };
let iframeSite: { server: Server; origin: string };
let guestUrl: string;
let reference: string;
let stripe: FakeStripe;
const STRIPE_SECRET_KEY = 'sk_test_51StaykitWidgetOnly000wxyz';

before(async () => {
  if (missing) return;
  execFileSync(process.execPath, ['scripts/build-web.js', 'widget'], { stdio: 'ignore' });
  allowedSite = await website(() => embedding(staykit, key));
  otherSite = await website(() => embedding(staykit, key));
  iframeSite = await website(() => `<!doctype html><html lang="en"><head><title>Framed</title></head><body><main>
<iframe title="Booking" src="${staykit}/w/${org.widget}" width="600" height="900"></iframe></main></body></html>`);
  testDb = await createTestDatabase('pglite');
  stripe = await startFakeStripe();
  // Stripe is reachable from the start; the organization sets up its account only in the payment test.
  app = await startApp(testDb.db, { config: loadConfig({ STAYKIT_SECRET_KEY: 'server-secret-for-tests-only', STAYKIT_STRIPE_API_URL: stripe.url }) });
  staykit = await app.listen({ port: 0, host: '127.0.0.1' });
  const year = new Date().getUTCFullYear();
  org = await widgetOrganization(testDb.db, 'Seaside Rentals', [allowedSite.origin, iframeSite.origin], `{[${year - 1}-01-01,${year + 3}-01-01)}`);
  key = await publishableKeyFor(app, org.secretKey, org.widget);
  // Prices shown in US dollars too, at the organization's own rate.
  await testDb.db.query(`UPDATE api.widgets SET settings = '{"display_currency": "USD"}' WHERE id = $1`, [org.widget]);
  await testDb.db.query(`UPDATE api.organizations SET settings = settings || '{"exchange_rates": {"EUR": {"USD": 1.1}}}' WHERE id = $1`, [org.id]);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

after(async () => {
  await browser?.close();
  for (const site of [allowedSite, otherSite, iframeSite]) site?.server.close();
  await app?.close();
  await stripe?.close();
  await testDb?.drop();
});

it('a page on an allowed origin shows availability, quotes and books by keyboard; the booking carries the widget', { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } }); // a phone
  page.setDefaultTimeout(30_000);
  await page.goto(allowedSite.origin);
  const widget = page.locator('staykit-widget');
  await widget.locator('h2').filter({ hasText: 'Dune House' }).waitFor();

  // The seeded availability: available days with their "from" price; the focused day is the first free check-in.
  const focused = widget.locator('td button[tabindex="0"]');
  const start = (await focused.getAttribute('data-date'))!;
  const month = start.slice(0, 7);
  const api = await app.inject({
    method: 'GET', url: `/v1/availability?product_ids=${org.listed}&include=days`, headers: { authorization: `Bearer ${org.secretKey}` },
  });
  const expected = api.json<{ days: { date: string; status: string }[] }[]>()[0]!.days
    .filter((day) => day.date.startsWith(month) && day.status === 'available').map((day) => day.date);
  assert.ok(expected.length > 0);
  assert.equal(start, expected[0]);
  const available = widget.locator('td button.available');
  assert.deepEqual(await available.evaluateAll((buttons) => buttons.map((b) => (b as HTMLElement).dataset.date)), expected);
  assert.match(await available.first().getAttribute('aria-label') ?? '', /available, check-in possible.*from €100\.00/);
  assert.equal(await widget.locator(`td:has(button[data-date="${start}"]) .rate`).textContent(), '€100');
  // Nothing overflows the phone's width.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));

  await chooseThreeNights(page, widget);
  // Check-in and checkout are both marked, as far as the month shown holds them: three nights from a check-in in
  // the month's last three days end in the next month, which is then the one shown.
  const dates = (buttons: Locator) => buttons.evaluateAll((all) => all.map((b) => (b as HTMLElement).dataset.date));
  const shown = await dates(widget.locator('td button'));
  assert.deepEqual(await dates(widget.locator('td button.selected')), [start, addDays(start, 3)].filter((date) => shown.includes(date)));
  assert.ok(shown.includes(addDays(start, 3)), 'the checkout day is shown');

  await fillGuest(widget);
  await widget.getByRole('button', { name: 'Show price' }).click();
  const total = widget.locator('#quote [data-total]');
  await total.waitFor();
  assert.equal(await total.textContent(), '€350.00'); // 3 nights × €100 + cleaning €50
  assert.equal(await widget.locator('#quote [data-display-total]').textContent(), '$385.00');
  assert.deepEqual(await seriousViolations(page), []);

  // Extras, an option and a coupon: the quote shows each line, and a changed form hides the stale quote.
  await widget.getByLabel(/^Breakfast/).check();
  assert.equal(await widget.locator('#quote').isHidden(), true);
  await widget.getByLabel('Bed linen').selectOption({ label: 'Premium' });
  await widget.getByLabel('Coupon code').fill('summer10');
  await widget.getByRole('button', { name: 'Show price' }).click();
  await widget.locator('#quote').getByText('Bed linen').waitFor();
  // (300 + 50 + 20 + 15) − 10 % = €346.50
  assert.equal(await total.textContent(), '€346.50');
  assert.match(await widget.locator('#quote').textContent() ?? '', /Breakfast.*Bed linen/s);

  await widget.getByRole('button', { name: 'Book now' }).click();
  const done = widget.locator('#done');
  await done.getByText(/Your booking .* is made/).waitFor();
  reference = /booking (\S+) is made/.exec((await done.textContent())!)![1]!;
  guestUrl = (await done.getByRole('link', { name: 'View your booking' }).getAttribute('href'))!;
  assert.deepEqual(await seriousViolations(page), []);

  const events = await page.evaluate(() => (window as unknown as { widgetEvents: { type: string; detail: Record<string, unknown> }[] }).widgetEvents);
  assert.deepEqual(events.map((e) => e.type), ['staykit:ready', 'staykit:dates', 'staykit:quote', 'staykit:quote', 'staykit:booked']);
  const booked = events.find((e) => e.type === 'staykit:booked')!.detail;
  assert.equal(booked.reference, reference);

  const response = await app.inject({
    method: 'GET', url: `/v1/bookings?id=eq.${String(booked.booking_id)}&select=widget_id,reference,display_currency,calendar_events(start_date,status)`,
    headers: { authorization: `Bearer ${org.secretKey}` },
  });
  assert.deepEqual(response.json(), [{ widget_id: org.widget, reference, display_currency: 'USD', calendar_events: [{ start_date: start, status: 'CONFIRMED' }] }]);
  await page.close();
});

it('says the minimum stay instead of starting the pick again, shows when to pay, and asks for a name and e-mail before booking', { skip }, async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  page.setDefaultTimeout(30_000);
  const bookRequests: string[] = [];
  page.on('request', (request) => { if (request.url().endsWith('/v1/book')) bookRequests.push(request.url()); });
  await page.goto(allowedSite.origin);
  const widget = page.locator('staykit-widget');
  await widget.locator('td button.available').first().waitFor();
  const start = (await widget.locator('td button[tabindex="0"]').getAttribute('data-date'))!;
  await widget.locator('td button[tabindex="0"]').focus();
  await page.keyboard.press('Enter');
  await widget.locator('#selection').filter({ hasText: 'Now choose a checkout day: a stay is at least 2 nights.' }).waitFor();
  // One night is too short: the widget says so where it guides the pick, and keeps the check-in.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const earliest = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${addDays(start, 2)}T00:00:00Z`));
  await widget.locator('#selection').filter({ hasText: `A stay here is at least 2 nights: choose a checkout day from ${earliest}.` }).waitFor();
  assert.deepEqual(await widget.locator('td button.selected').evaluateAll((all) => all.map((b) => (b as HTMLElement).dataset.date)), [start]);
  await page.screenshot({ path: join(SCREENSHOTS, 'widget-minimum-stay-phone.png') });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await widget.locator('#selection').filter({ hasText: 'selected' }).waitFor();
  const alert = widget.locator('#error');
  assert.deepEqual(await widget.locator('td button.selected').evaluateAll((all) => all.map((b) => (b as HTMLElement).dataset.date)),
    [start, addDays(start, 2)].filter(Boolean));

  await widget.getByLabel(/^Adults/).fill('2');
  await widget.getByLabel(/^E-mail/).fill('ada@example.com');
  await widget.getByRole('button', { name: 'Show price' }).click();
  await widget.locator('#quote [data-total]').filter({ hasText: '€250.00' }).waitFor();
  // Without moments of its own, the unit asks for the whole total when the booking is made.
  assert.equal(await widget.locator('#quote [data-schedule]').textContent(), '€250.00 now');
  await widget.getByRole('button', { name: 'Book now' }).click();
  await alert.filter({ hasText: 'Please fill in your name and e-mail address.' }).waitFor();
  assert.deepEqual(bookRequests, [], 'nothing was sent without a name and an e-mail address');
  assert.equal(await widget.getByLabel(/^First name/).evaluate((input) => input === (input.getRootNode() as ShadowRoot).activeElement), true);
  await page.screenshot({ path: join(SCREENSHOTS, 'widget-contact-required-phone.png'), fullPage: true });
  await page.close();
});

it('the guest page shows the booking and its .ics, accessibly', { skip }, async () => {
  assert.ok(guestUrl, 'the booking test ran first');
  // The page's Content-Security-Policy allows no script at all: axe-core is injected past it.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(guestUrl);
  await page.getByRole('heading', { name: `Booking ${reference}` }).waitFor();
  assert.match(await page.textContent('main') ?? '', /Dune House[\s\S]*2 × Adults/);
  const ics = await page.request.get(`${guestUrl}/calendar.ics`);
  assert.equal(ics.status(), 200);
  assert.match(await ics.text(), /BEGIN:VEVENT[\s\S]*DTSTART;VALUE=DATE:\d{8}[\s\S]*Dune House/);
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

it('a page on an origin the widget does not allow is refused by CORS and gets nothing', { skip }, async () => {
  const page = await browser.newPage();
  const corsErrors: string[] = [];
  page.on('console', (message) => { if (/CORS/i.test(message.text())) corsErrors.push(message.text()); });
  await page.goto(otherSite.origin);
  const alert = page.locator('staykit-widget').getByRole('alert');
  await alert.waitFor();
  assert.equal(await page.locator('staykit-widget td button').count(), 0);
  assert.ok(corsErrors.length > 0, 'the browser reports the CORS refusal');
  const events = await page.evaluate(() => (window as unknown as { widgetEvents: { type: string }[] }).widgetEvents.map((e) => e.type));
  assert.deepEqual(events, ['staykit:error']);
  await page.close();
});

it('the iframe page /w/<widget_id> shows the widget inside an allowed page, in the browser\'s language', { skip }, async () => {
  const context = await browser.newContext({ locale: 'nl-NL' });
  const page = await context.newPage();
  await page.goto(iframeSite.origin);
  const frame = page.frameLocator('iframe');
  await frame.locator('staykit-widget h2').filter({ hasText: 'Duinhuis' }).waitFor(); // the unit's Dutch name
  await frame.getByRole('heading', { name: 'Kies je data' }).waitFor();
  await frame.locator('staykit-widget td button.available').first().waitFor();
  assert.match(await frame.locator('staykit-widget td button.available').first().getAttribute('aria-label') ?? '', /beschikbaar, aankomst mogelijk/);
  await context.close();
});

it('with Stripe set up, the confirmation links to the Checkout session of /book\'s payment_url', { skip }, async () => {
  const settings = await app.inject({
    method: 'PUT', url: '/v1/payment-settings', headers: bearer(org.secretKey),
    payload: { stripe_secret_key: STRIPE_SECRET_KEY, stripe_webhook_secret: 'whsec_widgettestsecret1234567', success_url: `${allowedSite.origin}/paid`, cancel_url: `${allowedSite.origin}/unpaid` },
  });
  assert.equal(settings.statusCode, 200, settings.body);
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(allowedSite.origin);
  const widget = page.locator('staykit-widget');
  await widget.locator('td button.available').first().waitFor();
  await chooseThreeNights(page, widget);
  await fillGuest(widget);
  await widget.getByRole('button', { name: 'Show price' }).click();
  await widget.locator('#quote [data-total]').filter({ hasText: '€350.00' }).waitFor();

  const bookAnswer = page.waitForResponse((response) => response.url() === `${staykit}/v1/book` && response.request().method() === 'POST');
  await widget.getByRole('button', { name: 'Book now' }).click();
  const booked = await (await bookAnswer).json() as { booking_id: string; payment_url: string | null };
  assert.match(String(booked.payment_url), /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/);
  const pay = widget.locator('#done').getByRole('link', { name: 'Pay now' });
  await pay.waitFor();
  assert.equal(await pay.getAttribute('href'), booked.payment_url);
  assert.equal(await pay.getAttribute('target'), '_top'); // Checkout replaces the whole page, also from the iframe
  assert.deepEqual(await seriousViolations(page), []);

  // The session was asked of "Stripe" with the organization's key, for the whole stay due at confirmation, in euros.
  const sessions = stripe.requests.filter((request) => request.path === '/v1/checkout/sessions');
  assert.equal(sessions.length, 1);
  assert.equal(sessions[0]!.secretKey, STRIPE_SECRET_KEY);
  assert.equal(sessions[0]!.form['metadata[booking_id]'], booked.booking_id);
  assert.equal(sessions[0]!.form['line_items[0][price_data][unit_amount]'], '35000');
  assert.equal(sessions[0]!.form['line_items[0][price_data][currency]'], 'eur');
  assert.equal(sessions[0]!.form.success_url, `${allowedSite.origin}/paid`);
  await page.close();
});
