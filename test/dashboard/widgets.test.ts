/**
 * A manager sets up a booking widget on the Widgets page and puts it on their own website, in a real browser: from
 * the demo login a widget is created with one unit (Beach House), a colour and an allowed origin (typed as a page's
 * address, kept as its origin); a publishable key is created on the page; the snippet copied with the page's Copy
 * button (read back from the clipboard), pasted into a page served on another origin, takes a guest's booking, which
 * the database holds for that unit and widget. The widget's analytics then show that day's view, quote and booking;
 * the live preview shows the widget under the dashboard's real Content-Security-Policy; a revoked key makes the
 * website's widget say, in the guest's language, that the booking form is no longer active; deleting the widget removes it. axe finds no serious violation.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-widgets-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

/** The manager's own website, on an origin of its own: a page with whatever HTML was pasted into it. */
async function website(): Promise<{ origin: string; paste(html: string): void; server: Server }> {
  let pasted = '';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Seaside Stays</title></head>
<body><main><h1>Seaside Stays</h1>${pasted}</main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paste: (html) => { pasted = html; }, server };
}

interface AvailabilityDay { date: string; status: string; check_in: boolean; checkout: boolean; min_duration: number }

forEachBackend('a manager sets up a booking widget in the dashboard', (ctx) => {
  const session = dashboardSession(ctx, browser, { context: { viewport: { width: 1280, height: 900 } } });
  let site: Awaited<ReturnType<typeof website>>;
  let widgetId: string;
  let unitId: string;
  let snippet: string;
  let publishableKey: string;
  let bookingDay: string;

  const api = async <T>(method: string, path: string): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${session.base}${path}`, { method, headers: { authorization: `Bearer ${session.seeded.api_key}` } });
    return { status: response.status, body: await response.json() as T };
  };

  before(async () => {
    if (browserMissing) return;
    site = await website();
  });
  after(() => site?.server.close());

  it('the demo owner creates a widget with one unit, a colour and the website allowed', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
    await page.getByRole('link', { name: 'Widgets', exact: true }).click();
    await page.getByRole('heading', { name: 'Widgets', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Create widget' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create widget' });
    await dialog.getByLabel(/^Name/).fill('Seaside Stays website');
    await dialog.getByRole('checkbox', { name: 'Beach House' }).check();
    await dialog.getByLabel('Main colour').fill('#0b7285');
    // Pasted as a page's address: the widget keeps the origin browsers send.
    await dialog.getByLabel(/^Websites allowed to show it/).fill(`${site.origin}/booking/`);
    await dialog.getByLabel(/^Websites allowed to show it/).press('Enter');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.screenshot({ path: join(SCREENSHOTS, 'widgets-create.png') });
    await dialog.getByRole('button', { name: 'Create widget' }).click();
    await page.getByRole('heading', { name: 'Seaside Stays website', level: 2 }).waitFor();
    widgetId = page.url().split('/').at(-1)!;

    const { body: [widget] } = await api<{ name: string; allowed_origins: string[]; settings: Record<string, unknown>; widget_listings: { product_id: string; products: { name: { default: string } } }[] }[]>(
      'GET', `/v1/widgets?id=eq.${widgetId}&select=name,allowed_origins,settings,widget_listings(product_id,products(name))`);
    assert.equal(widget?.name, 'Seaside Stays website');
    assert.deepEqual(widget?.allowed_origins, [site.origin]);
    assert.equal(widget?.settings.primary_color, '#0b7285');
    assert.deepEqual(widget?.widget_listings.map((listing) => listing.products.name.default), ['Beach House']);
    unitId = widget!.widget_listings[0]!.product_id;
  });

  it('a publishable key is created on the page, and the snippet copied with its button', { skip }, async () => {
    const { page, context } = session;
    const embed = page.getByRole('region', { name: 'Put it on your website' });
    await embed.getByText('Create a publishable key below to get the code for your website.').waitFor();
    const keys = page.getByRole('region', { name: 'Publishable keys' });
    await keys.getByLabel('Name of a new key').fill('www');
    await keys.getByRole('button', { name: 'Create key' }).click();
    await keys.getByRole('row', { name: /www/ }).getByText('active').waitFor();
    const { body: stored } = await api<{ key: string; widget_id: string; name: string; revoked_at: string | null }[]>('GET', '/v1/publishable-keys');
    const key = stored.find((row) => row.widget_id === widgetId);
    assert.deepEqual(key && { name: key.name, revoked_at: key.revoked_at }, { name: 'www', revoked_at: null });

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.base });
    await embed.getByRole('button', { name: 'Copy snippet' }).click();
    await embed.getByRole('group', { name: 'Snippet' }).getByRole('button', { name: 'Copied' }).waitFor();
    publishableKey = key!.key;
    snippet = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(snippet, `<script src="${session.base}/widget.js"></script>\n<staykit-widget key="${key!.key}"></staykit-widget>`);
    await embed.getByRole('button', { name: 'Copy iframe code' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()),
      `<iframe title="Seaside Stays website" src="${session.base}/w/${widgetId}" width="100%" height="900"></iframe>`);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  it('the snippet pasted into a page on another origin takes a booking for the unit', { skip }, async () => {
    const { body: [availability] } = await api<{ days: AvailabilityDay[] }[]>('GET',
      `/v1/availability?product_ids=${unitId}&start=${new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10)}&include=days`);
    const days = availability!.days;
    // Two nights from a day a two-night stay may start, checkout in the same month (one calendar page): the first such
    // free run of the demo's calendar.
    const start = days.findIndex((day, index) => day.check_in && day.min_duration <= 2 && days[index + 1]?.status === 'available'
      && day.status === 'available' && days[index + 2]?.checkout === true && days[index + 2]!.date.slice(0, 7) === day.date.slice(0, 7));
    assert.ok(start >= 0, 'the demo unit has two free nights in the coming year');
    bookingDay = days[start]!.date;
    site.paste(snippet);

    const guest = await browser().newContext({ viewport: { width: 1024, height: 900 }, locale: 'en-GB' });
    const guestPage = await guest.newPage();
    guestPage.setDefaultTimeout(15_000);
    guestPage.on('pageerror', (error) => session.pageErrors.push(`widget: ${error.message}`));
    await guestPage.goto(site.origin);
    const embedded = guestPage.locator('staykit-widget');
    await embedded.getByRole('heading', { name: 'Beach House' }).waitFor();
    const day = (date: string) => embedded.locator(`button[data-date="${date}"]`);
    // Month by month to the booking's (the calendar opens where the widget chooses).
    await embedded.locator('button[data-date]').first().waitFor();
    for (let step = 0; step < 24 && await day(bookingDay).count() === 0; step++) {
      const shown = (await embedded.locator('button[data-date]').first().getAttribute('data-date'))!.slice(0, 7);
      await embedded.getByRole('button', { name: shown < bookingDay.slice(0, 7) ? 'Next month' : 'Previous month' }).click();
      await embedded.locator(`button[data-date^="${shown}"]`).first().waitFor({ state: 'detached' });
    }
    await day(bookingDay).click();
    await day(days[start + 2]!.date).click();
    await embedded.locator('#selection').filter({ hasText: 'selected' }).waitFor();
    await embedded.getByLabel(/^Adults/).fill('2');
    await embedded.getByLabel('First name').fill('Ada');
    await embedded.getByLabel('Last name').fill('Lovelace');
    await embedded.getByLabel(/^E-mail/).first().fill('ada@example.com');
    await embedded.getByRole('button', { name: 'Show price' }).click();
    await embedded.getByRole('region', { name: 'Price' }).locator('[data-total]').waitFor();
    const terms = embedded.getByRole('checkbox', { name: /^I accept the booking terms/ });
    if (await terms.count() > 0) await terms.check();
    await embedded.getByRole('button', { name: 'Book now' }).click();
    await embedded.locator('#done').getByText(/Your booking .* is made/).waitFor();
    await guestPage.screenshot({ path: join(SCREENSHOTS, `widgets-booked-${ctx.backend}.png`), fullPage: true });
    const reference = /booking (\S+) is made/.exec((await embedded.locator('#done').textContent())!)![1]!;
    await guest.close();

    const { body: [booking] } = await api<{ widget_id: string; calendar_events: { product_id: string; start_date: string }[] }[]>(
      'GET', `/v1/bookings?reference=eq.${reference}&select=widget_id,calendar_events(product_id,start_date)`);
    assert.deepEqual(booking, { widget_id: widgetId, calendar_events: [{ product_id: unitId, start_date: bookingDay }] });
  });

  it('the analytics show the guest\'s view, quote and booking of today', { skip }, async () => {
    const { page } = session;
    await page.reload();
    const analytics = page.getByRole('region', { name: 'Analytics' });
    const table = analytics.getByRole('table', { name: 'Analytics' });
    await table.waitFor();
    const cells = await table.locator('tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
    const today = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date());
    assert.equal(cells.length, 3, 'the header, one day and the totals');
    assert.deepEqual(cells[0], ['Day', 'Views', 'Quotes', 'Bookings']);
    assert.deepEqual(cells[1]!.slice(1), ['1', '1', '1'], `the guest's visit today (${today})`);
    assert.deepEqual(cells[2], ['Total', '1', '1', '1']);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.setViewportSize({ width: 1280, height: 2000 });
    await page.screenshot({ path: join(SCREENSHOTS, 'widgets-page.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('the preview shows the live widget under the dashboard\'s real Content-Security-Policy', { skip }, async () => {
    const strict = await browser().newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: false });
    const page: Page = await strict.newPage();
    page.on('pageerror', (error) => session.pageErrors.push(`preview: ${error.message}`));
    const refused: string[] = [];
    page.on('console', (message) => { if (/Content Security Policy|frame-ancestors/i.test(message.text())) refused.push(message.text()); });
    await session.logIn(session.owner, page);
    await page.goto(`${session.base}/admin/widgets/${widgetId}`);
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByRole('button', { name: 'Show preview' }).click();
    const framed = page.frameLocator('iframe[title="Preview of the widget"]').locator('staykit-widget');
    await framed.getByRole('heading', { name: 'Beach House' }).waitFor();
    assert.deepEqual(refused, [], 'neither policy refuses the frame or its script');
    await preview.evaluate((section) => window.scrollTo(0, section.getBoundingClientRect().top + window.scrollY - 80));
    await page.screenshot({ path: join(SCREENSHOTS, 'widgets-preview.png') });
    await strict.close();
  });

  it('a revoked key no longer works: the website\'s widget says the booking form is no longer active', { skip }, async () => {
    const { page } = session;
    const keys = page.getByRole('region', { name: 'Publishable keys' });
    await keys.getByRole('button', { name: /^Revoke pk_/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke "www"?' });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await keys.getByRole('row', { name: /www/ }).getByText(/^revoked /).waitFor();
    await page.getByRole('region', { name: 'Put it on your website' }).getByText('Create a publishable key below to get the code for your website.').waitFor();

    const guest = await browser().newContext({ viewport: { width: 1024, height: 900 }, locale: 'en-GB' });
    const guestPage = await guest.newPage();
    guestPage.on('pageerror', (error) => session.pageErrors.push(`widget: ${error.message}`));
    const alert = guestPage.locator('staykit-widget').getByRole('alert');
    // A server process may hold a key it looked up for up to 2 s (docs/widget.md): the page is reloaded until the
    // revocation reaches it, and must then show the refusal instead of the catalogue.
    const deadline = Date.now() + 15_000;
    let message = '';
    while (message === '' && Date.now() < deadline) {
      await guestPage.goto(site.origin);
      await guestPage.locator('staykit-widget').getByRole('heading', { name: 'Beach House' }).or(alert.filter({ hasText: /\S/ })).first().waitFor();
      message = (await alert.count()) > 0 ? (await alert.first().textContent() ?? '').trim() : '';
    }
    // The refusal (401) is readable by the page (it holds no data), so the widget says why, not "cannot be reached".
    assert.equal(message, 'This booking form is no longer active — please contact the host.');
    // The key's lookup is cached apart from the origins' (each up to 2 s): asked again until the refusal reaches it too.
    let refused = await fetch(`${session.base}/v1/widget`, { headers: { authorization: `Bearer ${publishableKey}` } });
    while (refused.status === 200 && Date.now() < deadline) {
      await refused.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 200));
      refused = await fetch(`${session.base}/v1/widget`, { headers: { authorization: `Bearer ${publishableKey}` } });
    }
    assert.equal(refused.status, 401);
    assert.equal((await refused.json() as { code: string }).code, 'SK401');
    assert.equal(await guestPage.locator('staykit-widget').getByRole('heading', { name: 'Beach House' }).count(), 0);
    await guestPage.screenshot({ path: join(SCREENSHOTS, 'widgets-revoked.png') });
    await guest.close();
    // A Dutch guest reads it in Dutch, before the catalogue (refused) could name the widget's language.
    const dutch = await browser().newContext({ locale: 'nl-NL' });
    const dutchPage = await dutch.newPage();
    await dutchPage.goto(site.origin);
    await dutchPage.locator('staykit-widget').getByRole('alert')
      .filter({ hasText: 'Dit boekingsformulier is niet meer actief — neem contact op met de verhuurder.' }).waitFor();
    await dutch.close();
  });

  it('deleting the widget removes it and its keys', { skip }, async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Delete widget' }).click();
    await page.getByRole('dialog', { name: 'Delete "Seaside Stays website"?' }).getByRole('button', { name: 'Delete widget' }).click();
    await page.getByRole('heading', { name: 'Widgets', level: 2 }).waitFor();
    await page.getByText('No widgets yet.').waitFor();
    const { body: widgets } = await api<unknown[]>('GET', `/v1/widgets?id=eq.${widgetId}`);
    assert.deepEqual(widgets, []);
    const { body: keys } = await api<{ widget_id: string }[]>('GET', '/v1/publishable-keys');
    assert.deepEqual(keys.filter((key) => key.widget_id === widgetId), []);
  });
});
