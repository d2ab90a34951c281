/**
 * The Organization page (/admin/settings/organization) in a real browser (Debian's chromium through playwright-core),
 * on both backends, on the demo organization: the owner renames the organization, changes its defaults, uploads a
 * logo and picks a brand colour while a preview shows an e-mail's beginning with them (white text on a dark colour,
 * dark on a light one); a colour that is not #rrggbb is refused at the field; the other settings (the demo's booking
 * terms) are kept; removing the logo deletes it. A member who may not change the organization has no link to the
 * page and reads it without a way to save. Each is checked in the database; axe finds no serious or critical
 * violation. Screenshots go to a temporary folder named in the output.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { forEachBackend } from '../support/databases.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';
import { createUser, type TestUser } from '../users/support.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-organization-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

/** A wide logo: a teal wave and the letters of a name, drawn by sharp. */
const logo = () => sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="480" height="120">
  <rect width="480" height="120" fill="#ffffff"/><path d="M10 80 Q 60 20 110 80 T 210 80" stroke="#0f766e" stroke-width="14" fill="none"/>
  <text x="230" y="78" font-family="sans-serif" font-size="44" font-weight="700" fill="#0f766e">Seaside</text></svg>`)).png().toBuffer();

forEachBackend('the organization profile in the dashboard', (ctx) => {
  const session = dashboardSession(ctx, browser);
  let organizationId: string;
  let staff: TestUser;
  let page: Page;

  before(async () => {
    if (browserMissing) return;
    page = session.page;
    organizationId = session.seeded.organization_id;
    staff = await createUser(ctx.db, organizationId, 'reader@staykit.test', { role: 'staff', permissions: [{ resource: 'products', access: 'read' }] });
  });

  const organization = async () => (await ctx.db.query<{ name: string; currency: string; timezone: string; settings: Record<string, unknown> }>(
    'SELECT name, currency, timezone, settings FROM api.organizations WHERE id = $1', [organizationId])).rows[0]!;
  const mediaIds = async () => (await ctx.db.query<{ id: string }>('SELECT id FROM api.media WHERE organization_id = $1', [organizationId])).rows.map((row) => row.id);
  const preview = () => page.getByRole('figure', { name: 'E-mail preview' });
  const colorOf = (testId: string) => preview().getByTestId(testId).evaluate((element) => {
    const style = getComputedStyle(element);
    return { background: style.backgroundColor, text: getComputedStyle(element.querySelector('p') ?? element).color };
  });

  it('the owner renames the organization, uploads a logo and picks a colour, seeing the e-mail change', { skip }, async () => {
    const before = await organization();
    const mediaBefore = await mediaIds();
    await session.logIn(session.owner);
    await page.getByRole('link', { name: 'Organization', exact: true }).click();
    await page.getByRole('heading', { name: 'Organization', exact: true }).waitFor();
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), before.name, 'the page shows what is stored');
    assert.ok((await preview().innerText()).includes(before.name), 'the preview shows the name');
    assert.equal(await preview().getByTestId('preview-bar').count(), 0, 'no colour yet: the name in blue on grey');

    // The logo is saved at once, and shows in the preview.
    await page.getByRole('region', { name: 'Logo' }).locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await logo() });
    await page.getByRole('button', { name: 'Replace logo' }).waitFor();
    const logoId = (await organization()).settings.logo_media_id as string;
    assert.ok(logoId && !mediaBefore.includes(logoId), 'a new media row is the logo');
    await page.waitForFunction(() => {
      const image = document.querySelector('[data-testid="preview-logo"]') as HTMLImageElement | null;
      return image !== null && image.complete && image.naturalWidth > 0;
    });

    // A colour that is not one is refused at the field; nothing is saved.
    const color = page.getByLabel('Brand colour');
    await color.fill('teal');
    await color.press('Tab');
    await page.getByRole('button', { name: 'Save organization' }).click();
    await page.getByText('Write the colour as # and six hexadecimal digits').waitFor();
    assert.equal((await organization()).settings.brand_color, undefined);

    // A light colour gets dark text, a dark one white text.
    await color.fill('#fde047');
    await color.press('Tab');
    assert.deepEqual(await colorOf('preview-bar'), { background: 'rgb(253, 224, 71)', text: 'rgb(17, 24, 39)' });
    await color.fill('#0f766e');
    await color.press('Tab');
    assert.deepEqual(await colorOf('preview-bar'), { background: 'rgb(15, 118, 110)', text: 'rgb(255, 255, 255)' });
    assert.equal((await colorOf('preview-button')).background, 'rgb(15, 118, 110)');

    await page.getByLabel('Name', { exact: true }).fill('Seaside Holiday Homes');
    await page.getByRole('combobox', { name: 'Time zone' }).fill('Europe/Lisbon');
    await page.getByRole('option', { name: 'Europe/Lisbon', exact: true }).click();
    await page.getByRole('button', { name: 'Save organization' }).click();
    await page.getByRole('status').filter({ hasText: 'Organization saved.' }).waitFor();
    const after = await organization();
    assert.equal(after.name, 'Seaside Holiday Homes');
    assert.equal(after.timezone, 'Europe/Lisbon');
    assert.equal(after.settings.brand_color, '#0f766e');
    assert.equal(after.settings.logo_media_id, logoId);
    const others = (settings: Record<string, unknown>) => Object.fromEntries(Object.entries(settings).filter(([key]) => !['brand_color', 'logo_media_id'].includes(key)));
    assert.deepEqual(others(after.settings), others(before.settings), 'the other settings (booking terms, …) are as they were');
    assert.ok(after.settings.booking_terms, 'the demo\'s booking terms are among them');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.screenshot({ path: join(SCREENSHOTS, `dashboard-organization-${ctx.backend}.png`), fullPage: true });

    // Read again, the page shows what is stored.
    await page.reload();
    await page.getByLabel('Brand colour').waitFor();
    assert.equal(await page.getByLabel('Brand colour').inputValue(), '#0f766e');
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'Seaside Holiday Homes');
    await preview().getByTestId('preview-logo').waitFor();
  });

  it('removing the logo deletes it', { skip }, async () => {
    const logoId = (await organization()).settings.logo_media_id as string;
    await page.getByRole('button', { name: 'Remove logo' }).click();
    await page.getByRole('button', { name: 'Upload logo' }).waitFor();
    assert.equal((await organization()).settings.logo_media_id, undefined);
    assert.ok(!(await mediaIds()).includes(logoId), 'the media row is gone');
    assert.equal(await preview().getByTestId('preview-logo').count(), 0);
    assert.equal((await organization()).settings.brand_color, '#0f766e', 'the colour stays');
  });

  it('a member who may not change the organization has no link to it and reads it without saving', { skip }, async () => {
    const readerContext = await browser().newContext({ viewport: { width: 1360, height: 900 } });
    const readerPage = await readerContext.newPage();
    readerPage.setDefaultTimeout(30_000);
    try {
      await session.logIn(staff, readerPage);
      assert.equal(await readerPage.getByRole('link', { name: 'Organization', exact: true }).count(), 0);
      await readerPage.goto(`${session.base}/admin/settings/organization`);
      await readerPage.getByLabel('Name', { exact: true }).waitFor();
      assert.equal(await readerPage.getByLabel('Name', { exact: true }).getAttribute('readonly'), '');
      assert.equal(await readerPage.getByRole('button', { name: 'Save organization' }).count(), 0);
      assert.equal(await readerPage.getByRole('button', { name: /logo/ }).count(), 0);
      await readerPage.screenshot({ path: join(SCREENSHOTS, `dashboard-organization-read-only-${ctx.backend}.png`), fullPage: true });
    } finally {
      await readerContext.close();
    }
  });
});
