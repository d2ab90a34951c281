/**
 * Every page of the dashboard, in a real browser (chromium through playwright-core), on both backends: the demo owner
 * opens each page of the navigation, a booking, a unit and a widget — first in English, where no page shows a message
 * key instead of its text, then in Dutch (Nederlands picked in the menu), where no text the page shows — text nodes
 * and the attributes people read (`aria-label`, `placeholder`, `title`, `alt`) — is one of the dashboard's English
 * texts that has a Dutch translation (web/dashboard/src/i18n/resources.ts), and axe finds no serious or critical
 * violation. With STAYKIT_UPDATE_SCREENSHOTS=1 each page's screenshot is written to docs/dashboard/pages/ (English)
 * and docs/dashboard/nl/ (Dutch), for docs/dashboard.md's gallery; otherwise the Dutch ones go to a temporary folder
 * named in the output.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { loadEventCatalogue } from '../../src/webhooks/catalogue.js';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';
import { englishShown, keysShown } from './support/dutch.js';

const skip = browserMissing && 'chromium not found';
const updateScreenshots = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1';
const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'dashboard');
const SCREENSHOTS = updateScreenshots ? join(DOCS, 'nl') : mkdtempSync(join(tmpdir(), 'staykit-dashboard-dutch-tour-shots-'));
mkdirSync(SCREENSHOTS, { recursive: true });
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

interface Visit {
  name: string;
  path: string;
}

/** A page's screenshot file name: `bookings`, `bookings-one` (a booking), `calendar` (/admin/). */
const fileOf = (path: string) => path.replace(/^\/admin\/?/, '').replace(/\/[0-9a-f-]{36}$/, '-one').replace(/\//g, '-') || 'calendar';

/** A palette PNG of the whole page: a third of the bytes, and the text as sharp (the docs' copies are committed). */
async function screenshot(page: Page, file: string) {
  await sharp(await page.screenshot({ fullPage: true })).png({ palette: true, quality: 80, compressionLevel: 9 }).toFile(file);
}

/**
 * Opens each page of the navigation, and from the lists one booking, one unit and one widget, in the language the
 * page is read in, and calls `check` on each once its sections have loaded. Returns the pages visited.
 */
async function tour(page: Page, base: string, check: (visit: Visit) => Promise<void>): Promise<Visit[]> {
  const links = await page.getByRole('navigation').getByRole('link').evaluateAll((anchors) => anchors.map((anchor) => ({
    name: anchor.textContent!.trim(), path: new URL((anchor as HTMLAnchorElement).href).pathname,
  })));
  assert.ok(links.length >= 15, `the owner sees every page (${links.length})`);
  const firstHref = async (pathPattern: RegExp) => {
    for (const anchor of await page.locator('main a[href]').all()) {
      const path = new URL(await anchor.getAttribute('href') ?? '', base).pathname;
      if (pathPattern.test(path)) return path;
    }
    return undefined;
  };
  const visits = [...links];
  for (let index = 0; index < visits.length; index += 1) {
    const visit = visits[index]!;
    await page.goto(`${base}${visit.path}`);
    await page.locator('main h2, main h1').first().waitFor();
    // Sections load on their own: wait until no loader is left.
    await page.waitForFunction(() => document.querySelectorAll('main [role="status"]').length === 0, undefined, { timeout: 30_000 }).catch(() => undefined);
    await page.waitForLoadState('networkidle');
    await check(visit);
    for (const [list, detail] of [['/admin/bookings', /^\/admin\/bookings\/[0-9a-f-]{36}$/], ['/admin/units', /^\/admin\/units\/[0-9a-f-]{36}$/],
      ['/admin/widgets', /^\/admin\/widgets\/[0-9a-f-]{36}$/]] as const) {
      if (visit.path !== list) continue;
      const found = await firstHref(detail);
      if (found) visits.push({ name: `${visit.name}: one`, path: found });
    }
  }
  assert.ok(visits.some((visit) => /^\/admin\/bookings\/./.test(visit.path)), 'a booking was opened');
  assert.ok(visits.some((visit) => /^\/admin\/units\/./.test(visit.path)), 'a unit was opened');
  return visits;
}

forEachBackend('every dashboard page, in English and in Dutch', (ctx) => {
  const session = dashboardSession(ctx, browser);

  it('in English no page shows a message key instead of its text', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
    const problems: string[] = [];
    // Webhook event names (`payments.paid`) are written like keys; the webhooks page shows them as they are.
    const eventNames = new Set((await loadEventCatalogue(ctx.db)).map((event) => event.name));
    if (updateScreenshots) mkdirSync(join(DOCS, 'pages'), { recursive: true });
    await tour(page, session.base, async ({ name, path }) => {
      const keys = (await keysShown(page)).filter((key) => !eventNames.has(key));
      if (keys.length > 0) problems.push(`${name} (${path}): ${keys.join(' | ')}`);
      if (updateScreenshots && ctx.backend === 'pglite') await screenshot(page, join(DOCS, 'pages', `${fileOf(path)}.png`));
    });
    assert.deepEqual(problems, []);
  });

  it('in Dutch no English text of the dashboard is left on any page, and axe finds nothing serious', { skip }, async () => {
    const { page } = session;
    await page.goto(`${session.base}/admin/`);
    await page.getByLabel('Language').selectOption('nl');
    await page.getByRole('navigation').getByRole('link', { name: 'Boekingen', exact: true }).waitFor();
    const problems: string[] = [];
    await tour(page, session.base, async ({ name, path }) => {
      const english = await englishShown(page);
      if (english.length > 0) problems.push(`${name} (${path}): ${english.join(' | ')}`);
      const violations = await seriousAccessibilityViolations(page);
      if (violations.length > 0) problems.push(`${name} (${path}) axe: ${violations.map((violation) => `${violation.id} ${JSON.stringify(violation.nodes)}`).join('; ')}`);
      await screenshot(page, join(SCREENSHOTS, `${fileOf(path)}.png`));
    });
    assert.deepEqual(problems, []);
  });
});
