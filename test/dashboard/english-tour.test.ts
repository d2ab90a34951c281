/**
 * Every page of the dashboard in English, in a real browser (chromium through playwright-core), on both backends:
 * the demo owner opens each page of the navigation, a booking, a unit and a widget (./support/tour.ts), and no page
 * shows a message key in place of its text (what i18next shows for a text that is missing). With
 * STAYKIT_UPDATE_SCREENSHOTS=1 each page's screenshot is written to docs/dashboard/pages/ for docs/dashboard.md's
 * gallery. The same pages in Dutch: ./dutch-tour.test.ts.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadEventCatalogue } from '../../src/webhooks/catalogue.js';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';
import { keysShown } from './support/dutch.js';
import { fileOf, screenshot, tour } from './support/tour.js';

const skip = browserMissing && 'chromium not found';
const PAGES = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1' ? join(import.meta.dirname, '..', '..', 'docs', 'dashboard', 'pages') : null;
if (PAGES) mkdirSync(PAGES, { recursive: true });

const browser = fileBrowser();

forEachBackend('every dashboard page in English', (ctx) => {
  const session = dashboardSession(ctx, browser);

  it('no page shows a message key instead of its text', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
    const problems: string[] = [];
    // Webhook event names (`payments.paid`) are written like keys; the webhooks page shows them as they are.
    const eventNames = new Set((await loadEventCatalogue(ctx.db)).map((event) => event.name));
    await tour(page, session.base, async ({ name, path }) => {
      const keys = (await keysShown(page)).filter((key) => !eventNames.has(key));
      if (keys.length > 0) problems.push(`${name} (${path}): ${keys.join(' | ')}`);
      if (PAGES && ctx.backend === 'pglite') await screenshot(page, join(PAGES, `${fileOf(path)}.png`));
    });
    assert.deepEqual(problems, []);
  });
});
