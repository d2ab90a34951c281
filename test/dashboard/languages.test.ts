/**
 * The dashboard in the reader's language, in a real browser (chromium through playwright-core), on both backends:
 * a browser that prefers German opens the login page in German; a member who picks Dutch in the header's language
 * menu reads the navigation and the frame in Dutch, the page's `lang` says so, and the choice stays after a reload
 * and on the login page after logging out. English is the default for a browser whose languages the dashboard does
 * not speak. The pages follow the choice at once: Today, the Inbox and Reports in Dutch and German, their dates,
 * numbers and month names as those languages write them. Screenshots go to a temporary folder named in the output.
 */
import { it } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachBackend } from '../support/databases.js';
import type { Page } from 'playwright-core';
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

  /** The date under the Today page's heading: today, as the reader's language writes it. */
  const todaysDate = (page: Page) => page.getByRole('main').locator('h2 + p').innerText();

  it('Today, the Inbox and Reports follow the language chosen, dates and numbers too', { skip }, async () => {
    const context = await browser().newContext({ locale: 'en-US', viewport: { width: 1360, height: 900 }, bypassCSP: true });
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => session.pageErrors.push(error.message));
      await session.logIn(session.owner, page);
      const main = page.getByRole('main');
      await main.getByRole('heading', { name: 'Arrivals' }).waitFor();
      assert.match(await todaysDate(page), /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/, 'English, e.g. Dec 3, 2026');

      // Today turns Dutch in place, its date with it.
      await page.getByLabel('Language').selectOption('nl');
      await main.getByRole('heading', { name: 'Vandaag', exact: true }).waitFor();
      await main.getByRole('heading', { name: 'Aankomsten' }).waitFor();
      await main.getByRole('heading', { name: 'Lopende verblijven' }).waitFor();
      await main.getByRole('heading', { name: /^Deze maand: [a-z]+ \d{4}$/ }).waitFor();
      assert.match(await todaysDate(page), /^\d{1,2} [a-z]{3,4}\.? \d{4}$/, 'Dutch, e.g. 3 dec 2026');
      assert.equal(await main.getByRole('heading', { name: 'Arrivals' }).count(), 0, 'no English heading is left');
      assert.deepEqual(await seriousAccessibilityViolations(page), []);
      await page.screenshot({ path: join(SCREENSHOTS, 'today-nl.png'), fullPage: true });

      await page.getByRole('navigation').getByRole('link', { name: 'Inbox' }).click();
      await main.getByRole('heading', { name: 'Inbox', exact: true }).waitFor();
      await main.getByRole('list', { name: 'Gesprekken' }).or(main.getByText(/^Nog geen berichten/)).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'inbox-nl.png'), fullPage: true });

      await page.getByRole('navigation').getByRole('link', { name: 'Rapporten' }).click();
      await main.getByRole('heading', { name: 'Rapporten', exact: true }).waitFor();
      const perMonth = main.getByRole('table', { name: 'Per maand' });
      await perMonth.locator('tbody tr').first().waitFor();
      assert.match(await perMonth.locator('tbody tr').first().getByRole('cell').first().innerText(), /^januari \d{4}$/);
      await main.getByRole('figure', { name: /^Boekingsverloop/ }).waitFor();
      const download = page.waitForEvent('download');
      await main.getByRole('region', { name: 'Per maand' }).getByRole('button', { name: 'CSV exporteren' }).click();
      const header = readFileSync(await (await download).path(), 'utf8').split('\r\n')[0];
      assert.match(header!, /^Maand,Bezetting,Bezetting \d{4},Geboekte nachten,Beschikbare nachten,Omzet \(EUR\)/);
      // The month picker names the months in Dutch: "mrt." where English has "Mar".
      await main.getByRole('button', { name: 'Maanden' }).click();
      await page.getByRole('button', { name: /^mrt/ }).first().waitFor();
      await page.keyboard.press('Escape');
      assert.deepEqual(await seriousAccessibilityViolations(page), []);
      await page.screenshot({ path: join(SCREENSHOTS, 'reports-nl.png'), fullPage: true });

      await page.getByLabel('Taal').selectOption('de');
      await main.getByRole('heading', { name: 'Berichte', exact: true }).waitFor();
      await main.getByRole('table', { name: 'Pro Monat' }).locator('tbody tr').first().waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'reports-de.png'), fullPage: true });
      await page.getByRole('navigation').getByRole('link', { name: 'Posteingang' }).click();
      await main.getByRole('heading', { name: 'Posteingang', exact: true }).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'inbox-de.png'), fullPage: true });
      await page.getByRole('navigation').getByRole('link', { name: 'Heute' }).click();
      await main.getByRole('heading', { name: 'Anreisen' }).waitFor();
      await main.getByRole('button', { name: /^Annehmen/ }).first().waitFor();
      assert.match(await todaysDate(page), /^\d{2}\.\d{2}\.\d{4}$/, 'German, e.g. 03.12.2026');
      await page.screenshot({ path: join(SCREENSHOTS, 'today-de.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
