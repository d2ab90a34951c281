/**
 * A new booking made from the bookings list in a real browser, on both backends: on a unit of this test (in the demo
 * organization, whose default e-mail templates write to every new booking's guest) with an extra — a breakfast basket
 * the guest may tick — the manager chooses the unit and the dates in the form, fills in the guest, ticks the extra,
 * enters the demo's coupon and sees the price the booking flow quotes (the same as POST /v1/quote answers) before
 * saving; saved silent, the booking holds the extra and the coupon at the quoted total, and no e-mail to the guest is
 * queued (no template job, no message). Screenshots go to a temporary folder named in the output.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays } from '../../web/dashboard/src/common/dates.js';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-new-booking-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

/** A day as the date picker names it: "10 June 2027". */
const dayLabel = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

forEachBackend('a new booking from the list', (ctx) => {
  const session = dashboardSession(ctx, browser);
  let unitId: string;
  let adults: string;
  const arrival = addDays(new Date().toISOString().slice(0, 10), 45);
  const departure = addDays(arrival, 3);

  before(async () => {
    if (browserMissing) return;
    const organizationId = session.seeded.organization_id;
    const data = fixtures(ctx.db, organizationId);
    unitId = await data.product({ name: { default: 'Orchard House' } });
    await data.configuration(unitId, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    adults = (await ctx.db.query<{ id: string }>(
      `SELECT id FROM api.capacity_groups WHERE organization_id = $1 AND name->>'default' = 'Adults'`, [organizationId])).rows[0]!.id;
    await data.capacity(unitId, adults, 1, 4);
    await data.service(unitId, { name: { default: 'Breakfast basket' }, type: 'checkbox', pricing: { per: 'stay', amount: 2500 } });
    await session.logIn(session.owner);
  });

  it('chooses unit and dates, ticks an extra, takes a coupon, shows the quoted price, and books silently', { skip }, async () => {
    const { page } = session;
    await page.goto(`${session.base}/admin/bookings`);
    await page.getByRole('button', { name: 'New booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'New booking' });
    await dialog.getByRole('combobox', { name: 'Unit' }).click();
    await page.getByRole('option', { name: 'Orchard House', exact: true }).click();
    await dialog.getByRole('button', { name: /^Arrival and departure/ }).click();
    for (const day of [arrival, departure]) {
      const button = page.getByRole('button', { name: dayLabel(day), exact: true }).first();
      for (let months = 0; !(await button.isVisible()) && months < 4; months += 1) await page.locator('[data-direction="next"]').first().click();
      await button.click();
    }
    await dialog.getByLabel('First name').fill('Margaret');
    await dialog.getByLabel('Last name').fill('Hamilton');
    await dialog.getByLabel('E-mail').fill('margaret@example.com');
    await dialog.getByLabel('Phone').fill('+31 6 1234 5678');
    await dialog.getByLabel('Adults').fill('2');
    await dialog.getByRole('checkbox', { name: 'Breakfast basket' }).check();
    await dialog.getByLabel('Coupon code').fill('welcome10');
    await dialog.getByRole('button', { name: 'Check price' }).click();

    const price = dialog.getByRole('table', { name: 'Price' });
    await price.getByText('Breakfast basket').waitFor();
    const shown = await price.locator('[data-total]').textContent();
    // Three nights at 100.00 and the basket at 25.00, less the demo's 10 % coupon.
    assert.equal(shown!.replace(/\D/g, ''), String((3 * 10000 + 2500) * 0.9));
    await dialog.screenshot({ path: join(SCREENSHOTS, `quoted-${ctx.backend}.png`) });
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    await dialog.getByRole('checkbox', { name: /^Silent booking/ }).check();
    await dialog.getByRole('button', { name: 'Book', exact: true }).click();
    await page.waitForURL(/\/admin\/bookings\/[0-9a-f-]{36}$/);
    const bookingId = page.url().split('/').at(-1)!;

    const { rows: [booking] } = await ctx.db.query<{ silent: boolean; phone: string; total: number; items: string[] }>(
      `SELECT b.silent, c.phone,
              (SELECT sum(amount)::int FROM api.line_items WHERE booking_id = b.id AND fee_type = 'fee') AS total,
              (SELECT array_agg(item_type ORDER BY item_type) FROM api.line_items WHERE booking_id = b.id) AS items
       FROM api.bookings AS b JOIN api.contact_bookings AS cb ON cb.booking_id = b.id JOIN api.contacts AS c ON c.id = cb.contact_id
       WHERE b.id = $1`, [bookingId]);
    assert.equal(booking!.silent, true);
    assert.equal(booking!.phone, '+31 6 1234 5678');
    assert.equal(shown!.replace(/\D/g, ''), String(booking!.total), 'the booking costs what the form quoted (in cents)');
    assert.ok(booking!.items.includes('service') && booking!.items.includes('coupon'), booking!.items.join());

    // The demo's templates write to every new booking's guest; a silent one queues nothing and no message.
    const { rows: [templates] } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM api.email_templates WHERE organization_id = $1 AND trigger IN ('created', 'confirmed') AND type = 'automated'`,
      [session.seeded.organization_id]);
    assert.ok(templates!.n > 0, 'a booking that is not silent would be written to');
    const { rows: [queued] } = await ctx.db.query<{ jobs: number; messages: number }>(
      `SELECT (SELECT count(*)::int FROM staykit_internal.automation_jobs WHERE booking_id = $1 AND kind = 'template') AS jobs,
              (SELECT count(*)::int FROM api.messages WHERE booking_id = $1) AS messages`, [bookingId]);
    assert.deepEqual(queued, { jobs: 0, messages: 0 });
  });
});
