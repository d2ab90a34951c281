/**
 * A manager handles a booking's money on its page, in a real browser (Debian's chromium through playwright-core), on
 * both backends, from the demo login, without curl: a scheduled payment received by bank transfer last month (the
 * booking becomes paid, the payment paid on the day chosen), a refund above what was paid refused with the API's
 * words at the amount, a refund within it recorded and marked paid back; an invoice made of the booking's lines, issued, downloaded as PDF and read back
 * (pdftotext), credited and voided; the payment link refused in words without Stripe; an e-mail sent again; a
 * private note added; and the history showing the payment, the invoice and the note. Each step is checked in the
 * database. Screenshots go to a temporary folder named in the output; STAYKIT_UPDATE_SCREENSHOTS=1 also writes
 * docs/dashboard/booking-money.png (PGlite run).
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { forEachBackend } from '../support/databases.js';
import { insert } from '../support/fixtures.js';
import { organizationToday } from '../support/organization-today.js';
import { addMonths, monthStart } from '../../web/dashboard/src/common/dates.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const run = promisify(execFile);
const skip = browserMissing && 'chromium not found';
const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'dashboard');
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-booking-money-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);
const updateScreenshots = process.env.STAYKIT_UPDATE_SCREENSHOTS === '1';

const browser = fileBrowser();

/** A calendar date as the date picker names its day: "15 October 2026". */
const dayName = (isoDate: string) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(isoDate));
/** The 15th of a month as the payments list writes it in English, in either order of day and month ("Oct 15, 2026", "15 Oct 2026"). */
const fifteenth = (isoDate: string) => {
  const month = new Intl.DateTimeFormat('en', { month: 'short', timeZone: 'UTC' }).format(new Date(isoDate));
  return new RegExp(`^paid (${month} 15, ${isoDate.slice(0, 4)}|15 ${month} ${isoDate.slice(0, 4)})$`);
};

forEachBackend('a booking\'s money, notes and history on its page', (ctx) => {
  const session = dashboardSession(ctx, browser);
  let page: Page;
  let booking: { id: string; reference: string };
  let pending: { id: string; amount: number };

  const one = async <Row extends object>(sql: string, values: unknown[]) => (await ctx.db.query<Row>(sql, values)).rows[0]!;
  const all = async <Row extends object>(sql: string, values: unknown[]) => (await ctx.db.query<Row>(sql, values)).rows;
  const paymentRow = (id: string) => page.locator(`tr[data-payment-id="${id}"]`);

  before(async () => {
    if (browserMissing) return;
    page = session.page;
    // A confirmed demo stay far enough ahead that the rest of its price is still to pay (30 % was paid at booking).
    booking = await one<{ id: string; reference: string }>(
      `SELECT b.id, b.reference FROM api.bookings AS b JOIN api.calendar_events AS e ON e.booking_id = b.id
       WHERE e.organization_id = $1 AND e.status = 'CONFIRMED' AND e.start_date > current_date + 30
         AND EXISTS (SELECT 1 FROM api.payments AS p WHERE p.booking_id = b.id AND p.status = 'pending')
       ORDER BY e.start_date LIMIT 1`, [session.seeded.organization_id]);
    pending = await one<{ id: string; amount: number }>(`SELECT id, amount FROM api.payments WHERE booking_id = $1 AND status = 'pending'`, [booking.id]);
    await session.logIn(session.owner);
    await page.goto(`${session.base}/admin/bookings/${booking.id}`);
    await page.getByRole('heading', { name: `Booking ${booking.reference}` }).waitFor();
  });

  it('records the scheduled payment as received by bank transfer on a day last month: the booking is paid, on that day', { skip }, async () => {
    const payments = page.getByRole('region', { name: 'Payments' });
    assert.equal(await payments.locator('[data-payment]').getAttribute('data-payment'), 'partly paid');
    await paymentRow(pending.id).getByRole('button', { name: /^Record payment of / }).click();
    const dialog = page.getByRole('dialog', { name: 'Record a payment' });
    await dialog.getByLabel('Method').click();
    await page.getByRole('option', { name: 'bank transfer' }).click();
    // The transfer arrived last month, on the 15th: seen on the bank statement only now.
    const today = await organizationToday(ctx.db, session.seeded.organization_id);
    const receivedOn = `${addMonths(monthStart(today), -1).slice(0, 8)}15`;
    await dialog.getByRole('button', { name: /^Received on/ }).click();
    assert.equal(await page.getByRole('button', { name: dayName(today), exact: true }).getAttribute('data-selected'), 'true', 'today by default');
    await page.getByRole('button', { name: 'Previous month' }).click();
    await page.getByRole('button', { name: dayName(receivedOn), exact: true }).click();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await dialog.waitFor({ state: 'detached' });
    await payments.locator('[data-payment="paid"]').waitFor();
    await paymentRow(pending.id).getByText('bank transfer').waitFor();
    await paymentRow(pending.id).getByText(fifteenth(receivedOn)).waitFor();

    const stored = await one<{ status: string; method: string; paid_on: string }>(
      `SELECT p.status, p.method, to_char(p.paid_at AT TIME ZONE o.timezone, 'YYYY-MM-DD') AS paid_on
       FROM api.payments AS p JOIN api.organizations AS o ON o.id = p.organization_id WHERE p.id = $1`, [pending.id]);
    assert.deepEqual(stored, { status: 'paid', method: 'bank_transfer', paid_on: receivedOn }, 'paid on the day chosen, in the organization\'s time zone');
    assert.deepEqual((await all<{ status: string }>('SELECT DISTINCT status FROM api.payments WHERE booking_id = $1', [booking.id])).map((row) => row.status), ['paid']);
  });

  it('refuses a refund above what was paid with the API\'s words at the amount; one within it is recorded and marked paid back', { skip }, async () => {
    const refundButton = paymentRow(pending.id).getByRole('button', { name: /^Refund payment of / });
    await refundButton.click();
    const dialog = page.getByRole('dialog', { name: /^Refund a payment of / });
    const amount = dialog.getByRole('textbox', { name: /^Amount/ });
    await amount.fill(String(pending.amount / 100 + 1));
    await dialog.getByRole('button', { name: 'Record refund' }).click();
    // The database's words (0120, SK664): what the refunds would come to, the payment, and how much is left.
    await dialog.getByText(`Refunds of ${pending.amount + 100} would exceed the payment of ${pending.amount} EUR`, { exact: false }).waitFor();
    assert.equal(await amount.getAttribute('aria-invalid'), 'true', 'said at the amount field');
    await page.screenshot({ path: join(SCREENSHOTS, `refund-refused-${ctx.backend}.png`) });
    assert.equal((await all('SELECT id FROM api.refunds WHERE payment_id = $1', [pending.id])).length, 0, 'nothing refunded');

    await amount.fill('50');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Late check-in, as agreed');
    await dialog.getByRole('button', { name: 'Record refund' }).click();
    await dialog.waitFor({ state: 'detached' });
    const refund = await one<{ id: string; amount: number; status: string; reason: string }>('SELECT id, amount, status, reason FROM api.refunds WHERE payment_id = $1', [pending.id]);
    assert.deepEqual({ amount: refund.amount, status: refund.status, reason: refund.reason }, { amount: 5000, status: 'pending', reason: 'Late check-in, as agreed' });
    await page.getByRole('button', { name: 'Mark refunded' }).click();
    await page.getByRole('region', { name: 'Payments' }).getByText(/· refunded$/).waitFor();
    assert.equal((await one<{ status: string }>('SELECT status FROM api.refunds WHERE id = $1', [refund.id])).status, 'refunded');
  });

  it('without Stripe, the payment link is refused in the API\'s words', { skip }, async () => {
    await page.getByRole('button', { name: 'Payment link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Payment link' });
    await dialog.getByRole('button', { name: 'Make payment link' }).click();
    await dialog.getByRole('alert').getByText('SK671').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('makes an invoice of the booking\'s lines, issues it and downloads its PDF', { skip }, async () => {
    const invoices = page.getByRole('region', { name: 'Invoices' });
    await invoices.getByRole('button', { name: 'Create invoice' }).click();
    await invoices.getByRole('button', { name: 'Issue invoice Draft' }).click();
    const issued = async () => one<{ id: string; number: string | null; status: string; total: number }>(
      `SELECT id, number, status, total FROM api.invoices WHERE booking_id = $1 AND credit_for_id IS NULL`, [booking.id]);
    await invoices.getByText('issued', { exact: true }).waitFor();
    const invoice = await issued();
    assert.equal(invoice.status, 'issued');
    assert.ok(invoice.number, 'numbered by the database');
    const { total } = await one<{ total: number }>(`SELECT sum(amount)::int AS total FROM api.line_items WHERE booking_id = $1 AND fee_type = 'fee'`, [booking.id]);
    assert.equal(invoice.total, total, 'every price line of the booking is on it');
    assert.equal((await all('SELECT id FROM api.line_items WHERE booking_id = $1 AND invoice_id IS NULL', [booking.id])).length, 0);

    const [download] = await Promise.all([page.waitForEvent('download'), invoices.getByRole('button', { name: `Download invoice ${invoice.number} as PDF` }).click()]);
    assert.equal(download.suggestedFilename(), `invoice-${invoice.number!.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`);
    const text = (await run('pdftotext', ['-layout', (await download.path())!, '-'])).stdout;
    assert.ok(text.includes(invoice.number!), 'the PDF carries the invoice number');
    assert.ok(text.includes(booking.reference), 'and the booking reference');

  });

  it('sends an e-mail again', { skip }, async () => {
    const contact = await one<{ id: string; email: string }>(
      'SELECT c.id, c.email FROM api.contacts AS c JOIN api.contact_bookings AS cb ON cb.contact_id = c.id WHERE cb.booking_id = $1', [booking.id]);
    await insert(ctx.db, 'messages', {
      organization_id: session.seeded.organization_id, booking_id: booking.id, contact_id: contact.id, channel: 'email',
      direction: 'outbound', status: 'sent', to_address: contact.email, subject: 'Your arrival', body: 'The key is in the lockbox.',
      sent_at: new Date().toISOString(),
    });
    await page.reload();
    await page.getByRole('table', { name: 'Messages' }).getByRole('button', { name: 'Resend “Your arrival”' }).click();
    await page.getByRole('table', { name: 'Messages' }).getByText('Your arrival', { exact: true }).nth(1).waitFor();
    const copies = await all<{ to_address: string; body: string }>(`SELECT to_address, body FROM api.messages WHERE booking_id = $1 AND subject = 'Your arrival' ORDER BY created_at`, [booking.id]);
    assert.deepEqual(copies, [{ to_address: contact.email, body: 'The key is in the lockbox.' }, { to_address: contact.email, body: 'The key is in the lockbox.' }]);
  });

  it('adds a private note, and the history shows the payment, the invoice and the note', { skip }, async () => {
    const notes = page.getByRole('region', { name: 'Private notes' });
    await notes.getByRole('textbox', { name: 'New note' }).fill('Arrives late; key in the lockbox.');
    await notes.getByRole('button', { name: 'Add note' }).click();
    // Emptied once the note is stored (the field holds the text until then, and a text search may find it there).
    await page.waitForFunction((box) => (box as HTMLTextAreaElement).value === '', await notes.getByRole('textbox', { name: 'New note' }).elementHandle());
    await notes.getByText('Arrives late; key in the lockbox.').waitFor();
    const note = await one<{ note: string; author: string | null }>(
      `SELECT n.note, p.email AS author FROM api.calendar_event_notes AS n JOIN api.calendar_events AS e ON e.id = n.calendar_event_id
       LEFT JOIN api.user_profiles AS p ON p.user_id = n.author_id AND p.organization_id = n.organization_id WHERE e.booking_id = $1`, [booking.id]);
    assert.deepEqual(note, { note: 'Arrives late; key in the lockbox.', author: session.owner.email }, 'written by the signed-in member');

    const history = page.getByRole('table', { name: 'History' });
    await history.getByText(/^Payment of .* received by bank transfer$/).first().waitFor();
    const { number } = await one<{ number: string }>('SELECT number FROM api.invoices WHERE booking_id = $1 AND credit_for_id IS NULL', [booking.id]);
    await history.getByText(new RegExp(`^Invoice ${number} issued: `)).waitFor();
    await history.getByText('Note: Arrives late; key in the lockbox.').waitFor();
    const received = history.locator('tr', { hasText: /received by bank transfer$/ }).last();
    assert.equal(await received.locator('td').nth(2).textContent(), '', 'a payment names no member (payments keep no author)');
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    // From the top: a full-page screenshot of a scrolled page draws the fixed header where the view was.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENSHOTS, `booking-money-${ctx.backend}.png`), fullPage: true });
    if (updateScreenshots && ctx.backend === 'pglite') await page.screenshot({ path: join(DOCS, 'booking-money.png'), fullPage: true });
  });

  it('credits the invoice and voids it', { skip }, async () => {
    const invoices = page.getByRole('region', { name: 'Invoices' });
    const issued = async () => one<{ id: string; number: string; status: string; total: number }>(
      `SELECT id, number, status, total FROM api.invoices WHERE booking_id = $1 AND credit_for_id IS NULL`, [booking.id]);
    const invoice = await issued();
    // A credit invoice cancels it in full (the only way to void an issued invoice), then it is voided.
    await invoices.getByRole('button', { name: `Credit invoice ${invoice.number}` }).click();
    await invoices.getByRole('button', { name: `Void invoice ${invoice.number}` }).click();
    await invoices.getByText('void', { exact: true }).waitFor();
    assert.equal((await issued()).status, 'void');
    const credit = await one<{ status: string; total: number }>('SELECT status, total FROM api.invoices WHERE credit_for_id = $1', [invoice.id]);
    assert.deepEqual(credit, { status: 'issued', total: -invoice.total });
  });
});
