/**
 * The dashboard's bookings list in a real browser, on both backends: the demo organization plus a unit of this test
 * with 60 stays (more than two pages), a few cancelled, some paid in full, one guest with a name nobody else has.
 * Searching for that guest finds their booking; the unit, status and payment filters narrow the list to the number of
 * bookings the database holds for them; the pages move through all 60 in the chosen order; the CSV export downloads
 * every filtered booking, not just the page. Screenshots go to a temporary folder named in the output.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays } from '../../web/dashboard/src/common/dates.js';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-bookings-list-'));
console.log(`# screenshots: ${SCREENSHOTS}`);
const STAYS = 60;

const browser = fileBrowser();

forEachBackend('the bookings list', (ctx) => {
  const session = dashboardSession(ctx, browser);
  let unitId: string;
  /** The test unit's references in arrival order. */
  let references: string[];

  before(async () => {
    if (browserMissing) return;
    const data = fixtures(ctx.db, session.seeded.organization_id);
    unitId = await data.product({ name: { default: 'Paging Lodge' } });
    const bookings = await data.rows<{ id: string; reference: string }>('bookings', Array.from({ length: STAYS }, () => ({})));
    // Two-night stays one after another from 2031, so every one is upcoming and none overlaps another.
    await data.rows('calendar_events', bookings.map((booking, index) => ({
      booking_id: booking.id, product_id: unitId, type: 'booking', status: index % 7 === 3 ? 'CANCELLED' : 'CONFIRMED',
      start_date: addDays('2031-01-01', index * 2), end_date: addDays('2031-01-01', index * 2 + 2),
    })));
    const contacts = await data.rows<{ id: string }>('contacts', bookings.map((_, index) => (
      index === 16 ? { first_name: 'Zebedee', last_name: 'Quillfeather', email: 'zq@example.com' } : { first_name: 'Guest', last_name: `Number ${index}`, email: `guest${index}@example.com` })));
    await data.rows('contact_bookings', bookings.map((booking, index) => ({ booking_id: booking.id, contact_id: contacts[index]!.id })));
    // Every third booking paid in full; every fifth paid in part (one paid, one pending); the others owe everything.
    await data.rows('payments', bookings.flatMap((booking, index) => index % 3 === 0
      ? [{ booking_id: booking.id, amount: 30000, currency: 'EUR', status: 'paid' }]
      : index % 5 === 0 ? [{ booking_id: booking.id, amount: 10000, currency: 'EUR', status: 'paid' }, { booking_id: booking.id, amount: 20000, currency: 'EUR', status: 'pending' }]
        : [{ booking_id: booking.id, amount: 30000, currency: 'EUR', status: 'pending' }]));
    references = bookings.map((booking) => booking.reference);
    await session.logIn(session.owner);
  });

  const count = async (where: string) => (await ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM api.calendar_events AS e WHERE e.product_id = $1 AND e.type = 'booking' AND ${where}`, [unitId])).rows[0]!.n;
  const shownReferences = () => session.page.locator('tbody tr[data-booking-id] a').allTextContents();
  const choose = async (label: string, option: string) => {
    await session.page.getByRole('combobox', { name: label }).click();
    await session.page.getByRole('option', { name: option, exact: true }).click();
  };

  it('finds a guest by name, and narrows by unit, status and payment to the counts the database holds', { skip }, async () => {
    const { page } = session;
    await page.goto(`${session.base}/admin/bookings`);
    await page.getByRole('heading', { name: 'Bookings' }).waitFor();
    await page.getByLabel('Guest').fill('quillfeath');
    await page.getByText('1 booking', { exact: true }).waitFor();
    assert.deepEqual(await shownReferences(), [references[16]]);
    await page.getByLabel('Guest').fill('');

    await choose('Unit', 'Paging Lodge');
    await page.getByText(`${STAYS} bookings`, { exact: true }).waitFor();
    await choose('Status', 'Cancelled');
    const cancelled = await count(`e.status = 'CANCELLED'`);
    assert.ok(cancelled > 0);
    await page.getByText(`${cancelled} booking${cancelled === 1 ? '' : 's'}`, { exact: true }).waitFor();
    assert.deepEqual(await shownReferences(), references.filter((_, index) => index % 7 === 3));
    await choose('Status', 'Confirmed');
    await choose('Payment', 'Paid in full');
    const paid = await count(`e.status = 'CONFIRMED' AND EXISTS (SELECT 1 FROM api.payments AS p WHERE p.booking_id = e.booking_id AND p.status = 'paid')
      AND NOT EXISTS (SELECT 1 FROM api.payments AS p WHERE p.booking_id = e.booking_id AND p.status NOT IN ('paid', 'cancelled'))`);
    await page.getByText(`${paid} bookings`, { exact: true }).waitFor();
    assert.ok((await page.locator('tbody [data-payment]').evaluateAll((badges) => badges.map((badge) => badge.getAttribute('data-payment')))).every((state) => state === 'paid'));
    await choose('Payment', 'Still to be paid');
    const open = await count(`e.status = 'CONFIRMED' AND EXISTS (SELECT 1 FROM api.payments AS p WHERE p.booking_id = e.booking_id AND p.status NOT IN ('paid', 'cancelled'))`);
    assert.equal(paid + open, await count(`e.status = 'CONFIRMED'`), 'every confirmed stay of the unit owes something or is paid');
    await page.getByText(`${open} bookings`, { exact: true }).waitFor();
    const states = await page.locator('tbody [data-payment]').evaluateAll((badges) => badges.map((badge) => badge.getAttribute('data-payment')));
    assert.ok(states.includes('partly paid') && states.every((state) => state === 'unpaid' || state === 'partly paid'), states.join());
    await page.screenshot({ path: join(SCREENSHOTS, `filtered-${ctx.backend}.png`), fullPage: true });
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
  });

  it('pages through more than two pages of stays in arrival order', { skip }, async () => {
    const { page } = session;
    await page.goto(`${session.base}/admin/bookings`);
    await choose('Unit', 'Paging Lodge');
    await choose('Order', 'All, earliest arrival first');
    await page.getByText(`${STAYS} bookings`, { exact: true }).waitFor();
    assert.deepEqual(await shownReferences(), references.slice(0, 25));
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.locator('tbody tr[data-booking-id] a', { hasText: references[25]! }).waitFor();
    assert.deepEqual(await shownReferences(), references.slice(25, 50));
    await page.getByRole('button', { name: 'Page 3' }).click();
    await page.locator('tbody tr[data-booking-id] a', { hasText: references[50]! }).waitFor();
    assert.deepEqual(await shownReferences(), references.slice(50));
    await choose('Order', 'All, latest arrival first');
    // The last of the first page in that order: not on page 3 of the other order.
    await page.locator('tbody tr[data-booking-id] a', { hasText: references[STAYS - 25]! }).waitFor();
    assert.deepEqual(await shownReferences(), references.slice().reverse().slice(0, 25), 'a new order starts again at page 1');
    await page.screenshot({ path: join(SCREENSHOTS, `paged-${ctx.backend}.png`), fullPage: true });
  });

  it('exports every filtered booking as CSV, not only the page shown', { skip }, async () => {
    const { page } = session;
    await page.goto(`${session.base}/admin/bookings`);
    await choose('Unit', 'Paging Lodge');
    await page.getByText(`${STAYS} bookings`, { exact: true }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const file = join(SCREENSHOTS, `export-${ctx.backend}.csv`);
    await download.saveAs(file);
    const [header, ...lines] = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    assert.equal(header, 'Reference,Guest,E-mail,Unit,Arrival,Departure,Status,Source,Booked,Total,Currency,Payment');
    assert.equal(lines.length, STAYS);
    assert.deepEqual(lines.map((line) => line.split(',')[0]), references, 'every stay, in the list order (arrival)');
    assert.match(lines[16]!, /^[A-Z0-9-]+,Zebedee Quillfeather,zq@example\.com,Paging Lodge,2031-02-02,2031-02-04,Confirmed,API,[^,]+,,EUR,unpaid$/);
  });

  it('reads in German: the filters, the count and the form', { skip }, async () => {
    const { page } = session;
    await page.goto(`${session.base}/admin/bookings`);
    await page.getByLabel('Language').selectOption('de');
    try {
      await page.getByRole('heading', { name: 'Buchungen' }).waitFor();
      await page.getByRole('combobox', { name: 'Unterkunft' }).click();
      await page.getByRole('option', { name: 'Paging Lodge', exact: true }).click();
      await page.getByText(`${STAYS} Buchungen`, { exact: true }).waitFor();
      await page.getByRole('combobox', { name: 'Herkunft' }).waitFor();
      await page.getByRole('button', { name: 'Als CSV exportieren' }).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, `german-${ctx.backend}.png`), fullPage: true });
      await page.getByRole('button', { name: 'Neue Buchung' }).click();
      await page.getByRole('dialog', { name: 'Neue Buchung' }).getByRole('combobox', { name: 'Unterkunft' }).waitFor();
      await page.getByRole('dialog').screenshot({ path: join(SCREENSHOTS, `german-form-${ctx.backend}.png`) });
      await page.keyboard.press('Escape');
    } finally {
      await page.getByLabel('Sprache').selectOption('en');
    }
  });
});
