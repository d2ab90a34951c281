/**
 * A manager's day in Dutch, in a real browser on both backends, from the demo login: a booking request accepted on
 * Today; on a booking a bank transfer recorded (the booking shows paid), a refund above what was paid refused, an
 * invoice issued and its PDF downloaded, the stay-change form opened; the new-booking form; the cleaning of a unit
 * assigned to a cleaner on the tasks board; a widget created. At every step — each dialog and menu included — the
 * page shows none of the dashboard's English texts (./support/dutch.ts), axe finds nothing serious, and a
 * screenshot is taken (STAYKIT_UPDATE_SCREENSHOTS=1: into docs/dashboard/nl/flow-*.png). Buttons and fields are found
 * by their Dutch words, taken from the dashboard's own messages.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Locator } from 'playwright-core';
import sharp from 'sharp';
import { addDays } from '../../src/common/dates.js';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { organizationToday } from '../support/organization-today.js';
import { createUser } from '../users/support.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';
import { englishShown, nl } from './support/dutch.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1'
  ? join(import.meta.dirname, '..', '..', 'docs', 'dashboard', 'nl')
  : mkdtempSync(join(tmpdir(), 'staykit-dashboard-dutch-flow-shots-'));
mkdirSync(SCREENSHOTS, { recursive: true });
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();
const run = promisify(execFile);
/** A Dutch text with its placeholders as wildcards, for names that hold an amount or a date. */
const like = (key: string) => new RegExp(`^${String(nl(key, { amount: '\u0000', name: '\u0000', reference: '\u0000' }))
  .replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\u0000/g, '.+')}$`);

forEachBackend('a manager\'s day in Dutch', (ctx) => {
  const session = dashboardSession(ctx, browser);
  const problems: string[] = [];
  let booking: { id: string; reference: string; paymentId: string; amount: number };
  let cleaningId: string;

  /** Each step: no English text of the dashboard in `scope` (default the page), nothing serious for axe, a screenshot. */
  async function check(step: string, scope?: Locator) {
    const { page } = session;
    await page.waitForLoadState('networkidle');
    // Away from the button last pressed: what is checked is the page as it rests.
    await page.mouse.move(0, 0);
    const english = await englishShown(page, scope);
    if (english.length > 0) problems.push(`${step}: ${english.join(' | ')}`);
    const violations = await seriousAccessibilityViolations(page);
    if (violations.length > 0) problems.push(`${step} axe: ${violations.map((violation) => `${violation.id} ${JSON.stringify(violation.nodes)}`).join('; ')}`);
    await sharp(await page.screenshot()).png({ palette: true, quality: 80, compressionLevel: 9 }).toFile(join(SCREENSHOTS, `flow-${step}.png`));
  }

  before(async () => {
    if (browserMissing) return;
    const organizationId = session.seeded.organization_id;
    const today = await organizationToday(ctx.db, organizationId);
    const { rows: [found] } = await ctx.db.query<{ id: string; reference: string; payment_id: string; amount: number }>(
      `SELECT b.id, b.reference, p.id AS payment_id, p.amount FROM api.bookings AS b
         JOIN api.calendar_events AS e ON e.booking_id = b.id JOIN api.payments AS p ON p.booking_id = b.id
       WHERE b.organization_id = $1 AND e.status = 'CONFIRMED' AND e.start_date > $2::date AND p.status = 'pending'
       ORDER BY e.start_date, p.due_at LIMIT 1`, [organizationId, today]);
    assert.ok(found, 'the demo has a confirmed stay to come with a payment still to pay');
    booking = { id: found.id, reference: found.reference, paymentId: found.payment_id, amount: found.amount };
    // A unit whose guests leave today, with the cleaning due now, and a cleaner to give it to.
    const data = fixtures(ctx.db, organizationId);
    await createUser(ctx.db, organizationId, 'cleo@staykit.test', { role: 'cleaner' });
    const unitId = await data.product({ name: { default: 'Harbour Studio', 'nl-NL': 'Havenstudio' } });
    const stay = await data.row<{ id: string }>('bookings', {});
    const eventId = await data.event(unitId, { booking_id: stay.id, start_date: addDays(today, -2), end_date: today, status: 'CONFIRMED' });
    cleaningId = (await data.row<{ id: string }>('calendar_event_tasks', { calendar_event_id: eventId, label: 'Schoonmaak', due_at: new Date().toISOString() })).id;
  });

  it('Today in Dutch: a booking request is accepted with one click', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
    await page.getByLabel('Language').selectOption('nl');
    await page.getByRole('heading', { name: nl('today:title'), level: 2 }).waitFor();
    const requests = page.getByRole('region', { name: nl('today:requests.title') });
    const accept = requests.getByRole('button', { name: new RegExp(`^${nl('today:requests.accept')} `) });
    await accept.first().waitFor();
    const waiting = await accept.count();
    const name = await accept.first().getAttribute('aria-label');
    const reference = /\S+(?=\)$)/.exec(name!)![0];
    await check('today');
    await accept.first().click();
    await page.waitForFunction(([label]) => !document.querySelector(`[aria-label="${label}"]`), [name]);
    assert.equal(await accept.count(), waiting - 1);
    const { rows: [answered] } = await ctx.db.query<{ status: string }>(
      'SELECT e.status FROM api.calendar_events AS e JOIN api.bookings AS b ON b.id = e.booking_id WHERE b.reference = $1', [reference]);
    assert.equal(answered!.status, 'CONFIRMED');
  });

  it('a booking in Dutch: a bank transfer recorded, a refund above it refused, an invoice issued and its PDF', { skip }, async () => {
    const { page } = session;
    await page.goto(`${session.base}/admin/bookings/${booking.id}`);
    await page.getByRole('heading', { name: nl('booking:page.title', { reference: booking.reference }) }).waitFor();
    await check('booking');

    const payments = page.getByRole('region', { name: nl('booking:payments.title') });
    await payments.getByRole('button', { name: like('booking:payments.recordFor') }).first().click();
    const record = page.getByRole('dialog', { name: nl('booking:payments.recordTitle') });
    await record.getByLabel(nl('booking:payments.method')).click();
    const methods = page.getByRole('listbox');
    await methods.getByRole('option', { name: nl('booking:method.bank_transfer') }).waitFor();
    await check('record-payment', page.locator('[role="dialog"], [role="listbox"]'));
    await methods.getByRole('option', { name: nl('booking:method.bank_transfer') }).click();
    await record.getByRole('button', { name: nl('booking:payments.save') }).click();
    await record.waitFor({ state: 'detached' });
    const { rows: [paid] } = await ctx.db.query<{ status: string; method: string }>('SELECT status, method FROM api.payments WHERE id = $1', [booking.paymentId]);
    assert.deepEqual(paid, { status: 'paid', method: 'bank_transfer' });

    await payments.getByRole('button', { name: like('booking:payments.refundFor') }).first().click();
    const refund = page.getByRole('dialog', { name: like('booking:payments.refundTitle') });
    const amount = refund.getByRole('textbox', { name: new RegExp(`^${nl('booking:payments.amount', { currency: 'EUR' }).replace(/[()]/g, '\\$&')}`) });
    await amount.fill(String(booking.amount / 100 + 1));
    await refund.getByRole('button', { name: nl('booking:payments.refundSave') }).click();
    // Refused at the amount, in the API's words (the server's English; docs/dashboard.md#languages).
    await refund.locator('[aria-invalid="true"]').waitFor();
    assert.equal(await amount.getAttribute('aria-invalid'), 'true');
    await check('refund-refused', refund);
    assert.equal((await ctx.db.query('SELECT id FROM api.refunds WHERE payment_id = $1', [booking.paymentId])).rows.length, 0, 'nothing refunded');
    await page.keyboard.press('Escape');
    await refund.waitFor({ state: 'detached' });

    const invoices = page.getByRole('region', { name: nl('booking:invoices.title') });
    await invoices.getByRole('button', { name: nl('booking:invoices.create') }).click();
    await invoices.getByRole('button', { name: nl('booking:invoices.issueNamed', { name: nl('booking:invoices.draft') }) }).click();
    await invoices.getByText(nl('booking:invoiceStatus.issued'), { exact: true }).waitFor();
    const { rows: [invoice] } = await ctx.db.query<{ number: string }>('SELECT number FROM api.invoices WHERE booking_id = $1 AND credit_for_id IS NULL', [booking.id]);
    const [download] = await Promise.all([page.waitForEvent('download'),
      invoices.getByRole('button', { name: nl('booking:invoices.pdfNamed', { name: invoice!.number }) }).click()]);
    const text = (await run('pdftotext', ['-layout', (await download.path())!, '-'])).stdout;
    assert.ok(text.includes(invoice!.number), 'the PDF carries the invoice number');
    await check('booking-paid-invoiced');

    await page.getByRole('button', { name: nl('booking:change.button') }).click();
    const change = page.getByRole('dialog', { name: nl('booking:change.title', { reference: booking.reference }) });
    await change.getByRole('button', { name: nl('booking:change.check') }).waitFor();
    await check('change-stay', change);
    await page.keyboard.press('Escape');
    await change.waitFor({ state: 'detached' });
  });

  it('the bookings list and its new-booking form in Dutch', { skip }, async () => {
    const { page } = session;
    await page.getByRole('navigation').getByRole('link', { name: nl('shell:navigation.bookings'), exact: true }).click();
    await page.getByRole('heading', { name: nl('bookings:list.title'), level: 2 }).waitFor();
    await check('bookings');
    await page.getByRole('button', { name: nl('bookings:list.newBooking') }).click();
    const form = page.getByRole('dialog', { name: nl('bookings:list.newBooking') });
    await form.getByRole('combobox').first().waitFor();
    await check('new-booking', form);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
  });

  it('the tasks board in Dutch: today\'s cleaning goes to the cleaner, whose role is in Dutch too', { skip }, async () => {
    const { page } = session;
    await page.getByRole('navigation').getByRole('link', { name: nl('shell:navigation.tasks'), exact: true }).click();
    await page.getByRole('heading', { name: nl('tasks:board.title'), level: 2 }).waitFor();
    const line = page.locator(`[data-task-id="${cleaningId}"]`);
    await line.getByRole('combobox', { name: nl('tasks:board.assignee', { task: 'Schoonmaak' }) }).click();
    const choice = `cleo (${nl('settings:role.cleaner')})`;
    await page.getByRole('option', { name: choice }).waitFor();
    await check('tasks-assign', page.locator('main, [role="listbox"]'));
    await page.getByRole('option', { name: choice }).click();
    await page.waitForFunction(([id, value]) => document.querySelector<HTMLInputElement>(`[data-task-id="${id}"] input`)?.value === value, [cleaningId, choice]);
    const { rows: [task] } = await ctx.db.query<{ assigned: boolean }>('SELECT assignee_id IS NOT NULL AS assigned FROM api.calendar_event_tasks WHERE id = $1', [cleaningId]);
    assert.equal(task!.assigned, true);
  });

  it('a widget is created in Dutch', { skip }, async () => {
    const { page } = session;
    await page.getByRole('navigation').getByRole('link', { name: nl('shell:navigation.widgets'), exact: true }).click();
    await page.getByRole('button', { name: nl('widgets:create') }).click();
    const dialog = page.getByRole('dialog', { name: nl('widgets:create') });
    await dialog.getByLabel(new RegExp(`^${nl('widgets:form.name')}`)).fill('Website Seaside Stays');
    await dialog.getByRole('checkbox', { name: 'Strandhuis' }).check();
    await check('widget-create', dialog);
    await dialog.getByRole('button', { name: nl('widgets:create') }).click();
    await page.getByRole('heading', { name: 'Website Seaside Stays', level: 2 }).waitFor();
    await check('widget');
    assert.deepEqual(problems, [], 'no English text and nothing serious for axe at any step');
  });
});
