/**
 * The unit page's calendar, in a real browser, on a demo unit: next month's dates show the night's price (a price
 * set for one date marked as such); pressing a date closes it — a closed per-date entry, which /v1/availability then
 * answers as not available and a quote refuses — and pressing it again reopens it (the entry goes: it set nothing
 * else). The prices-per-date table follows. The unit's automated e-mails: one switched off for this unit leaves the
 * engine's rules of this unit only, and comes back when switched on. axe finds no serious or critical violation.
 * The groups a sum group counts: Pets ticked under Guests makes a stay of six guests and two pets too many (the
 * quote refuses it), unticked it is allowed again. A group (Pets) is renamed in place in English and Dutch, an empty
 * name refused at its field. STAYKIT_UPDATE_SCREENSHOTS=1 writes
 * docs/dashboard/units-calendar.png, units-emails.png and units-capacity.png.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TEMPLATES } from '../../src/automations/default-templates.js';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { managerSession } from './support/manager-session.js';

const skip = browserMissing && 'chromium not found';
const TEMPORARY = mkdtempSync(join(tmpdir(), 'staykit-dashboard-unit-page-shots-'));
/** Where the screenshots docs/dashboard.md shows go: the docs when asked to update them, else a temporary folder. */
const SCREENSHOTS = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1' ? join(import.meta.dirname, '..', '..', 'docs', 'dashboard') : TEMPORARY;
console.log(`# screenshots: ${TEMPORARY}`);

const browser = fileBrowser();

/** The 10th and 11th of next month (UTC): in the calendar's next month, in the future. */
function nextMonthDates() {
  const now = new Date();
  const iso = (day: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, day)).toISOString().slice(0, 10);
  return { priced: iso(10), closing: iso(11), after: iso(12) };
}

forEachBackend('the sections of a unit\'s page', (ctx) => {
  const session = managerSession(ctx, browser);
  let unitId: string;
  let otherUnitId: string;
  let organizationId: string;

  before(async () => {
    if (browserMissing) return;
    const { body } = await session.api<{ id: string; organization_id: string; name: { default: string } }[]>('GET', '/v1/products?select=id,organization_id,name');
    const named = (name: string) => body.find((unit) => unit.name.default === name)!;
    [unitId, otherUnitId, organizationId] = [named('Beach House').id, named('Dune Cottage').id, named('Beach House').organization_id];
  });

  /** The e-mail templates the engine sends for a unit's bookings (staykit_internal.automation_rules, migration 0110). */
  const sentFor = async (unit: string) => (await ctx.db.query<{ subject: string }>(
    `SELECT e.subject ->> 'default' AS subject FROM staykit_internal.automation_rules($1, $2) AS r
     JOIN api.email_templates AS e ON e.id = r.email_template_id ORDER BY 1`, [organizationId, unit])).rows.map((row) => row.subject);

  it('the calendar shows the nights\' prices; a date is closed and reopened, and bookings follow', { skip }, async () => {
    const { page, api } = session;
    const dates = nextMonthDates();
    const priced = await api('POST', '/v1/price_calendar_entries', { product_id: unitId, date: dates.priced, rate: 17500 });
    assert.equal(priced.status, 201, JSON.stringify(priced.body));
    await session.logIn();
    await page.getByRole('link', { name: 'Units and prices', exact: true }).click();
    await page.getByRole('link', { name: 'Beach House', exact: true }).click();
    const calendar = page.getByRole('region', { name: 'Calendar' });
    await calendar.getByRole('button', { name: 'Next month' }).click();
    const day = (date: string) => calendar.locator(`button[data-date="${date}"]`);
    const labelled = (date: string, label: RegExp) => page.waitForFunction(([date, source]) =>
      new RegExp(source!).test(document.querySelector(`[data-date="${date}"]`)?.getAttribute('aria-label') ?? ''), [date, label.source]);
    await labelled(dates.closing, /, open, /);
    assert.match(await day(dates.priced).getAttribute('aria-label') ?? '', /, open, €175\.00 \(set for this date\)$/);
    assert.match(await day(dates.closing).getAttribute('aria-label') ?? '', /, open, €1\d\d\.00$/, 'the configuration\'s rate');

    /** The closing date's night as /v1/availability answers it. */
    const status = async () => {
      const { body } = await api<{ intervals: { status: string }[] }[]>('GET', `/v1/availability?product_ids=${unitId}&start=${dates.closing}&end=${dates.after}&show_closed_as=closed`);
      assert.equal(body[0]!.intervals.length, 1, JSON.stringify(body));
      return body[0]!.intervals[0]!.status;
    };
    assert.equal(await status(), 'available');
    await day(dates.closing).click();
    await labelled(dates.closing, /, closed$/);
    assert.equal(await day(dates.closing).getAttribute('aria-pressed'), 'true');
    assert.equal(await status(), 'closed', 'the engine sees the date closed');
    const quote = await api<{ code: string }>('POST', '/v1/quote', { product_id: unitId, interval: { start: dates.closing, end: dates.after }, occupancy: {} });
    assert.equal(quote.status, 422, 'a stay on the closed night is refused');
    await page.getByRole('table', { name: 'Prices per date' }).getByRole('cell', { name: 'closed', exact: true }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await calendar.evaluate((section) => window.scrollTo(0, section.getBoundingClientRect().top + window.scrollY - 80));
    const box = (await calendar.boundingBox())!;
    await page.screenshot({ path: join(SCREENSHOTS, 'units-calendar.png'), clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16 } });

    await day(dates.closing).click();
    await labelled(dates.closing, /, open, /);
    assert.equal(await day(dates.closing).getAttribute('aria-pressed'), 'false');
    assert.equal(await status(), 'available', 'reopened');
    const { body: entries } = await api<{ date: string }[]>('GET', `/v1/price_calendar_entries?product_id=eq.${unitId}&select=date&order=date`);
    assert.deepEqual(entries, [{ date: dates.priced }], 'the reopened date keeps no entry; the priced one stays');
  });

  it('the unit\'s automated e-mails, one switched off for this unit only and on again', { skip }, async () => {
    const { page } = session;
    const confirmed = 'Your stay at {{ product.name }} is confirmed ({{ booking.reference }})';
    const everyOne = await sentFor(unitId);
    assert.equal(everyOne.length, DEFAULT_TEMPLATES.length, 'the default templates act for every unit');
    const emails = page.getByRole('region', { name: 'E-mails' });
    const rows = emails.getByRole('table', { name: 'Automated e-mails of this unit' }).getByRole('row');
    await rows.nth(DEFAULT_TEMPLATES.length).waitFor();
    assert.equal(await rows.count(), DEFAULT_TEMPLATES.length + 1, 'a header and the default templates');
    await emails.getByRole('cell', { name: '3 days before a payment is due', exact: true }).waitFor();
    const toggle = emails.getByRole('switch', { name: `Send "${confirmed}" for this unit` });
    assert.equal(await toggle.isChecked(), true);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await toggle.click({ force: true });
    await emails.getByRole('switch', { name: `Send "${confirmed}" for this unit`, checked: false }).and(page.locator(':not([disabled])')).waitFor();
    assert.deepEqual(await sentFor(unitId), everyOne.filter((subject) => subject !== confirmed), 'not for this unit');
    assert.deepEqual(await sentFor(otherUnitId), everyOne, 'still for the others');
    await emails.evaluate((section) => window.scrollTo(0, section.getBoundingClientRect().top + window.scrollY - 80));
    const box = (await emails.boundingBox())!;
    await page.screenshot({ path: join(SCREENSHOTS, 'units-emails.png'), clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16 } });

    await toggle.click({ force: true });
    await emails.getByRole('switch', { name: `Send "${confirmed}" for this unit`, checked: true }).and(page.locator(':not([disabled])')).waitFor();
    assert.deepEqual(await sentFor(unitId), everyOne, 'for this unit again');
    assert.deepEqual(await sentFor(otherUnitId), everyOne);
  });

  it('the groups "Guests" counts: Pets ticked, and a stay with pets beyond six guests is refused; unticked, allowed', { skip }, async () => {
    const { page, api } = session;
    const { body: groups } = await api<{ id: string; name: { default: string } }[]>('GET', '/v1/capacity_groups?select=id,name');
    const group = (name: string) => groups.find((row) => row.name.default === name)!.id;
    const dates = nextMonthDates();
    const stay = { product_id: unitId, interval: { start: dates.closing, end: `${dates.closing.slice(0, 8)}15` },
      occupancy: { [group('Adults')]: 5, [group('Children')]: 1, [group('Pets')]: 2 } };
    assert.equal((await api('POST', '/v1/quote', stay)).status, 200, 'six guests and two pets: Guests counts adults and children');

    const counts = page.getByRole('region', { name: 'Capacity' }).getByRole('group', { name: 'Groups Guests counts' });
    assert.equal(await counts.getByRole('checkbox', { name: 'Adults' }).isChecked(), true);
    assert.equal(await counts.getByRole('checkbox', { name: 'Children' }).isChecked(), true);
    const pets = counts.getByRole('checkbox', { name: 'Pets' });
    assert.equal(await pets.isChecked(), false);
    await pets.click(); // saved, then shown ticked
    await counts.getByRole('checkbox', { name: 'Pets', checked: true }).waitFor();
    const refused = await api<{ code: string }>('POST', '/v1/quote', stay);
    assert.equal(refused.status, 422, 'eight guests with the pets: above the six of Guests');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    const section = page.getByRole('region', { name: 'Capacity' });
    await section.evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 80));
    const box = (await section.boundingBox())!;
    await page.screenshot({ path: join(SCREENSHOTS, 'units-capacity.png'), clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16 } });

    await pets.click();
    await counts.getByRole('checkbox', { name: 'Pets', checked: false }).waitFor();
    assert.equal((await api('POST', '/v1/quote', stay)).status, 200, 'Pets no longer counted');
  });

  it('a capacity group is renamed in place in each language its name has; an empty name is refused at its field', { skip }, async () => {
    const { page } = session;
    const name = async () => (await ctx.db.query<{ name: Record<string, string> }>(
      `SELECT name FROM api.capacity_groups WHERE organization_id = $1 AND "order" = 3`, [organizationId])).rows[0]!.name;
    assert.deepEqual(await name(), { default: 'Pets', 'nl-NL': 'Huisdieren' });
    const section = page.getByRole('region', { name: 'Capacity' });
    await section.getByRole('button', { name: 'Rename Pets' }).click();
    const form = section.getByRole('form', { name: 'Rename Pets' });
    assert.equal(await form.getByLabel('Name in Dutch (Netherlands)').inputValue(), 'Huisdieren');
    await form.getByLabel('Name in Dutch (Netherlands)').fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    const dutch = form.getByLabel('Name in Dutch (Netherlands)');
    await form.getByText('The name cannot be empty.').waitFor();
    assert.equal(await dutch.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await name(), { default: 'Pets', 'nl-NL': 'Huisdieren' }, 'nothing sent');
    await form.getByLabel('Name', { exact: true }).fill('Animals');
    await dutch.fill('Dieren');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    assert.deepEqual(await name(), { default: 'Animals', 'nl-NL': 'Dieren' });
    await page.reload();
    await page.getByRole('region', { name: 'Capacity' }).getByLabel('Animals: at least').waitFor();
  });
});
