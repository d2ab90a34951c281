/**
 * The dashboard in the reader's language, in a real browser (chromium through playwright-core), on both backends:
 * a browser that prefers German opens the login page in German; a member who picks Dutch in the header's language
 * menu reads the navigation and the frame in Dutch, the page's `lang` says so, and the choice stays after a reload
 * and on the login page after logging out. English is the default for a browser whose languages the dashboard does
 * not speak. Screenshots go to a temporary folder named in the output.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-languages-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

forEachBackend('the dashboard in three languages', (ctx) => {
  const session = dashboardSession(ctx, browser, { context: { locale: 'fr-FR' } });

  it('a browser in French reads English; picking Dutch turns the frame Dutch, and it stays after a reload and a logout', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    const navigation = page.getByRole('navigation');
    await navigation.getByRole('link', { name: 'Bookings', exact: true }).waitFor();

    await page.getByLabel('Language').selectOption('nl');
    await navigation.getByRole('link', { name: 'Boekingen', exact: true }).waitFor();
    await navigation.getByRole('link', { name: 'Accommodaties en prijzen', exact: true }).waitFor();
    assert.equal(await navigation.getByRole('link', { name: 'Bookings', exact: true }).count(), 0, 'no English link is left');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'nl');
    await page.getByRole('button', { name: 'Uitloggen' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'dutch-frame.png') });

    await page.reload();
    await page.getByRole('navigation').getByRole('link', { name: 'Boekingen', exact: true }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await page.getByRole('button', { name: 'Uitloggen' }).click();
    await page.getByRole('button', { name: 'Inloggen' }).waitFor();
    await page.getByLabel('Wachtwoord').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'dutch-login.png') });
  });

  it('a browser that prefers German opens the login page in German', { skip }, async () => {
    const context = await browser().newContext({ locale: 'de-DE', viewport: { width: 1024, height: 768 } });
    try {
      const page = await context.newPage();
      await page.goto(`${session.base}/admin/`);
      await page.getByRole('button', { name: 'Anmelden' }).waitFor();
      await page.getByLabel('Passwort').waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
      await page.screenshot({ path: join(SCREENSHOTS, 'german-login.png') });
    } finally {
      await context.close();
    }
  });
});
