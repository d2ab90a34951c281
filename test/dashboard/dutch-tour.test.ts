/**
 * Every page of the dashboard in Dutch, in a real browser (chromium through playwright-core), on both backends: the
 * demo owner picks Nederlands and opens each page of the navigation, a booking, a unit and a widget. On each, no text
 * the page shows — text nodes and the attributes people read (`aria-label`, `placeholder`, `title`, `alt`) — is one
 * of the dashboard's English texts that has a Dutch translation (web/dashboard/src/i18n/resources.ts), and axe finds
 * no serious or critical violation. With STAYKIT_UPDATE_SCREENSHOTS=1 each page's screenshot is written to
 * docs/dashboard/nl/; otherwise to a temporary folder named in the output.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';
import { englishShown } from './support/dutch.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1'
  ? join(import.meta.dirname, '..', '..', 'docs', 'dashboard', 'nl')
  : mkdtempSync(join(tmpdir(), 'staykit-dashboard-dutch-tour-shots-'));
mkdirSync(SCREENSHOTS, { recursive: true });
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

forEachBackend('every dashboard page in Dutch', (ctx) => {
  const session = dashboardSession(ctx, browser);

  it('no English text of the dashboard is left on any page, and axe finds nothing serious', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
    await page.getByLabel('Language').selectOption('nl');
    const navigation = page.getByRole('navigation');
    await navigation.getByRole('link', { name: 'Boekingen', exact: true }).waitFor();

    const links = await navigation.getByRole('link').evaluateAll((anchors) => anchors.map((anchor) => ({
      name: anchor.textContent!.trim(), path: new URL((anchor as HTMLAnchorElement).href).pathname,
    })));
    assert.ok(links.length >= 15, `the owner sees every page (${links.length})`);

    const firstHref = async (pathPattern: RegExp) => {
      for (const anchor of await page.locator('main a[href]').all()) {
        const path = new URL(await anchor.getAttribute('href') ?? '', session.base).pathname;
        if (pathPattern.test(path)) return path;
      }
      return undefined;
    };
    const visits = [...links];
    const problems: string[] = [];
    for (let index = 0; index < visits.length; index += 1) {
      const { name, path } = visits[index]!;
      await page.goto(`${session.base}${path}`);
      await page.locator('main h2, main h1').first().waitFor();
      // Sections load on their own: wait until no loader is left.
      await page.waitForFunction(() => document.querySelectorAll('main [role="status"]').length === 0, undefined, { timeout: 30_000 }).catch(() => undefined);
      await page.waitForLoadState('networkidle');
      const english = await englishShown(page);
      if (english.length > 0) problems.push(`${name} (${path}): ${english.join(' | ')}`);
      const violations = await seriousAccessibilityViolations(page);
      if (violations.length > 0) problems.push(`${name} (${path}) axe: ${violations.map((violation) => `${violation.id} ${JSON.stringify(violation.nodes)}`).join('; ')}`);
      const file = path.replace(/^\/admin\/?/, '').replace(/\/[0-9a-f-]{36}$/, '-one').replace(/\//g, '-') || 'calendar';
      // A palette PNG: a third of the bytes, and the text as sharp (docs/dashboard/nl is committed).
      await sharp(await page.screenshot({ fullPage: true })).png({ palette: true, quality: 80, compressionLevel: 9 }).toFile(join(SCREENSHOTS, `${file}.png`));
      // From the lists, one booking, one unit and one widget too.
      for (const [list, detail] of [['/admin/bookings', /^\/admin\/bookings\/[0-9a-f-]{36}$/], ['/admin/units', /^\/admin\/units\/[0-9a-f-]{36}$/],
        ['/admin/widgets', /^\/admin\/widgets\/[0-9a-f-]{36}$/]] as const) {
        if (path !== list) continue;
        const found = await firstHref(detail);
        if (found) visits.push({ name: `${name}: one`, path: found });
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(visits.some((visit) => /^\/admin\/bookings\/./.test(visit.path)), 'a booking was opened');
    assert.ok(visits.some((visit) => /^\/admin\/units\/./.test(visit.path)), 'a unit was opened');
  });
});

