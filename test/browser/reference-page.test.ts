/**
 * The reference page in a real browser: Debian's chromium driven by playwright-core. Loads /docs (one tag's
 * document at a time), picks the bookings resource in the top bar, authorizes with an API key and runs "Try it out"
 * against this server, and takes screenshots (kept in a temp folder, named in the test output). Prints how long the
 * page took to become usable (bench/reference-page.ts measures it; reported, not asserted). Skipped with a message
 * when /usr/bin/chromium is absent (CI installs it: see .ci/run).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserMissing } from '../support/browser-required.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, openReferencePage, switchToTag } from '../../bench/reference-page.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';

const missing = browserMissing(CHROMIUM, 'browser test');
// CI (and anyone who sets STAYKIT_TEST_REQUIRE_BROWSER=1) must run the browser test: a missing browser fails it.

let testDb: TestDatabase;
let app: FastifyInstance;
let browser: Browser;
let base: string;
let org: TestOrganization;
let shots: string;

before(async () => {
  if (missing) return;
  testDb = await createTestDatabase('pglite');
  app = await startApp(testDb.db);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  org = await createOrganization(testDb.db, 'browser');
  await fixtures(testDb.db, org.id).product({ name: { default: 'Dune cottage' } });
  shots = await mkdtemp(join(tmpdir(), 'staykit-docs-'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await app?.close();
  await testDb?.drop();
});

it('the /docs page shows one tag at a time, finds bookings, and "Try it out" works against this server', { skip: missing && `${CHROMIUM} not found` }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(60_000);
  const failed: string[] = [];
  page.on('requestfailed', (request) => failed.push(request.url()));
  const external: string[] = [];
  page.on('request', (request) => { if (!request.url().startsWith(base) && !request.url().startsWith('data:')) external.push(request.url()); });

  const arrival = await openReferencePage(page, base);
  console.log(`# usable on arrival (first operation open with its parameters): ${arrival} ms`);
  await page.locator('.swagger-ui .info .title').filter({ hasText: 'Staykit API' }).waitFor();
  const definitions = await page.locator('.topbar select option').allTextContents();
  assert.equal(definitions[0], 'booking flow');
  assert.ok(definitions.includes('bookings') && definitions.includes('products') && definitions.includes('operations'), definitions.join(', '));

  // The bookings resource: its own definition, with exactly its methods.
  const toBookings = await switchToTag(page, 'bookings', 'list_bookings');
  console.log(`# bookings picked in the top bar, its list operation open with its parameters: ${toBookings} ms`);
  const methods = await page.locator('[id^="operations-bookings-"] .opblock-summary-method').allTextContents();
  assert.deepEqual(methods.sort(), ['DELETE', 'GET', 'PATCH']);
  assert.equal(await page.locator('[id^="operations-products-"]').count(), 0, 'one tag at a time');
  await page.locator('#operations-tag-bookings').evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(shots, 'bookings.png') });

  // Authorize with an API key.
  await page.locator('.scheme-container .btn.authorize').click();
  const dialog = page.locator('.dialog-ux .modal-ux');
  await dialog.locator('input').first().fill(org.key);
  await dialog.locator('button.authorize').click();
  await dialog.locator('button.btn-done').click();

  // Try it out: list products, in the products definition (the key entered above is kept).
  await page.locator('.topbar select').selectOption({ label: 'products' });
  const list = page.locator('#operations-products-list_products');
  await list.locator('.opblock-summary').click();
  await list.locator('button.try-out__btn').click();
  await list.locator('button.execute').click();
  const status = list.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor();
  const body = await list.locator('.live-responses-table .response-col_description pre').first().textContent();
  const url = await list.locator('.request-url pre').first().textContent().catch(() => '');
  assert.equal((await status.textContent())?.trim(), '200', `${url}\n${body}`);
  assert.match(body ?? '', /Dune cottage/);
  await list.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, 'try-it.png'), fullPage: false });
  console.log(`# screenshots: ${join(shots, 'bookings.png')} ${join(shots, 'try-it.png')}`);

  assert.deepEqual(external, [], 'no request leaves this server (no CDN)');
  assert.deepEqual(failed, []);
  await page.close();
});
