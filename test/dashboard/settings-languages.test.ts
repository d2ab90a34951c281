/**
 * The settings pages in the reader's language, in a real browser (chromium through playwright-core), on both backends,
 * on the demo organization: the owner picks Dutch in the header's language menu and every settings page (API keys,
 * webhooks, iCal feeds, e-mail templates with their editor, unit messages, members, booking terms, my notifications)
 * shows its headings, fields, buttons and the names people choose from (scopes, triggers, moments, roles, resources,
 * notifications) in Dutch, with no English heading left; then German on the members page, where a permission granted
 * and removed is named in German. axe finds no serious or
 * critical violation. Screenshots go to a temporary folder named in the output.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-settings-languages-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

/** Opens a page by its link in the navigation and waits for its heading; no heading in `english` is left. */
async function open(page: Page, link: string, heading: string, english: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
  assert.equal(await page.getByRole('heading', { name: english, exact: true }).count(), 0, `no English heading "${english}"`);
}

forEachBackend('the settings pages in Dutch and German', (ctx) => {
  const session = dashboardSession(ctx, browser);

  it('the owner reads every settings page in Dutch', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
    await page.getByLabel('Language').selectOption('nl');
    await page.getByRole('navigation').getByRole('link', { name: 'Boekingen', exact: true }).waitFor();

    await open(page, 'API-sleutels', 'API-sleutels', 'API keys');
    await page.getByRole('form', { name: 'Een API-sleutel aanmaken' }).getByRole('button', { name: 'Sleutel aanmaken' }).waitFor();
    await page.getByRole('table', { name: 'API-sleutels' }).getByRole('columnheader', { name: 'Laatst gebruikt' }).waitFor();
    await page.getByRole('combobox', { name: 'Scopes' }).click();
    await page.getByRole('option', { name: /^bookings:read\s*Lezen: Boekingen$/ }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'nl-api-keys.png') });
    await page.keyboard.press('Escape');

    await open(page, 'Webhooks', 'Webhooks', 'Add a webhook');
    await page.getByRole('heading', { name: 'Een webhook toevoegen' }).waitFor();
    await page.getByRole('button', { name: 'Webhook toevoegen' }).waitFor();
    await page.getByRole('textbox', { name: 'Beschrijving' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'nl-webhooks.png') });

    await open(page, 'iCal-feeds', 'iCal-feeds', 'iCal feeds');
    await page.getByRole('heading', { name: 'Exportlinks' }).waitFor();
    await page.getByRole('heading', { name: 'Geïmporteerde kalenders' }).waitFor();
    await page.getByText('Met details', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Importeren' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'nl-ical.png') });

    await open(page, 'E-mailsjablonen', 'E-mailsjablonen', 'E-mail templates');
    const editor = page.getByRole('form', { name: 'Sjabloon bewerken' });
    await editor.getByRole('tab', { name: 'Standaard' }).waitFor();
    await editor.getByLabel('Onderwerp (Standaard)').waitFor();
    await editor.getByRole('region', { name: 'Variabelen' }).waitFor();
    await editor.getByRole('checkbox', { name: 'De boekingsgegevens toevoegen (verblijf, accommodatie, regels, totaal)' }).waitFor();
    await editor.getByRole('switch', { name: 'Actief: wordt vanzelf verstuurd' }).waitFor();
    await editor.getByRole('combobox', { name: 'Verstuurd' }).click();
    await page.getByRole('option', { name: 'Op een moment van het verblijf', exact: true }).click();
    assert.match(await editor.getByRole('combobox', { name: 'Geteld' }).inputValue(), /^dagen (vanaf|na) /);
    await editor.getByRole('region', { name: 'Voorbeeld' }).getByLabel('Onderwerp van het voorbeeld').waitFor();
    assert.match(await page.getByRole('combobox', { name: 'Sjabloon', exact: true }).inputValue(), / — (Wanneer|Op een|Voordat|Nooit|\S+ dagen)/,
      'the list names when a template is sent in Dutch');
    await page.screenshot({ path: join(SCREENSHOTS, 'nl-email-templates.png'), fullPage: true });
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await open(page, 'Berichten per accommodatie', 'Berichten per accommodatie', 'Unit messages');
    if (await page.getByRole('button', { name: 'Nieuw bericht' }).isVisible()) await page.getByRole('button', { name: 'Nieuw bericht' }).click();
    const message = page.getByRole('form', { name: 'Nieuw bericht' });
    await message.getByLabel('Gebaseerd op het e-mailsjabloon').waitFor();
    await message.getByText('Zonder moment of e-mailsjabloon wordt dit bericht nooit verstuurd.').waitFor();
    await message.getByLabel('Eigen moment').check();
    await message.getByRole('textbox', { name: 'Dagen' }).waitFor();
    await message.getByRole('group', { name: 'Verstuurd voor de boekingen van' }).waitFor();
    await message.getByRole('button', { name: 'Bericht aanmaken' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'nl-unit-messages.png'), fullPage: true });

    await open(page, 'Leden', 'Leden', 'Members');
    const cleaner = page.getByRole('region', { name: 'Lid Sanne de Wit' });
    assert.equal(await cleaner.getByLabel('Rol van Sanne de Wit').inputValue(), 'Schoonmaker');
    await cleaner.getByRole('button', { name: 'Toekennen' }).waitFor();
    assert.equal(await cleaner.getByLabel('Onderdeel voor Sanne de Wit').inputValue(), 'Kalender');
    assert.equal(await cleaner.getByLabel('Toegang voor Sanne de Wit').inputValue(), 'lezen');
    await page.getByRole('button', { name: 'Lid toevoegen' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'nl-members.png'), fullPage: true });
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await open(page, 'Boekingsvoorwaarden', 'Boekingsvoorwaarden', 'Booking terms');
    await page.getByLabel('Engels').waitFor();
    await page.getByLabel('Nederlands').waitFor();
    await page.getByRole('button', { name: 'Boekingsvoorwaarden opslaan' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'nl-booking-terms.png') });

    await open(page, 'Mijn meldingen', 'Mijn meldingen', 'My notifications');
    await page.getByRole('checkbox', { name: 'Een nieuwe boeking' }).waitFor();
    await page.getByRole('checkbox', { name: 'Een gast schrijft (een antwoord per e-mail)' }).waitFor();
    await page.getByRole('button', { name: 'Opslaan' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'nl-notifications.png') });
  });

  it('the owner reads the members page in German', { skip }, async () => {
    const { page } = session;
    await page.getByLabel('Taal', { exact: true }).selectOption('de');
    await open(page, 'Mitglieder', 'Mitglieder', 'Leden');
    const cleaner = page.getByRole('region', { name: 'Mitglied Sanne de Wit' });
    assert.equal(await cleaner.getByLabel('Rolle von Sanne de Wit').inputValue(), 'Reinigungskraft');
    await cleaner.getByRole('button', { name: 'Erteilen' }).click();
    await cleaner.getByText('Kalender: lesen', { exact: true }).waitFor();
    await page.getByRole('form', { name: 'Ein Mitglied hinzufügen' }).getByRole('button', { name: 'Mitglied hinzufügen' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'de-members.png'), fullPage: true });
    await cleaner.getByRole('button', { name: 'Kalender: lesen entfernen' }).click();
    await cleaner.getByText('Keine Berechtigungen: sieht nur die Unterkünfte.').waitFor();
  });
});
