/**
 * The widget's booking terms and cancellation policy in a real browser (Debian's chromium through playwright-core), on
 * both backends, embedded by a page of an allowed origin whose visitor reads German: after the price, before the Book
 * button, the unit's cancellation policy and the organization's booking terms are shown in German; booking without
 * ticking "I accept …" says so at the checkbox (marked invalid, described by the message, focused) and sends nothing;
 * ticked, the booking is made with accept_terms and records the acceptance. axe-core finds no serious or critical
 * violation. Screenshots go to a temporary folder named in the output. Skipped with a message when /usr/bin/chromium
 * is absent, unless STAYKIT_TEST_REQUIRE_BROWSER=1.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { browserMissing } from '../support/browser-required.js';
import { forEachBackend } from '../support/databases.js';
import { startApp } from '../support/app.js';
import { publishableKeyFor, widgetOrganization, type WidgetOrganization } from './support.js';

const CHROMIUM = process.env.STAYKIT_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const missing = browserMissing(CHROMIUM, 'widget terms browser test');
const skip = missing && `${CHROMIUM} not found`;
const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-widget-terms-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const TERMS = {
  default: 'Pets are not allowed.\nQuiet hours from 22:00.',
  nl: 'Huisdieren zijn niet toegestaan.\nStilte vanaf 22:00.',
  de: 'Haustiere sind nicht erlaubt.\nNachtruhe ab 22:00 Uhr.',
};
const POLICY = [{ days_before_arrival: 30, refund_percentage: 100 }, { days_before_arrival: 14, refund_percentage: 50 }];

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }> } }).axe;
    return axe.run();
  });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

let browser: Browser;
before(async () => {
  if (missing) return;
  execFileSync(process.execPath, ['scripts/build-web.js', 'widget'], { stdio: 'ignore' });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});
after(() => browser?.close());

forEachBackend('the widget\'s booking terms in a browser', (ctx) => {
  let app: FastifyInstance;
  let staykit: string;
  let org: WidgetOrganization;
  let key: string;
  let site: { server: Server; origin: string };

  before(async () => {
    if (missing) return;
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ferienhäuser am Meer</title></head><body><main><h1>Ferienhäuser am Meer</h1><script src="${staykit}/widget.js"></script>
<staykit-widget key="${key}"></staykit-widget></main></body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    app = await startApp(ctx.db);
    staykit = await app.listen({ port: 0, host: '127.0.0.1' });
    const year = new Date().getUTCFullYear();
    org = await widgetOrganization(ctx.db, 'Seaside Rentals', [site.origin], `{[${year - 1}-01-01,${year + 3}-01-01)}`);
    key = await publishableKeyFor(app, org.secretKey, org.widget);
    await ctx.db.query('UPDATE api.products SET cancellation_policy = $1 WHERE id = $2', [JSON.stringify(POLICY), org.listed]);
    await ctx.db.query(`UPDATE api.organizations SET settings = settings || jsonb_build_object('booking_terms', $1::jsonb) WHERE id = $2`, [JSON.stringify(TERMS), org.id]);
  });
  after(async () => {
    site?.server.close();
    await app?.close();
  });

  it('shows the policy and the terms in German, refuses to book before the box is ticked, then books with the acceptance', { skip }, async () => {
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 390, height: 844 } }); // a phone
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const bookBodies: { accept_terms?: unknown }[] = [];
    page.on('request', (request) => { if (request.url().endsWith('/v1/book')) bookBodies.push(request.postDataJSON() as { accept_terms?: unknown }); });
    await page.goto(site.origin);
    const widget = page.locator('staykit-widget');
    await widget.getByRole('heading', { name: 'Wählen Sie Ihre Daten' }).waitFor();

    // Three nights from the first free check-in, by keyboard.
    await widget.locator('td button[tabindex="0"]').focus();
    await page.keyboard.press('Enter');
    await widget.locator('#selection').filter({ hasText: 'Wählen Sie jetzt einen Abreisetag' }).waitFor();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await widget.locator('#selection').filter({ hasText: 'gewählt' }).waitFor();
    await widget.getByLabel(/^Adults/).fill('2');
    await widget.getByLabel(/^Vorname/).fill('Grete');
    await widget.getByLabel(/^Nachname/).fill('Weiss');
    await widget.getByLabel(/^E-mail/).fill('grete@example.com');
    await widget.getByRole('button', { name: 'Preis anzeigen' }).click();
    await widget.locator('#quote [data-total]').filter({ hasText: '350,00' }).waitFor();

    // Before the Book button: the policy, the terms, and the box to accept them, in German.
    const policy = widget.getByRole('region', { name: 'Stornierungsbedingungen' });
    assert.deepEqual(await policy.locator('[data-policy] li').allTextContents(), [
      'Kostenlose Stornierung bis 30 Tage vor Anreise.', '50 % Erstattung bis 14 Tage vor Anreise.', 'Danach keine Erstattung.',
    ]);
    const terms = widget.getByRole('region', { name: 'Buchungsbedingungen' });
    assert.equal(await terms.textContent(), TERMS.de);
    const box = widget.getByRole('checkbox', { name: 'Ich akzeptiere die Buchungsbedingungen und die Stornierungsbedingungen' });
    assert.equal(await box.isChecked(), false);
    const order = await widget.locator('#book').evaluate((form) => [...form.querySelectorAll('[data-policy], [data-terms], #accept-terms, button')].map((element) => element.tagName));
    assert.deepEqual(order, ['UL', 'DIV', 'INPUT', 'BUTTON'], 'policy, terms and checkbox come before the Book button');
    assert.deepEqual(await seriousViolations(page), []);

    // Booking without the box ticked: the message at the box, nothing sent, nothing booked.
    const count = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api.bookings WHERE organization_id = $1', [org.id])).rows[0]!.n;
    const before = await count();
    await widget.getByRole('button', { name: 'Jetzt buchen' }).click();
    const message = widget.locator('#accept-terms-error');
    await message.filter({ hasText: 'Bitte akzeptieren Sie die Buchungsbedingungen und die Stornierungsbedingungen, um zu buchen.' }).waitFor();
    assert.equal(await box.getAttribute('aria-invalid'), 'true');
    assert.equal(await box.getAttribute('aria-describedby'), 'accept-terms-error');
    assert.equal(await message.getAttribute('role'), 'alert');
    assert.equal(await box.evaluate((input) => input === (input.getRootNode() as ShadowRoot).activeElement), true, 'the box has the focus');
    assert.equal(bookBodies.length, 0, 'nothing was sent');
    assert.equal(await count(), before, 'nothing was booked');
    await widget.locator('#book').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, `widget-terms-not-accepted-de-${ctx.backend}.png`), fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);

    // Ticked: the message goes, and the booking is made with the acceptance, which the booking records.
    await box.check();
    assert.equal(await message.textContent(), '');
    assert.equal(await box.getAttribute('aria-invalid'), null);
    await widget.getByRole('button', { name: 'Jetzt buchen' }).click();
    const done = widget.locator('#done');
    await done.getByText(/Ihre Buchung .* ist erfolgt/).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, `widget-terms-booked-de-${ctx.backend}.png`), fullPage: true });
    assert.equal(bookBodies.length, 1);
    assert.equal(bookBodies[0]!.accept_terms, true);
    const reference = /Buchung (\S+) ist erfolgt/.exec((await done.textContent())!)![1]!;
    const { rows } = await ctx.db.query<{ accepted: boolean; language: string }>(
      'SELECT terms_accepted_at IS NOT NULL AS accepted, language FROM api.bookings WHERE organization_id = $1 AND reference = $2', [org.id, reference]);
    assert.deepEqual(rows, [{ accepted: true, language: 'de' }]);
    await context.close();
  });

  it('in Dutch, with the terms removed: the policy is shown and the guest books without a checkbox', { skip }, async () => {
    await ctx.db.query(`UPDATE api.organizations SET settings = settings - 'booking_terms' WHERE id = $1`, [org.id]);
    await ctx.db.query(`UPDATE api.products SET cancellation_policy = '[]' WHERE id = $1`, [org.listed]);
    const context = await browser.newContext({ locale: 'nl-NL' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(site.origin);
    const widget = page.locator('staykit-widget');
    await widget.getByRole('heading', { name: 'Kies je data' }).waitFor();
    // Later dates than the first test's stay: the first free check-in after it.
    await widget.locator('td button[tabindex="0"]').focus();
    await page.keyboard.press('Enter');
    await widget.locator('#selection').filter({ hasText: 'Kies nu een vertrekdag' }).waitFor();
    for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await widget.locator('#selection').filter({ hasText: 'gekozen' }).waitFor();
    await widget.getByLabel(/^Voornaam/).fill('Jan');
    await widget.getByLabel(/^E-mail/).fill('jan@example.com');
    await widget.getByRole('button', { name: 'Toon prijs' }).click();
    await widget.locator('#quote [data-total]').waitFor();
    assert.deepEqual(await widget.getByRole('region', { name: 'Annuleringsvoorwaarden' }).locator('li').allTextContents(),
      ['Gratis annuleren: je krijgt alles terug wat je betaald hebt, wanneer je ook annuleert.']);
    assert.equal(await widget.locator('#accept-terms').count(), 0);
    assert.equal(await widget.locator('[data-terms]').count(), 0);
    await widget.getByRole('button', { name: 'Nu boeken' }).click();
    await widget.locator('#done').getByText(/Je boeking .* is gemaakt/).waitFor();
    await context.close();
  });
});
