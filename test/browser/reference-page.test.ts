/**
 * The reference page in a real browser: Debian's chromium driven by playwright-core. Loads /docs, finds the
 * bookings resource, authorizes with an API key and runs "Try it out" against this server, and takes screenshots
 * (kept in a temp folder, named in the test output). Skipped with a message when /usr/bin/chromium is absent
 * (CI installs it: see .ci/run).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization, startApp, type TestOrganization } from '../support/app.js';

const CHROMIUM = process.env.STAYKIT_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];
const missing = !existsSync(CHROMIUM);
// CI (and anyone who sets STAYKIT_TEST_REQUIRE_BROWSER=1) must run the browser test: a missing browser fails it.
if (missing && process.env.STAYKIT_TEST_REQUIRE_BROWSER === '1') throw new Error(`${CHROMIUM} not found, and STAYKIT_TEST_REQUIRE_BROWSER=1 requires it`);
if (missing) console.log(`# skipping the browser test: ${CHROMIUM} not found (install it with: apt-get install -y chromium)`);

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
  await testDb.db.query(
    `INSERT INTO api.products (organization_id, name, rent_period, timezone) VALUES ($1, '{"default": "Dune cottage"}', 'nightly', 'Europe/Amsterdam')`,
    [org.id],
  );
  shots = await mkdtemp(join(tmpdir(), 'staykit-docs-'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

after(async () => {
  await browser?.close();
  await app?.close();
  await testDb?.drop();
});

it('the /docs page renders the API, finds bookings, and "Try it out" works against this server', { skip: missing && `${CHROMIUM} not found` }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  // Swagger UI 5 renders OpenAPI 3.1 documents slowly (swagger-ui#10250): allow minutes on a small CI machine.
  page.setDefaultTimeout(180_000);
  const failed: string[] = [];
  page.on('requestfailed', (request) => failed.push(request.url()));
  const external: string[] = [];
  page.on('request', (request) => { if (!request.url().startsWith(base) && !request.url().startsWith('data:')) external.push(request.url()); });

  const t0 = Date.now();
  const mark = (what: string) => console.log(`# ${what}: ${Date.now() - t0} ms`);
  await page.goto(`${base}/docs`);
  mark('page loaded');
  await page.locator('.swagger-ui .info .title').filter({ hasText: 'Staykit API' }).waitFor({ timeout: 180_000 });

  // The bookings resource: its tag section, with exactly its methods.
  mark('rendered');
  const tag = page.locator('#operations-tag-bookings');
  await tag.waitFor();
  await tag.scrollIntoViewIfNeeded();
  await tag.click();
  const operations = page.locator('[id^="operations-bookings-"]');
  await operations.first().waitFor();
  const methods = await page.locator('[id^="operations-bookings-"] .opblock-summary-method').allTextContents();
  assert.deepEqual(methods.sort(), ['DELETE', 'GET', 'PATCH']);
  await tag.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(shots, 'bookings.png') });

  mark('bookings found');
  // Authorize with an API key.
  await page.locator('.scheme-container .btn.authorize').click();
  const dialog = page.locator('.dialog-ux .modal-ux');
  await dialog.locator('input').first().fill(org.key);
  await dialog.locator('button.authorize').click();
  await dialog.locator('button.btn-done').click();

  // Try it out: list products.
  await page.locator('#operations-tag-products').click();
  const list = page.locator('#operations-products-list_products');
  await list.locator('.opblock-summary').click();
  await list.locator('button.try-out__btn').click();
  await list.locator('button.execute').click();
  mark('executed');
  const status = list.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 180_000 });
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
