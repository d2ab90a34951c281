/**
 * A manager sets up a unit from scratch in the dashboard, in a real browser (Debian's chromium through playwright-core),
 * without touching the API by hand: the details in "Add unit" (a refusal shown at the field it names), two photos
 * uploaded (small JPEGs made with sharp) with the second made the cover, a configuration with a rate and a minimum
 * stay, a weekend rate (a higher rate on Friday and Saturday nights: per-date prices on those weekdays — the pricing
 * model has no weekday rates in a configuration) and a cleaning fee. Then, through the API: a quote has the weekend
 * rate and the fee, a one-night stay is refused, and the unit's images are the two photos with the cover first.
 * The issue's "done when": a guest on the manager's own website — another origin, embedding widget.js with a
 * publishable key of a widget listing the unit (made through the API: the dashboard has no widget page yet) — sees
 * the cover photo, the weekend rate in the calendar and the rent and the cleaning fee in the quote, and books. The
 * unit's page previews the unit in the real widget, read with the manager's session (no key): the booked dates taken.
 * A cleaning task after departure is assigned to a member. Duplicating copies the configuration, the fee and the task;
 * archiving hides the unit from the list until the switch shows it.
 * axe finds no serious or critical violation. STAYKIT_UPDATE_SCREENSHOTS=1 writes docs/dashboard/units-*.png.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { managerSession } from './support/manager-session.js';
import { widgetSite, type WidgetSite } from '../widget/support.js';

const skip = browserMissing && 'chromium not found';
const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'dashboard');
const TEMPORARY = mkdtempSync(join(tmpdir(), 'staykit-dashboard-units-shots-'));
/** Where the screenshots docs/dashboard.md shows go: the docs when asked to update them, else next to the others. */
const SCREENSHOTS = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1' ? DOCS : TEMPORARY;
console.log(`# screenshots: ${TEMPORARY}`);

const browser = fileBrowser();

/** A small JPEG drawn by sharp: a sky, a row of canal houses and water, in the colours given. */
const photo = (sky: string, houses: string, water: string) => sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="427">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky}"/><stop offset="1" stop-color="#fff"/></linearGradient></defs>
  <rect width="640" height="427" fill="url(#sky)"/>
  ${[0, 1, 2, 3, 4, 5, 6, 7].map((index) => `<rect x="${index * 80 + 4}" y="${120 + (index % 3) * 20}" width="72" height="${200 - (index % 3) * 20}" fill="${houses}" opacity="${0.7 + (index % 2) * 0.3}"/>`).join('')}
  <rect y="320" width="640" height="107" fill="${water}"/></svg>`)).jpeg({ quality: 80 }).toBuffer();

/** Dates of next month (UTC): its first and last day, and a Thursday of it with the Sunday after inside it. */
function nextMonth() {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  const thursday = new Date(first);
  while (thursday.getUTCDay() !== 4) thursday.setUTCDate(thursday.getUTCDate() + 1);
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  const plus = (date: Date, days: number) => iso(new Date(date.getTime() + days * 86_400_000));
  const label = (date: Date) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
  return { firstLabel: label(first), lastLabel: label(last), thursday: iso(thursday), friday: plus(thursday, 1), saturday: plus(thursday, 2), sunday: plus(thursday, 3) };
}

forEachBackend('a manager sets up a unit in the dashboard', (ctx) => {
  const session = managerSession(ctx, browser);
  let unitId: string;
  let site: WidgetSite;

  before(async () => {
    if (browserMissing) return;
    site = await widgetSite('Canal Rentals');
  });
  after(() => site?.close());

  it('"Add unit" creates the unit from its details; a refusal shows at its field', { skip }, async () => {
    const { page, api } = session;
    await session.logIn();
    await page.getByRole('link', { name: 'Units and prices', exact: true }).click();
    await page.getByRole('button', { name: 'Add unit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add unit' });
    await dialog.getByRole('button', { name: 'Create unit' }).click();
    // The API's "name.default must be a non-empty string" lands at the English name.
    await dialog.getByText(/^name\.default must be a non-empty string/).waitFor();
    assert.equal(await dialog.getByLabel(/^Name \(English\)/).getAttribute('aria-invalid'), 'true');

    await dialog.getByLabel(/^Name \(English\)/).fill('Canal Flat');
    await dialog.getByLabel('Description (English)').fill('A bright flat on the Prinsengracht, two bedrooms, a view of the water.');
    await dialog.getByRole('tab', { name: 'Dutch' }).click();
    await dialog.getByLabel('Name (Dutch)').fill('Grachtenflat');
    await dialog.getByLabel('Description (Dutch)').fill('Een licht appartement aan de Prinsengracht.');
    await dialog.getByRole('tab', { name: 'German' }).click();
    await dialog.getByLabel('Name (German)').fill('Grachtenwohnung');
    await dialog.getByRole('tab', { name: 'English' }).click();
    await dialog.getByLabel(/^Approximate address/).fill('Prinsengracht, Amsterdam');
    await dialog.getByLabel('Exact address', { exact: true }).fill('Prinsengracht 263, 1016 GV Amsterdam');
    await dialog.getByLabel('Time zone').fill('Europe/Amsterdam');
    await page.getByRole('option', { name: 'Europe/Amsterdam', exact: true }).click();
    await dialog.getByText('Instant booking').click();
    await dialog.getByLabel(/^Latest arrival time/).fill('22:00');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    // Tall enough for the whole form, from its top.
    await page.setViewportSize({ width: 1280, height: 1160 });
    await dialog.getByRole('tab', { name: 'English' }).scrollIntoViewIfNeeded();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: join(SCREENSHOTS, 'units-add.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByRole('button', { name: 'Create unit' }).click();
    await page.getByRole('heading', { name: 'Canal Flat', level: 2 }).first().waitFor();
    unitId = page.url().split('/').at(-1)!;

    const { body: [unit] } = await api<Record<string, unknown>[]>('GET', `/v1/products?id=eq.${unitId}&select=name,description,exact_address,hide_exact_address,timezone,interaction,latest_arrival_time,rent_period`);
    assert.deepEqual(unit, {
      name: { default: 'Canal Flat', nl: 'Grachtenflat', de: 'Grachtenwohnung' },
      description: { default: 'A bright flat on the Prinsengracht, two bedrooms, a view of the water.', nl: 'Een licht appartement aan de Prinsengracht.' },
      exact_address: 'Prinsengracht 263, 1016 GV Amsterdam', hide_exact_address: true, timezone: 'Europe/Amsterdam', interaction: 'book',
      latest_arrival_time: '22:00:00', rent_period: 'nightly',
    });
  });

  it('two photos are uploaded with progress, the second made the cover and described', { skip }, async () => {
    const { page, api } = session;
    const photos = page.getByRole('region', { name: 'Photos' });
    await photos.locator('input[type=file]').setInputFiles([
      { name: 'living-room.jpg', mimeType: 'image/jpeg', buffer: await photo('#7fb2e5', '#8a4b2d', '#2f5d7c') },
      { name: 'canal-view.jpg', mimeType: 'image/jpeg', buffer: await photo('#f2b36b', '#5b3a29', '#3b6e8f') },
    ]);
    const list = photos.getByRole('list', { name: /The unit's photos/ });
    await list.getByRole('listitem').nth(1).locator('img').waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('[aria-label="The unit\'s photos, the cover first"] img')]
      .every((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0));
    // The uploads finish in either order: the canal view goes second (Move down if need be), then becomes the cover.
    const canal = list.getByRole('listitem').filter({ hasText: 'canal-view.jpg' });
    if (await canal.getAttribute('aria-label') === 'Photo 1') await canal.getByRole('button', { name: 'Move down' }).click();
    assert.equal(await canal.getAttribute('aria-label'), 'Photo 2');
    await canal.getByRole('button', { name: 'Make cover' }).click();
    const cover = list.getByRole('listitem', { name: 'Photo 1' });
    assert.equal(await cover.getByText(/\.jpg$/).textContent(), 'canal-view.jpg', 'the cover moved to the front');
    await cover.getByLabel(/^Alt text \(English\)/).fill('The canal seen from the living room');
    await cover.getByLabel(/^Alt text \(Dutch\)/).fill('De gracht vanuit de woonkamer');
    await photos.getByRole('button', { name: 'Save photos' }).click();
    await photos.getByRole('status').filter({ hasText: 'Photos saved.' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    // The section just below the page's sticky header.
    await photos.evaluate((section) => window.scrollTo(0, section.getBoundingClientRect().top + window.scrollY - 80));
    const box = (await photos.boundingBox())!;
    await page.screenshot({ path: join(SCREENSHOTS, 'units-photos.png'), clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16 } });

    const { body: [unit] } = await api<{ images: { media_id: string; alt?: Record<string, string>; cover?: boolean }[] }[]>('GET', `/v1/products?id=eq.${unitId}&select=images`);
    assert.equal(unit!.images.length, 2);
    const { body: media } = await api<{ id: string; filename: string }[]>('GET', `/v1/media?select=id,filename&id=in.(${unit!.images.map((image) => image.media_id).join(',')})`);
    const fileOf = (id: string) => media.find((row) => row.id === id)!.filename;
    assert.deepEqual(unit!.images.map((image) => ({ ...image, media_id: fileOf(image.media_id) })), [
      { media_id: 'canal-view.jpg', alt: { default: 'The canal seen from the living room', nl: 'De gracht vanuit de woonkamer' }, cover: true },
      { media_id: 'living-room.jpg', alt: {} },
    ]);
  });

  it('a rate with a minimum stay, a weekend rate and a cleaning fee are in the quote', { skip }, async () => {
    const { page, api } = session;
    const month = nextMonth();
    await page.getByRole('button', { name: 'Add configuration' }).click();
    const editor = page.getByRole('region', { name: 'New configuration' });
    await editor.getByLabel('Name').fill('All year');
    await editor.getByLabel(/^Minimum stay/).fill('2');
    await editor.getByLabel('Rate from 1 nights and 0 guests').fill('100');
    await editor.getByRole('button', { name: 'Add configuration' }).click();
    await page.getByRole('region', { name: 'All year' }).waitFor();

    // The weekend rate: € 150 on every Friday and Saturday of next month.
    const prices = page.getByRole('region', { name: 'Prices per date' });
    await prices.getByLabel('Dates').click();
    await page.getByRole('dialog', { name: 'Dates' }).getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: month.firstLabel, exact: true }).click();
    await page.getByRole('button', { name: month.lastLabel, exact: true }).click();
    for (const weekday of ['Mon', 'Tue', 'Wed', 'Thu', 'Sun']) await prices.getByLabel(weekday, { exact: true }).uncheck();
    await prices.getByLabel(/^Rate per night/).fill('150');
    await prices.getByRole('button', { name: 'Apply to these dates' }).click();
    await prices.getByRole('table', { name: 'Prices per date' }).waitFor();

    const extras = page.getByRole('region', { name: 'Extras and fees' });
    await extras.getByLabel(/^Name of the extra or fee/).fill('Cleaning');
    await extras.getByLabel(/^Price/).fill('50');
    await extras.getByRole('button', { name: 'Add extra or fee' }).click();
    await extras.getByRole('cell', { name: 'Cleaning', exact: true }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.screenshot({ path: join(TEMPORARY, `units-editor-${ctx.backend}.png`), fullPage: true });

    const quote = await api<{ total: number; nights: { date: string; rate: number }[]; line_items: { item_type: string; name: string; amount: number }[] }>(
      'POST', '/v1/quote', { product_id: unitId, interval: { start: month.thursday, end: month.sunday }, occupancy: {} });
    assert.equal(quote.status, 200, JSON.stringify(quote.body));
    assert.deepEqual(quote.body.nights, [
      { date: month.thursday, rate: 10000 }, { date: month.friday, rate: 15000 }, { date: month.saturday, rate: 15000 },
    ], 'Thursday at the base rate, Friday and Saturday at the weekend rate');
    assert.deepEqual(quote.body.line_items.map(({ item_type, name, amount }) => ({ item_type, name, amount })), [
      { item_type: 'rent', name: 'Rent', amount: 40000 }, { item_type: 'service', name: 'Cleaning', amount: 5000 },
    ]);
    assert.equal(quote.body.total, 45000);
    const oneNight = await api<{ code: string }>('POST', '/v1/quote', { product_id: unitId, interval: { start: month.thursday, end: month.friday }, occupancy: {} });
    assert.equal(oneNight.status, 422, 'the minimum stay of two nights holds');
    assert.equal(oneNight.body.code, 'SK611');
  });

  it('a guest on the manager\'s website books it in the widget: the cover, the weekend rate, the fee', { skip }, async () => {
    const { api, base, pageErrors } = session;
    const month = nextMonth();
    const widget = await api<{ id: string }[]>('POST', '/v1/widgets', { name: 'Canal Rentals website', allowed_origins: [site.origin] });
    assert.equal(widget.status, 201, JSON.stringify(widget.body));
    const listing = await api('POST', '/v1/widget_listings', { widget_id: widget.body[0]!.id, product_id: unitId });
    assert.equal(listing.status, 201, JSON.stringify(listing.body));
    const key = await api<{ key: string }>('POST', '/v1/publishable-keys', { widget_id: widget.body[0]!.id, name: 'Canal Rentals website' });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    site.embed(base, key.body.key);

    const guest = await browser().newContext({ viewport: { width: 1024, height: 900 }, locale: 'en-GB' });
    const guestPage = await guest.newPage();
    guestPage.setDefaultTimeout(15_000);
    guestPage.on('pageerror', (error) => pageErrors.push(`widget: ${error.message}`));
    await guestPage.goto(site.origin);
    const embedded = guestPage.locator('staykit-widget');
    await embedded.getByRole('heading', { name: 'Canal Flat' }).waitFor();
    const cover = embedded.getByRole('region', { name: 'Photos of Canal Flat' }).locator('.slide img').first();
    await cover.evaluate((image: HTMLImageElement) => image.decode());
    assert.equal(await cover.getAttribute('alt'), 'The canal seen from the living room', 'the cover is the photo made the cover');
    assert.ok((await cover.evaluate((image: HTMLImageElement) => image.currentSrc)).startsWith(`${base}/media/`), 'loaded from Staykit');

    await embedded.getByRole('button', { name: 'Next month' }).click();
    const day = (date: string) => embedded.locator(`button[data-date="${date}"]`);
    await day(month.thursday).and(embedded.locator('.available')).waitFor();
    assert.match(await day(month.thursday).getAttribute('aria-label') ?? '', /available.*from €100\.00$/);
    assert.match(await day(month.friday).getAttribute('aria-label') ?? '', /available.*from €150\.00$/, 'the weekend rate');
    assert.match(await day(month.saturday).getAttribute('aria-label') ?? '', /available.*from €150\.00$/);
    await day(month.thursday).click();
    await day(month.sunday).click();
    await embedded.locator('#selection').filter({ hasText: 'selected' }).waitFor();
    await embedded.getByLabel('First name').fill('Ada');
    await embedded.getByLabel(/^E-mail/).first().fill('ada@example.com');
    await embedded.getByRole('button', { name: 'Show price' }).click();
    const quote = embedded.getByRole('region', { name: 'Price' });
    await quote.locator('[data-total]').waitFor();
    assert.deepEqual(await quote.locator('tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent))), [
      ['Rent × 3', '€400.00'], ['Cleaning', '€50.00'], ['Total', '€450.00'],
    ], 'one weekday and two weekend nights, and the cleaning fee');
    await guestPage.screenshot({ path: join(TEMPORARY, `units-widget-quote-${ctx.backend}.png`), fullPage: true });
    const terms = embedded.getByRole('checkbox', { name: /^I accept the booking terms/ });
    if (await terms.count() > 0) await terms.check();
    await embedded.getByRole('button', { name: 'Book now' }).click();
    await embedded.locator('#done').getByText(/Your booking .* is made/).waitFor();
    const reference = /booking (\S+) is made/.exec((await embedded.locator('#done').textContent())!)![1]!;
    const { body: [booking] } = await api<{ widget_id: string; calendar_events: { product_id: string }[] }[]>(
      'GET', `/v1/bookings?reference=eq.${reference}&select=widget_id,calendar_events(product_id)`);
    assert.deepEqual(booking, { widget_id: widget.body[0]!.id, calendar_events: [{ product_id: unitId }] }, 'booked through the widget, for the unit');
    await guest.close();
  });

  it('the unit\'s page previews it as the widget shows it, with the manager\'s session and no publishable key', { skip }, async () => {
    const { page } = session;
    const month = nextMonth();
    const keys: string[] = [];
    page.on('request', (request) => { if (request.headers().authorization) keys.push(request.url()); });
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByRole('button', { name: 'Refresh preview' }).click(); // the booking above came after the page loaded
    const shown = preview.locator('staykit-widget');
    await shown.getByRole('heading', { name: 'Canal Flat' }).waitFor();
    const cover = shown.locator('.slide img').first();
    await cover.evaluate((image: HTMLImageElement) => image.decode());
    assert.equal(await cover.getAttribute('alt'), 'The canal seen from the living room');
    assert.equal(await shown.locator('.description').textContent(), 'A bright flat on the Prinsengracht, two bedrooms, a view of the water.');
    await shown.getByRole('button', { name: 'Next month' }).click();
    const day = (date: string) => shown.locator(`button[data-date="${date}"]`);
    await day(month.friday).waitFor();
    assert.match(await day(month.thursday).getAttribute('aria-label') ?? '', /, not available/, 'the guest\'s booking holds the Thursday');
    const after = new Date(Date.parse(month.friday) + 7 * 86_400_000).toISOString().slice(0, 10);
    assert.match(await day(after).getAttribute('aria-label') ?? '', /available.*from €150\.00$/, 'the weekend rate');
    await shown.getByText('Preview: on your website guests get the price here and book.').waitFor();
    assert.equal(await shown.getByRole('button', { name: 'Show price' }).count(), 0, 'the preview neither quotes nor books');
    assert.deepEqual(keys, [], 'no request carries a key: the session reads the preview');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await preview.evaluate((section) => window.scrollTo(0, section.getBoundingClientRect().top + window.scrollY - 80));
    const box = (await preview.boundingBox())!;
    await page.screenshot({ path: join(SCREENSHOTS, 'units-preview.png'), clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: Math.min(box.height + 16, 1400) } });
  });

  it('a cleaning task after departure, assigned to a member', { skip }, async () => {
    const { page, api } = session;
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.getByLabel(/^Hours/).fill('2');
    await tasks.getByLabel('Assigned to').click();
    await page.getByRole('option', { name: /\(owner\)$/ }).first().click();
    await tasks.getByRole('button', { name: 'Add task' }).click();
    await tasks.getByRole('cell', { name: '2 h after departure' }).waitFor();
    const { body } = await api<{ label: string; schedule: string; offset_minutes: number; assignee_id: string | null }[]>(
      'GET', `/v1/product_tasks?product_id=eq.${unitId}&select=label,schedule,offset_minutes,assignee_id`);
    assert.equal(body.length, 1);
    assert.deepEqual({ ...body[0], assignee_id: typeof body[0]!.assignee_id }, { label: 'Cleaning', schedule: 'departure', offset_minutes: 120, assignee_id: 'string' });
  });

  it('duplicating copies the unit\'s prices, fee and task; archiving hides it from the list', { skip }, async () => {
    const { page, api } = session;
    await page.getByRole('button', { name: 'Duplicate unit' }).click();
    await page.getByRole('heading', { name: 'Canal Flat (copy)', level: 2 }).first().waitFor();
    await page.getByRole('region', { name: 'All year' }).waitFor();
    await page.getByRole('region', { name: 'Extras and fees' }).getByRole('cell', { name: 'Cleaning', exact: true }).waitFor();
    const copyId = page.url().split('/').at(-1)!;
    assert.notEqual(copyId, unitId);
    const { body: [copy] } = await api<{ images: unknown[] }[]>('GET', `/v1/products?id=eq.${copyId}&select=images`);
    assert.equal(copy!.images.length, 2, 'the copy shows the same photos');
    const { body: copiedTasks } = await api<{ label: string }[]>('GET', `/v1/product_tasks?product_id=eq.${copyId}&select=label`);
    assert.deepEqual(copiedTasks, [{ label: 'Cleaning' }]);

    await page.getByRole('button', { name: 'Archive unit' }).click();
    await page.getByRole('button', { name: 'Yes, archive unit' }).click();
    await page.getByText('archived', { exact: true }).waitFor();
    await page.getByRole('link', { name: '← Units and prices' }).click();
    await page.getByRole('link', { name: 'Canal Flat', exact: true }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Canal Flat (copy)' }).count(), 0, 'archived units are hidden');
    await page.getByLabel('Show archived units').check();
    await page.getByRole('link', { name: 'Canal Flat (copy)' }).waitFor();
  });
});
