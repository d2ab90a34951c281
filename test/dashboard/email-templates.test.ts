/**
 * A manager writes an e-mail template in the dashboard, in a real browser (Debian's chromium through playwright-core)
 * under the page's real Content-Security-Policy, on both backends, on the demo organization: a new template whose
 * subject and body get variables from the list (inserted at the cursor); the live preview shows the chosen booking's
 * guest and unit, as HTML in a frame that runs nothing and as text, before anything is saved; a text that does not
 * render is refused at its field; created, duplicated (the copy disabled), disabled, deleted; and a test sent to the
 * manager's own address arrives at the mail server, nowhere else. Each is checked in the database or the mailbox.
 * STAYKIT_UPDATE_SCREENSHOTS=1 writes docs/dashboard/email-templates.png.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { localizedText } from '../../src/common/languages.js';
import { loadConfig } from '../../src/config.js';
import { forEachBackend } from '../support/databases.js';
import { parseMime, startSmtpServer, textOf, type TestSmtpServer } from '../automations/support.js';
import { browserMissing, fileBrowser } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const skip = browserMissing && 'chromium not found';
const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'dashboard');
const TEMPORARY = mkdtempSync(join(tmpdir(), 'staykit-dashboard-templates-shots-'));
/** Where the screenshot docs/dashboard.md shows goes: the docs when asked to update it, else a temporary folder. */
const SCREENSHOTS = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1' ? DOCS : TEMPORARY;
console.log(`# screenshots: ${TEMPORARY}`);

const browser = fileBrowser();

const SUBJECT = 'Welcome {{ guest.first_name }}';

forEachBackend('e-mail templates in the dashboard', (ctx) => {
  let smtp: TestSmtpServer;
  // Before the session's hooks: the app sends through this server.
  before(async () => {
    if (!browserMissing) smtp = await startSmtpServer();
  });
  const session = dashboardSession(ctx, browser, {
    app: () => ({ config: loadConfig({ SMTP_URL: smtp.url, STAYKIT_EMAIL_FROM: 'team@stays.example.com' }) }),
    // Not bypassed: the preview's frame is shown under the policy the server sends.
    context: { bypassCSP: false },
  });
  after(() => smtp?.close());
  let organizationId: string;
  let owner: { email: string; password: string };
  let page: Page;

  before(() => {
    if (browserMissing) return;
    ({ owner, page } = session);
    organizationId = session.seeded.organization_id;
  });

  const templatesWith = async (subject: string) => (await ctx.db.query<{ id: string; type: string; body: Record<string, string> }>(
    `SELECT id, type, body FROM api.email_templates WHERE organization_id = $1 AND subject->>'default' = $2 ORDER BY created_at`,
    [organizationId, subject])).rows;

  /** The guest and unit (named in the guest's language) of the booking the preview shows (the select names it by reference). */
  async function previewedBooking(): Promise<{ first_name: string; unit: string }> {
    const label = await page.getByRole('combobox', { name: 'Preview for booking' }).inputValue();
    const reference = label.split(' · ')[0]!;
    const { rows } = await ctx.db.query<{ first_name: string; name: Record<string, string>; language: string }>(
      `SELECT c.first_name, p.name, coalesce(nullif(c.language, ''), nullif(b.language, ''), o.language) AS language
       FROM api.bookings AS b JOIN api.organizations AS o ON o.id = b.organization_id
       JOIN api.contact_bookings AS cb ON cb.booking_id = b.id JOIN api.contacts AS c ON c.id = cb.contact_id
       JOIN api.calendar_events AS e ON e.booking_id = b.id JOIN api.products AS p ON p.id = e.product_id
       WHERE b.organization_id = $1 AND b.reference = $2 LIMIT 1`, [organizationId, reference]);
    assert.ok(rows[0], `booking ${reference}`);
    return { first_name: rows[0].first_name, unit: localizedText(rows[0].name, rows[0].language) };
  }

  it('creates a template with variables from the list, previewed live for a booking before it is saved', { skip }, async () => {
    await session.logIn(owner);
    await page.getByRole('link', { name: 'E-mail templates', exact: true }).click();
    await page.getByRole('combobox', { name: 'Template' }).waitFor();
    await page.getByRole('button', { name: 'New template' }).click();
    const editor = page.getByRole('form', { name: 'New template' });
    const variables = editor.getByRole('region', { name: 'Variables' });

    await editor.getByLabel('Subject (Default)').fill('Welcome ');
    await variables.getByRole('button', { name: 'guest.first_name', exact: true }).click();
    await editor.getByLabel('Body (Default)').fill('See you at ');
    await variables.getByRole('button', { name: 'product.name', exact: true }).click();
    await editor.getByLabel('Body (Default)').press('End');
    await editor.getByLabel('Body (Default)').pressSequentially('!');
    assert.equal(await editor.getByLabel('Subject (Default)').inputValue(), SUBJECT);
    assert.equal(await editor.getByLabel('Body (Default)').inputValue(), 'See you at {{ product.name }}!');

    const { first_name: guest, unit } = await previewedBooking();
    const preview = editor.getByRole('region', { name: 'Preview' });
    await preview.getByLabel('Preview subject').filter({ hasText: `Welcome ${guest}` }).waitFor();
    assert.match(await preview.getByLabel('Text version').textContent() ?? '', new RegExp(`^See you at ${unit}!`));
    const frame = preview.locator('iframe[title="HTML version"]');
    assert.equal(await frame.getAttribute('sandbox'), '', 'the HTML runs no script and is of no origin');
    await page.frameLocator('iframe[title="HTML version"]').getByRole('article', { name: `Welcome ${guest}` }).getByText(`See you at ${unit}!`).waitFor();
    assert.deepEqual(await templatesWith(SUBJECT), [], 'nothing is saved by a preview');

    // A text that does not render is refused at its field, by the preview already.
    await editor.getByLabel('Body (Default)').fill('Dear {{ guest.frist_name }}');
    await editor.getByText(/^body\.default does not render: undefined variable: guest\.frist_name/).waitFor();
    assert.equal(await editor.getByLabel('Body (Default)').getAttribute('aria-invalid'), 'true');
    await editor.getByLabel('Body (Default)').fill('See you at ');
    await variables.getByRole('button', { name: 'product.name', exact: true }).click();
    await preview.getByLabel('Text version').filter({ hasText: new RegExp(`^See you at ${unit}\n`) }).waitFor();
    assert.equal(await editor.getByLabel('Body (Default)').getAttribute('aria-invalid'), null, 'no longer marked');
    // A full-page screenshot leaves the sandboxed frame (a frame of its own process) blank: a tall window instead.
    await page.setViewportSize({ width: 1360, height: 2300 });
    await page.screenshot({ path: join(SCREENSHOTS, 'email-templates.png') });
    await page.setViewportSize({ width: 1360, height: 900 });

    await editor.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('form', { name: 'Edit template' }).waitFor();
    const created = await templatesWith(SUBJECT);
    assert.equal(created.length, 1);
    assert.equal(created[0]!.type, 'automated');
    assert.deepEqual(created[0]!.body, { default: 'See you at {{ product.name }}' });
  });

  it('sends a test of the template to the signed-in member only', { skip }, async () => {
    const editor = page.getByRole('form', { name: 'Edit template' });
    await editor.getByRole('region', { name: 'Preview' }).getByLabel('Preview subject').waitFor();
    const { first_name: guest } = await previewedBooking();
    const before = smtp.received.length;
    await editor.getByRole('button', { name: 'Send a test to me' }).click();
    await editor.getByRole('status').filter({ hasText: `was sent to ${owner.email}` }).waitFor();
    assert.equal(smtp.received.length, before + 1);
    const mail = parseMime(smtp.received.at(-1)!);
    assert.equal(mail.headers.to, owner.email);
    assert.equal(mail.headers.subject, `[Test] Welcome ${guest}`);
    assert.match(textOf(mail), /^See you at /);
  });

  it('duplicates a template (the copy disabled), disables one and deletes one', { skip }, async () => {
    const chooser = page.getByRole('combobox', { name: 'Template' });
    const confirmed = `${SUBJECT} — When a booking is confirmed`;
    await page.getByRole('form', { name: 'Edit template' }).getByRole('button', { name: 'Duplicate' }).click();
    await until(async () => await chooser.inputValue() === `${confirmed} (disabled)`, 'the copy is shown, disabled');
    assert.deepEqual((await templatesWith(SUBJECT)).map((row) => row.type), ['automated', 'manual'], 'the copy sends nothing until it is enabled');
    const editor = page.getByRole('form', { name: 'Edit template' });
    assert.equal(await editor.getByRole('switch', { name: 'Active: sent on its own' }).isChecked(), false);

    // The original, chosen from the list, is disabled.
    await chooser.click();
    await page.getByRole('option', { name: confirmed, exact: true }).click();
    await until(async () => await editor.getByRole('switch', { name: 'Active: sent on its own' }).isChecked(), 'the original is shown');
    await editor.getByRole('switch', { name: 'Active: sent on its own' }).uncheck();
    await editor.getByRole('button', { name: 'Save' }).click();
    await until(async () => (await templatesWith(SUBJECT)).every((row) => row.type === 'manual'), 'both are disabled');
    await until(async () => await chooser.inputValue() === `${confirmed} (disabled)`, 'the list says so');

    await editor.getByRole('button', { name: 'Delete' }).click();
    await editor.getByRole('button', { name: 'Yes, delete' }).click();
    await until(async () => !(await chooser.inputValue()).startsWith(SUBJECT), 'another template is shown');
    assert.equal((await templatesWith(SUBJECT)).length, 1);
  });

  it('makes a payment reminder: the trigger, the days before the due date and the time, with the payment\'s variables', { skip }, async () => {
    const reminder = 'Due soon: {{ payment.amount }}';
    const chooser = page.getByRole('combobox', { name: 'Template' });
    await page.getByRole('button', { name: 'New template' }).click();
    const editor = page.getByRole('form', { name: 'New template' });
    await editor.getByLabel('Subject (Default)').fill('Due soon: ');
    await editor.getByRole('region', { name: 'Variables' }).getByRole('button', { name: 'payment.amount', exact: true }).click();
    await editor.getByLabel('Body (Default)').fill('Please pay by the due date.');
    await editor.getByRole('combobox', { name: 'Sent' }).click();
    await page.getByRole('option', { name: 'Before a payment is due', exact: true }).click();
    await editor.getByRole('textbox', { name: 'Days' }).fill('-2');
    await editor.getByLabel("At (the unit's time)").fill('09:30');
    await page.setViewportSize({ width: 1360, height: 1400 });
    await page.screenshot({ path: join(TEMPORARY, 'payment-reminder-template.png') });
    await page.setViewportSize({ width: 1360, height: 900 });
    await editor.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('form', { name: 'Edit template' }).waitFor();
    const { rows } = await ctx.db.query<{ trigger: string; payment_due_offset: number; time: string; moment: unknown }>(
      `SELECT trigger, payment_due_offset, "time"::text AS time, moment FROM api.email_templates
       WHERE organization_id = $1 AND subject->>'default' = $2`, [organizationId, reminder]);
    assert.deepEqual(rows, [{ trigger: 'payment_due', payment_due_offset: -2, time: '09:30:00', moment: null }]);
    await until(async () => await chooser.inputValue() === `${reminder} — -2 days from a payment's due date`, 'the list names it');
  });
});

/** Waits (up to 15 s) until `condition` holds. */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 15_000;) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`timed out waiting until ${what}`);
}
