/**
 * Units and prices and the calendar in the reader's language, in a real browser on the demo organization (whose own
 * language stays English: only the dashboard's words change, not how it writes dates and money). With Dutch picked
 * in the header, the calendar's heading, buttons, legend, bars and the pick hint are Dutch, and so are "Add a
 * block", the unit list with its values (rented per night, instant booking), the coupons and every section of a
 * unit's page — down to weekday names from the browser's Intl, the language tabs, the e-mails' triggers and what
 * guests read of the cancellation policy; no English section name is left. Picking German turns the unit's page
 * German. axe finds no serious violation in Dutch. Screenshots go to a temporary folder named in the output.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeCancellationPolicy, type CancellationRule } from '../../src/common/cancellation-policy.js';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-units-languages-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

/** The sections of a unit's page this work translated (Tasks has its own words), by their names in each language. */
const SECTIONS = {
  en: ['Details', 'Photos', 'Capacity', 'Prices and stay rules', 'Calendar', 'Prices per date', 'Extras and fees', 'E-mails', 'Cancellation policy', 'Preview'],
  nl: ['Gegevens', "Foto's", 'Capaciteit', 'Prijzen en verblijfsregels', 'Kalender', 'Prijzen per datum', "Extra's en toeslagen", 'E-mails', 'Annuleringsvoorwaarden', 'Voorbeeld'],
  de: ['Angaben', 'Fotos', 'Belegung', 'Preise und Aufenthaltsregeln', 'Kalender', 'Preise je Datum', 'Extras und Gebühren', 'E-Mails', 'Stornobedingungen', 'Vorschau'],
};

forEachBackend('units and the calendar in Dutch and German', (ctx) => {
  const session = dashboardSession(ctx, browser);

  it('with Dutch picked, the calendar and "Add a block" are Dutch', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
    await page.getByLabel('Language').selectOption('nl');
    await page.getByRole('navigation').getByRole('link', { name: 'Kalender', exact: true }).click();

    await page.getByRole('heading', { name: 'Kalender', level: 2 }).waitFor();
    for (const name of ['Vorige maand', 'Volgende maand', 'Vandaag', 'Blokkade toevoegen']) await page.getByRole('button', { name, exact: true }).waitFor();
    await page.getByRole('switch', { name: 'Geannuleerde tonen' }).waitFor();
    const legend = page.getByRole('list', { name: 'Legenda' });
    for (const entry of ['Bevestigde boeking', 'Voorlopige boeking', 'Geblokkeerd', 'Geïmporteerd (iCal)', 'Geannuleerd', 'Taak te doen']) {
      await legend.getByText(entry, { exact: true }).waitFor();
    }
    const grid = page.getByRole('table', { name: /^Kalender van / });
    await grid.getByRole('columnheader', { name: 'Accommodatie', exact: true }).waitFor();
    // The demo's bookings around today: a bar names its booking and its status in Dutch.
    await grid.getByRole('button', { name: /^Boeking .+, bevestigd$/ }).first().waitFor();
    assert.equal(await grid.getByRole('button', { name: /^Booking / }).count(), 0, 'no bar in English');

    const hint = 'Kies de eerste en de laatste vrije dag van een accommodatie om ze te blokkeren of te boeken.';
    await page.getByText(hint, { exact: true }).waitFor();
    // A day under a bar is picked with the keyboard (the bar takes the pointer there).
    await grid.locator('button[data-date][tabindex="0"]').focus();
    await page.keyboard.press('Enter');
    await page.getByText(/^Eerste dag .+ gekozen: kies nu de laatste dag \(Escape annuleert\)\.$/).waitFor();
    await page.keyboard.press('Escape');
    await page.getByText(hint, { exact: true }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'calendar-nl.png') });

    await page.getByRole('button', { name: 'Blokkade toevoegen', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Blokkade toevoegen' });
    await dialog.getByRole('textbox', { name: 'Titel' }).waitFor();
    assert.equal(await dialog.getByRole('textbox', { name: 'Titel' }).getAttribute('placeholder'), 'Geblokkeerd');
    await dialog.getByLabel('Accommodatie').waitFor();
    await dialog.getByRole('button', { name: /^Dagen/ }).waitFor();
    await dialog.getByRole('button', { name: 'Deze dagen blokkeren', exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Sluiten', exact: true }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'calendar-block-nl.png') });
    await dialog.getByRole('button', { name: 'Annuleren', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('with Dutch picked, the units, their values, the coupons and every section of a unit\'s page are Dutch', { skip }, async () => {
    const { page } = session;
    await page.getByRole('navigation').getByRole('link', { name: 'Accommodaties en prijzen', exact: true }).click();
    await page.getByRole('heading', { name: 'Accommodaties en prijzen', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Accommodatie toevoegen', exact: true }).waitFor();
    await page.getByRole('switch', { name: 'Gearchiveerde accommodaties tonen' }).waitFor();
    const units = page.getByRole('table', { name: 'Accommodaties' });
    for (const name of ['Accommodatie', 'Verhuur', 'Boeken', 'Tijdzone', 'Valuta', 'Configuraties']) await units.getByRole('columnheader', { name, exact: true }).waitFor();
    // Values of typed columns, by their words: Beach House (Strandhuis to a Dutch reader) is rented per night and booked
    // instantly, Forest Cabin (Boshut) per day.
    const beach = units.getByRole('row').filter({ has: page.getByRole('link', { name: 'Strandhuis', exact: true }) });
    await beach.getByRole('cell', { name: 'per nacht', exact: true }).waitFor();
    await beach.getByText('direct', { exact: true }).waitFor();
    const forest = units.getByRole('row').filter({ has: page.getByRole('link', { name: 'Boshut', exact: true }) });
    await forest.getByRole('cell', { name: 'per dag', exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Kortingscodes', exact: true }).click();
    const coupon = page.getByRole('form', { name: 'Kortingscode toevoegen' });
    await coupon.getByRole('button', { name: 'Kortingscode toevoegen', exact: true }).waitFor();
    assert.equal(await coupon.getByLabel('Geldt voor').inputValue(), 'alles', 'the scope "global" in words');
    await page.getByRole('table', { name: 'Kortingscodes' }).getByRole('columnheader', { name: 'Korting', exact: true }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'coupons-nl.png') });

    await page.getByRole('tab', { name: 'Accommodaties', exact: true }).click();
    await page.getByRole('link', { name: 'Strandhuis', exact: true }).click();
    await page.getByRole('heading', { name: 'Strandhuis', level: 2 }).waitFor();
    await page.getByText(/^per nacht · .+ · EUR$/).waitFor();
    await page.getByRole('link', { name: '← Accommodaties en prijzen', exact: true }).waitFor();
    for (const name of ['Accommodatie dupliceren', 'Accommodatie archiveren', 'Gegevens opslaan', 'Capaciteit opslaan', "Foto's opslaan", 'Voorbeeld vernieuwen']) {
      await page.getByRole('button', { name, exact: true }).waitFor();
    }
    for (const name of SECTIONS.nl) await page.getByRole('region', { name, exact: true }).getByRole('heading', { name, exact: true }).waitFor();
    for (const name of SECTIONS.en) {
      if (!SECTIONS.nl.includes(name)) assert.equal(await page.getByRole('region', { name, exact: true }).count(), 0, `no section "${name}" in English`);
    }

    const details = page.getByRole('region', { name: 'Gegevens', exact: true });
    for (const name of ['Engels', 'Nederlands', 'Duits']) await details.getByRole('tab', { name, exact: true }).waitFor();
    await details.getByRole('textbox', { name: 'Naam (Engels)' }).waitFor();
    await details.getByText('Direct boeken', { exact: true }).waitFor();

    // Weekday names come from Intl in the reader's language: Friday is "vr".
    const prices = page.getByRole('region', { name: 'Prijzen en verblijfsregels', exact: true });
    await prices.getByRole('group', { name: 'Aankomstdagen' }).getByRole('checkbox', { name: 'vr', exact: true }).first().waitFor();
    await prices.getByRole('group', { name: 'Vroegboekkorting' }).first().waitFor();
    await page.getByRole('region', { name: 'Prijzen per datum', exact: true }).getByRole('checkbox', { name: 'za', exact: true }).waitFor();

    const emails = page.getByRole('region', { name: 'E-mails', exact: true });
    const emailTable = emails.getByRole('table', { name: 'Automatische e-mails van deze accommodatie' });
    for (const name of ['E-mail', 'Verstuurd', 'Voor boekingen', 'Voor deze accommodatie']) await emailTable.getByRole('columnheader', { name, exact: true }).waitFor();
    await emailTable.getByRole('switch', { name: /^".+" versturen voor deze accommodatie$/ }).first().waitFor();
    await emailTable.getByRole('cell', { name: 'bevestigd', exact: true }).first().waitFor();

    const { rows: [unit] } = await ctx.db.query<{ cancellation_policy: CancellationRule[] }>(
      `SELECT cancellation_policy FROM api.products WHERE name ->> 'default' = 'Beach House'`);
    const guestsRead = page.getByRole('list', { name: 'Wat gasten lezen' });
    assert.deepEqual(await guestsRead.getByRole('listitem').allInnerTexts(), describeCancellationPolicy(unit!.cancellation_policy, 'nl'));

    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.screenshot({ path: join(SCREENSHOTS, 'unit-page-nl.png'), fullPage: true });
  });

  it('picking German turns the unit\'s page German', { skip }, async () => {
    const { page } = session;
    await page.getByLabel('Taal').selectOption('de');
    await page.getByRole('link', { name: '← Unterkünfte und Preise', exact: true }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    for (const name of SECTIONS.de) await page.getByRole('region', { name, exact: true }).getByRole('heading', { name, exact: true }).waitFor();
    for (const name of ['Unterkunft duplizieren', 'Unterkunft archivieren', 'Angaben speichern', 'Belegung speichern']) await page.getByRole('button', { name, exact: true }).waitFor();
    await page.getByRole('region', { name: 'Angaben', exact: true }).getByRole('tab', { name: 'Englisch', exact: true }).waitFor();
    await page.getByRole('region', { name: 'Preise und Aufenthaltsregeln', exact: true }).getByRole('group', { name: 'Anreisetage' })
      .getByRole('checkbox', { name: /^Fr\.?$/ }).first().waitFor();
    assert.equal(await page.getByRole('region', { name: 'Gegevens', exact: true }).count(), 0, 'no Dutch section left');
    await page.screenshot({ path: join(SCREENSHOTS, 'unit-page-de.png'), fullPage: true });
  });
});
