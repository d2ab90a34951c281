/**
 * Every page of the dashboard in Dutch, in a real browser (chromium through playwright-core), on both backends: the
 * demo owner picks Nederlands and opens each page of the navigation, a booking, a unit and a widget
 * (./support/tour.ts). On each, no text the page shows — text nodes and the attributes people read (`aria-label`,
 * `placeholder`, `title`, `alt`) — is one of the dashboard's English texts that has a Dutch translation
 * (web/dashboard/src/i18n/resources.ts), and axe finds no serious or critical violation. With
 * STAYKIT_UPDATE_SCREENSHOTS=1 each page's screenshot is written to docs/dashboard/nl/ for docs/dashboard.md's
 * gallery; otherwise to a temporary folder named in the output. The same pages in English: ./english-tour.test.ts.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';
import { englishShown } from './support/dutch.js';
import { fileOf, screenshot, tour } from './support/tour.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1'
  ? join(import.meta.dirname, '..', '..', 'docs', 'dashboard', 'nl')
  : mkdtempSync(join(tmpdir(), 'staykit-dashboard-dutch-tour-shots-'));
mkdirSync(SCREENSHOTS, { recursive: true });
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

forEachBackend('every dashboard page in Dutch', (ctx) => {
  const session = dashboardSession(ctx, browser);

  it('in Dutch no English text of the dashboard is left on any page, and axe finds nothing serious', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
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
