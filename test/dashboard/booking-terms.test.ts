/**
 * A manager sets what guests accept before booking, in the dashboard in a real browser (Debian's chromium through
 * playwright-core), on both backends, on the demo organization: the organization's booking terms in English, Dutch
 * and German (settings.booking_terms, the other settings kept), refused without the English text; a unit's
 * cancellation policy edited as rows (changed, added, removed), with the sentences guests read. Each is checked in
 * the database. A member who may not change the organization has no "Booking terms" page. axe finds no serious or
 * critical violation. Screenshots go to a temporary folder named in the output.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';
import { createUser, type TestUser } from '../users/support.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-terms-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

forEachBackend('booking terms and cancellation policies in the dashboard', (ctx) => {
  const session = dashboardSession(ctx, browser);
  let organizationId: string;
  let owner: { email: string; password: string };
  let staff: TestUser;
  let page: Page;

  before(async () => {
    if (browserMissing) return;
    ({ owner, page } = session);
    organizationId = session.seeded.organization_id;
    staff = await createUser(ctx.db, organizationId, 'staff@staykit.test', { role: 'staff', permissions: [{ resource: 'products', access: 'write' }] });
  });
  const logIn = (target: Page, user: { email: string; password: string }) => session.logIn(user, target);

  const settings = async () => (await ctx.db.query<{ settings: Record<string, unknown> }>(
    'SELECT settings FROM api.organizations WHERE id = $1', [organizationId])).rows[0]!.settings;

  it('the owner writes the booking terms in English, Dutch and German; the other settings stay', { skip }, async () => {
    const before = await settings();
    const seededTerms = before.booking_terms as Record<string, string>;
    assert.match(seededTerms.default!, /^Check-in from 15:00/, 'the demo has house rules as its terms');
    await logIn(page, owner);
    await page.getByRole('link', { name: 'Booking terms', exact: true }).click();
    await page.getByRole('heading', { name: 'Booking terms' }).waitFor();
    assert.equal(await page.getByLabel(/^English/).inputValue(), seededTerms.default, 'the page shows what is stored');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    // Dutch alone is refused at the English field: guests of other languages would read nothing.
    await page.getByLabel(/^English/).fill('');
    await page.getByLabel('German').fill('');
    await page.getByLabel('Dutch').fill('Huisdieren zijn niet toegestaan.');
    await page.getByRole('button', { name: 'Save booking terms' }).click();
    await page.getByText('Write the English text too').waitFor();
    assert.equal(await page.getByLabel(/^English/).getAttribute('aria-invalid'), 'true');
    assert.deepEqual((await settings()).booking_terms, seededTerms, 'nothing saved');

    await page.getByLabel(/^English/).fill('Pets are not allowed.\nQuiet hours from 22:00.');
    await page.getByLabel('German').fill('Haustiere sind nicht erlaubt.');
    await page.getByRole('button', { name: 'Save booking terms' }).click();
    await page.getByRole('status').filter({ hasText: 'Booking terms saved.' }).waitFor();
    const after = await settings();
    assert.deepEqual(after.booking_terms, {
      default: 'Pets are not allowed.\nQuiet hours from 22:00.', nl: 'Huisdieren zijn niet toegestaan.', de: 'Haustiere sind nicht erlaubt.',
    });
    const withoutTerms = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'booking_terms'));
    assert.deepEqual(withoutTerms(after), withoutTerms(before), 'the other settings are as they were');
    assert.equal(await page.getByLabel(/^English/).getAttribute('aria-invalid'), null, 'no longer marked');
    await page.screenshot({ path: join(SCREENSHOTS, `dashboard-booking-terms-${ctx.backend}.png`), fullPage: true });
    assert.deepEqual(await seriousAccessibilityViolations(page), []);

    // Read again, the page shows what is stored; emptying every text removes the terms.
    await page.reload();
    await page.getByLabel('German').waitFor();
    assert.equal(await page.getByLabel('German').inputValue(), 'Haustiere sind nicht erlaubt.');
    assert.equal(await page.getByLabel(/^English/).inputValue(), 'Pets are not allowed.\nQuiet hours from 22:00.');
    for (const label of [/^English/, 'Dutch', 'German']) await page.getByLabel(label).fill('');
    await page.getByRole('button', { name: 'Save booking terms' }).click();
    await page.getByRole('status').filter({ hasText: 'Booking terms saved.' }).waitFor();
    assert.equal((await settings()).booking_terms, undefined);
    assert.deepEqual(await settings(), withoutTerms(before));
    await page.getByLabel('Dutch').fill('Geen huisdieren.');
    await page.getByLabel(/^English/).fill('No pets.');
    await page.getByRole('button', { name: 'Save booking terms' }).click();
    await page.getByRole('status').filter({ hasText: 'Booking terms saved.' }).waitFor();
    assert.deepEqual((await settings()).booking_terms, { default: 'No pets.', nl: 'Geen huisdieren.' });
  });

  it('the owner edits a unit\'s cancellation policy as rows: one changed, one added, one removed', { skip }, async () => {
    const policyOf = async () => (await ctx.db.query<{ cancellation_policy: unknown }>(
      `SELECT cancellation_policy FROM api.products WHERE organization_id = $1 AND name->>'default' = 'Beach House'`, [organizationId])).rows[0]!.cancellation_policy;
    assert.deepEqual(await policyOf(), [{ days_before_arrival: 30, refund_percentage: 100 }, { days_before_arrival: 14, refund_percentage: 50 }]);
    await page.getByRole('link', { name: 'Units and prices', exact: true }).click();
    await page.getByRole('link', { name: 'Beach House', exact: true }).click();
    const section = page.getByRole('region', { name: 'Cancellation policy' });
    await section.getByRole('heading', { name: 'Cancellation policy' }).waitFor();
    const read = section.getByRole('list', { name: 'What guests read' }).getByRole('listitem');
    assert.deepEqual(await read.allTextContents(), [
      'Free cancellation until 30 days before arrival.', '50 % refunded until 14 days before arrival.', 'No refund after that.',
    ]);

    await section.getByLabel('Refund percentage, rule 2').fill('40');
    await section.getByRole('button', { name: 'Add a rule' }).click();
    await section.getByLabel('Days before arrival, rule 3').fill('3');
    await section.getByLabel('Refund percentage, rule 3').fill('10');
    await section.getByRole('button', { name: 'Remove rule 1' }).click();
    assert.deepEqual(await read.allTextContents(), [
      '40 % refunded until 14 days before arrival.', '10 % refunded until 3 days before arrival.', 'No refund after that.',
    ]);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await section.getByRole('button', { name: 'Save cancellation policy' }).click();
    await section.getByRole('status').filter({ hasText: 'Cancellation policy saved.' }).waitFor();
    assert.deepEqual(await policyOf(), [{ days_before_arrival: 14, refund_percentage: 40 }, { days_before_arrival: 3, refund_percentage: 10 }]);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, `dashboard-cancellation-policy-${ctx.backend}.png`), fullPage: true });

    // Every rule removed: everything paid is refunded, as guests then read.
    await section.getByRole('button', { name: 'Remove rule 1' }).click();
    await section.getByRole('button', { name: 'Remove rule 1' }).click();
    assert.deepEqual(await read.allTextContents(), ['Free cancellation: everything paid is refunded, whenever you cancel.']);
    await section.getByRole('button', { name: 'Save cancellation policy' }).click();
    await section.getByRole('status').filter({ hasText: 'Cancellation policy saved.' }).waitFor();
    assert.deepEqual(await policyOf(), []);
  });

  it('a member who may not change the organization has no booking terms page, but edits policies with products:write', { skip }, async () => {
    const staffContext = await browser().newContext({ viewport: { width: 1360, height: 900 } });
    const staffPage = await staffContext.newPage();
    staffPage.setDefaultTimeout(30_000);
    try {
      await logIn(staffPage, staff);
      await staffPage.getByRole('link', { name: 'Units and prices', exact: true }).waitFor();
      assert.equal(await staffPage.getByRole('link', { name: 'Booking terms', exact: true }).count(), 0);
      await staffPage.getByRole('link', { name: 'Units and prices', exact: true }).click();
      await staffPage.getByRole('link', { name: 'Beach House', exact: true }).click();
      await staffPage.getByRole('region', { name: 'Cancellation policy' }).getByRole('button', { name: 'Add a rule' }).waitFor();
    } finally {
      await staffContext.close();
    }
  });
});
