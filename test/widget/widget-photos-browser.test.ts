/**
 * The unit's photos, description and key facts in the booking widget, in a real browser (Debian's chromium through
 * playwright-core), on both backends, embedded by a page served from another origin than Staykit's: a unit with two
 * photos uploaded through POST /v1/media shows its cover first (loaded, at a width picked from the variants for a
 * phone, as AVIF), the second photo waiting lazily; a touch swipe brings the second photo (loaded, announced), the
 * arrow keys and buttons move between them; the description and the facts (guests, bedrooms, latest arrival) are
 * shown in the visitor's language; then the guest books. axe-core finds no serious or critical violation.
 * Screenshots go to a temporary folder named in the output; with STAYKIT_UPDATE_SCREENSHOTS=1 the PGlite run also
 * rewrites docs/widget/photos.png and docs/widget/photos-phone.png. Skipped with a message when /usr/bin/chromium is
 * absent, unless STAYKIT_TEST_REQUIRE_BROWSER=1.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { ComputePool } from '../../src/compute/pool.js';
import { computePoolOptions } from '../../src/compute/process-pool.js';
import { loadConfig } from '../../src/config.js';
import { FolderStore } from '../../src/media/folder-store.js';
import { drawDemoPhotos } from '../../src/seed/demo-photos.js';
import { browserMissing } from '../support/browser-required.js';
import { forEachBackend } from '../support/databases.js';
import { insert } from '../support/fixtures.js';
import { bearer, startApp } from '../support/app.js';
import { publishableKeyFor, widgetOrganization, type WidgetOrganization } from './support.js';

const CHROMIUM = process.env.STAYKIT_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const missing = browserMissing(CHROMIUM, 'widget photos browser test');
const skip = missing && `${CHROMIUM} not found`;
const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-widget-photos-shots-'));
const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'widget');
const updateScreenshots = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1';
console.log(`# screenshots: ${SCREENSHOTS}`);

const DESCRIPTION = {
  default: 'A bright family house on the beach boulevard, the sea in front of the living room window.\nA sunny terrace sheltered from the wind and a garden shower for after the beach.',
  nl: 'Een licht familiehuis aan de boulevard, met de zee voor het raam van de woonkamer.\nEen zonnig terras uit de wind en een tuindouche voor na het strand.',
};
const OUTSIDE = { default: 'The house from outside', nl: 'Het huis van buiten' };
const LIVING = { default: 'The living room', nl: 'De woonkamer' };

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }> } }).axe;
    return axe.run();
  });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** The image of slide `index` (0: the first shown) as the browser has it. */
function slideImage(widget: Locator, index: number) {
  return widget.locator('.slide img').nth(index).evaluate((img: HTMLImageElement) => ({
    loaded: img.complete && img.naturalWidth > 0, naturalWidth: img.naturalWidth, currentSrc: img.currentSrc, alt: img.alt, loading: img.loading,
  }));
}

async function waitLoaded(widget: Locator, index: number): Promise<void> {
  await widget.locator('.slide img').nth(index).evaluate((img: HTMLImageElement) => img.decode());
}

/** Waits until the gallery stops scrolling (a swipe or a button's smooth scroll ends on a snap point); its slide. */
async function settledSlide(widget: Locator): Promise<number> {
  for (let last = -1; ;) {
    const [left, width] = await widget.locator('.slides').evaluate((slides: HTMLElement) => [slides.scrollLeft, slides.getBoundingClientRect().width]);
    if (left === last) return left! / width!;
    last = left!;
    await new Promise((resolve) => setTimeout(resolve, 150)); // an animation frame or ten: the browser's time, not ours
  }
}

let browser: Browser;
before(async () => {
  if (missing) return;
  execFileSync(process.execPath, ['scripts/build-web.js', 'widget'], { stdio: 'ignore' });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});
after(() => browser?.close());

forEachBackend('the widget\'s photos in a browser', (ctx) => {
  let app: FastifyInstance;
  let compute: ComputePool;
  let folder: string;
  let staykit: string;
  let org: WidgetOrganization;
  let key: string;
  let site: { server: Server; origin: string };
  const media: string[] = [];

  before(async () => {
    if (missing) return;
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Seaside Rentals</title><style>body{margin:0;font-family:Georgia,serif;background:#f8fafc}main{max-width:46rem;margin:0 auto;padding:1rem}</style></head>
<body><main><h1>Seaside Rentals</h1><script src="${staykit}/widget.js"></script><staykit-widget key="${key}"></staykit-widget></main></body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    // Resizing a photo takes about a second of a core; on a machine loaded by other test files it may take many.
    compute = new ComputePool(computePoolOptions(loadConfig({})));
    folder = await mkdtemp(join(tmpdir(), 'staykit-widget-photos-media-'));
    app = await startApp(ctx.db, { compute, mediaStore: new FolderStore(folder) });
    staykit = await app.listen({ port: 0, host: '127.0.0.1' });
    const year = new Date().getUTCFullYear();
    org = await widgetOrganization(ctx.db, 'Seaside Rentals', [site.origin], `{[${year - 1}-01-01,${year + 3}-01-01)}`);
    key = await publishableKeyFor(app, org.secretKey, org.widget);
    // Two photos as a manager uploads them; the outside view, listed second, is the cover.
    const [outside, living] = await drawDemoPhotos('beach');
    for (const photo of [living!, outside!]) {
      const uploaded = await app.inject({ method: 'POST', url: '/v1/media', headers: { ...bearer(org.secretKey), 'content-type': 'image/jpeg' }, payload: photo });
      assert.equal(uploaded.statusCode, 201, uploaded.body);
      media.push(uploaded.json<{ id: string }>().id);
    }
    const patched = await app.inject({
      method: 'PATCH', url: `/v1/products?id=eq.${org.listed}`, headers: bearer(org.secretKey),
      payload: { images: [{ media_id: media[0], alt: LIVING }, { media_id: media[1], alt: OUTSIDE, cover: true }], description: DESCRIPTION, latest_arrival_time: '21:00' },
    });
    assert.equal(patched.statusCode, 204, patched.body);
    const bedrooms = await insert(ctx.db, 'attributes', { organization_id: org.id, name: { default: 'Bedrooms', nl: 'Slaapkamers' } });
    const three = await insert(ctx.db, 'attribute_options', { organization_id: org.id, attribute_id: bedrooms.id, name: { default: '3' } });
    await insert(ctx.db, 'product_attribute_options', { organization_id: org.id, product_id: org.listed, attribute_option_id: three.id });
  });
  after(async () => {
    site?.server.close();
    await app?.close();
    await compute?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('on a phone: the cover loads first, a swipe brings the second photo, the keys step back; the facts are shown; the guest books', { skip }, async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true, locale: 'en-GB' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const images: string[] = [];
    page.on('requestfinished', (request) => { if (request.url().includes('/media/')) images.push(request.url()); });
    await page.goto(site.origin);
    const widget = page.locator('staykit-widget');
    await widget.getByRole('heading', { name: 'Choose your dates' }).waitFor();

    // The cover first, loaded from Staykit's origin (not the page's), the width picked for 390 CSS px at 2x: 800 AVIF.
    await waitLoaded(widget, 0);
    const cover = await slideImage(widget, 0);
    assert.equal(cover.loaded, true);
    assert.equal(cover.alt, 'The house from outside');
    assert.equal(cover.loading, 'auto');
    assert.match(cover.currentSrc, new RegExp(`^${staykit}/media/[0-9a-f]{32}/800\\.avif$`));
    const second = await slideImage(widget, 1);
    assert.equal(second.alt, 'The living room');
    assert.equal(second.loading, 'lazy');
    const gallery = widget.getByRole('region', { name: 'Photos of Dune House' });
    assert.equal(await gallery.locator('.photo-count').textContent(), '1 / 2');
    assert.equal(await gallery.getByRole('button', { name: 'Previous photo' }).isVisible(), false);
    assert.deepEqual(await widget.locator('.facts li').allTextContents(), ['Up to 6 guests', 'Bedrooms: 3', 'Check-in until 9:00 PM']);
    assert.equal(await widget.locator('.description').textContent(), DESCRIPTION.default);
    await page.screenshot({ path: join(SCREENSHOTS, `widget-photos-phone-${ctx.backend}.png`) });
    if (updateScreenshots && ctx.backend === 'pglite') await page.screenshot({ path: join(DOCS, 'photos-phone.png') });

    // A swipe to the left, as a finger does it, shows the second photo, loaded and announced.
    const box = (await widget.locator('.slides').boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const [x, y] = [Math.round(box.x + box.width * 0.8), Math.round(box.y + box.height / 2)];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let step = 1; step <= 12; step++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x - step * 20, y }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await gallery.locator('.photo-count').filter({ hasText: '2 / 2' }).waitFor();
    assert.ok(Math.abs(await settledSlide(widget) - 1) < 0.01, 'the second photo fills the frame');
    await waitLoaded(widget, 1);
    const swiped = await slideImage(widget, 1);
    assert.equal(swiped.loaded, true);
    assert.ok(swiped.naturalWidth > 0);
    assert.equal(await gallery.locator('[data-photo-status]').textContent(), 'Photo 2 of 2');
    assert.equal(await gallery.getByRole('button', { name: 'Next photo' }).isVisible(), false);
    await page.screenshot({ path: join(SCREENSHOTS, `widget-photos-swiped-${ctx.backend}.png`) });

    // The keyboard: the gallery takes the focus, the arrow keys move between the photos; so do the buttons.
    await widget.locator('.slides').focus();
    await page.keyboard.press('ArrowLeft');
    await gallery.locator('.photo-count').filter({ hasText: '1 / 2' }).waitFor();
    await page.keyboard.press('End');
    await gallery.locator('.photo-count').filter({ hasText: '2 / 2' }).waitFor();
    await gallery.getByRole('button', { name: 'Previous photo' }).click();
    await gallery.locator('.photo-count').filter({ hasText: '1 / 2' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);

    // And the stay is booked as before.
    await widget.locator('td button[tabindex="0"]').focus();
    await page.keyboard.press('Enter');
    await widget.locator('#selection').filter({ hasText: 'Now choose a checkout day' }).waitFor();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await widget.locator('#selection').filter({ hasText: 'selected' }).waitFor();
    await widget.getByLabel(/^Adults/).fill('2');
    await widget.getByLabel('First name').fill('Ada');
    await widget.getByLabel(/^E-mail/).first().fill('ada@example.com');
    await widget.getByRole('button', { name: 'Show price' }).click();
    await widget.locator('#quote [data-total]').waitFor();
    await widget.getByRole('button', { name: 'Book now' }).click();
    await widget.locator('#done').getByText(/Your booking .* is made/).waitFor();
    const reference = /booking (\S+) is made/.exec((await widget.locator('#done').textContent())!)![1]!;
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api.bookings WHERE organization_id = $1 AND reference = $2', [org.id, reference]);
    assert.equal(rows[0]!.n, 1);
    assert.ok(images.every((url) => url.startsWith(`${staykit}/media/`)), 'photos come from Staykit');
    await context.close();
  });

  it('on a desktop, in Dutch: the cover at the width of the widget, the description and the facts in Dutch', { skip }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'nl-NL' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(site.origin);
    const widget = page.locator('staykit-widget');
    await widget.getByRole('heading', { name: 'Kies je data' }).waitFor();
    await waitLoaded(widget, 0);
    const cover = await slideImage(widget, 0);
    assert.equal(cover.alt, 'Het huis van buiten');
    assert.match(cover.currentSrc, /\/800\.avif$/);
    assert.equal(await widget.getByRole('region', { name: 'Foto\'s van Duinhuis' }).count(), 1);
    assert.deepEqual(await widget.locator('.facts li').allTextContents(), ['Maximaal 6 gasten', 'Slaapkamers: 3', 'Aankomst tot 21:00']);
    assert.equal(await widget.locator('.description').textContent(), DESCRIPTION.nl);
    await widget.getByRole('button', { name: 'Volgende foto' }).click();
    await widget.locator('.photo-count').filter({ hasText: '2 / 2' }).waitFor();
    await waitLoaded(widget, 1);
    assert.equal((await slideImage(widget, 1)).alt, 'De woonkamer');
    await widget.getByRole('button', { name: 'Vorige foto' }).click();
    await widget.locator('.photo-count').filter({ hasText: '1 / 2' }).waitFor();
    assert.ok(Math.abs(await settledSlide(widget)) < 0.01, 'the cover fills the frame again');
    await page.screenshot({ path: join(SCREENSHOTS, `widget-photos-desktop-nl-${ctx.backend}.png`) });
    if (updateScreenshots && ctx.backend === 'pglite') await page.screenshot({ path: join(DOCS, 'photos.png') });
    await context.close();
  });
});
