/**
 * Invoices through the API (migrations/0121): numbers given on issue without gaps per organization and year, the
 * total kept as the sum of the lines, issued invoices immutable, credit invoices and void, the invoice of a
 * confirmed booking (setting), and the PDF read back: its text layer (pdftotext) and, as a reader sees it, page 1
 * rendered to an image (pdftoppm) and read by OCR (tesseract).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, startApp } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';
import { assertRefused, bookingFixture, resourceClient, type Booked, type Json } from './support.js';

const run = promisify(execFile);

/** Runs `read` on the PDF written to a temporary folder. */
async function withPdfFile<T>(pdf: Buffer, read: (dir: string, file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'staykit-invoice-'));
  try {
    await writeFile(join(dir, 'invoice.pdf'), pdf);
    return await read(dir, join(dir, 'invoice.pdf'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The PDF's text layer. */
const pdfText = (pdf: Buffer) => withPdfFile(pdf, async (_dir, file) => (await run('pdftotext', ['-layout', file, '-'])).stdout);

/** What a reader sees: page 1 rendered to an image (pdftoppm) and read back by OCR (tesseract). */
const pdfSeenText = (pdf: Buffer) => withPdfFile(pdf, async (dir, file) => {
  await run('pdftoppm', ['-png', '-r', '200', '-f', '1', '-l', '1', '-singlefile', file, join(dir, 'page')]);
  // Page segmentation 4 (one column of text in varying sizes) is what an invoice page is. Mode 6 (one uniform block)
  // dropped the bold total row under its rule on some pages, depending only on the booking reference printed above.
  return (await run('tesseract', [join(dir, 'page.png'), '-', '--psm', '4'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' } })).stdout;
});

forEachBackend('invoices', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof resourceClient>;
  let org: { id: string; key: string };
  let booked: Booked;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Invoicing B.V.');
    api = resourceClient(app, org.key);
    booked = await bookingFixture(ctx.db, org.id);
  });
  after(() => app.close());

  const line = (invoiceId: unknown, amount: number, name: string, extra: Json = {}) =>
    api.create('line_items', { booking_id: booked.bookingId, invoice_id: invoiceId, amount, name: { default: name }, ...extra });

  // An invoice number's year is the issue instant's year in the organization's time zone (not the test machine's).
  const localYear = async (organizationId: string, issuedAt: string) => (await ctx.db.query<{ year: number }>(
    'SELECT extract(year FROM $2::timestamptz AT TIME ZONE timezone)::int AS year FROM api.organizations WHERE id = $1',
    [organizationId, issuedAt])).rows[0]!.year;

  const draftWithLines = async (...amounts: number[]) => {
    const invoice = await api.create('invoices', { booking_id: booked.bookingId });
    for (const [index, amount] of amounts.entries()) await line(invoice.id, amount, `Line ${index + 1}`);
    return invoice;
  };

  it('keeps the total equal to the sum of the lines while a draft changes', async () => {
    const invoice = await api.create('invoices', { booking_id: booked.bookingId });
    assert.equal(invoice.number, null);
    assert.equal(invoice.total, 0);
    const rent = await line(invoice.id, 70000, 'Rent');
    await line(invoice.id, 5000, 'Cleaning');
    await line(invoice.id, 20000, 'Deposit', { fee_type: 'deposit' });
    assert.equal((await api.get('invoices', String(invoice.id))).total, 75000);
    await api.update('line_items', String(rent.id), { amount: 60000 });
    assert.equal((await api.get('invoices', String(invoice.id))).total, 65000);
    assert.equal((await api.call('DELETE', `line_items?id=eq.${String(rent.id)}`)).statusCode, 200);
    assert.equal((await api.get('invoices', String(invoice.id))).total, 5000);
    // The total is not the client's to write.
    await api.call('PATCH', `invoices?id=eq.${String(invoice.id)}`, { total: 1 });
    assert.equal((await api.get('invoices', String(invoice.id))).total, 5000);
  });

  it('numbers invoices on issue, per organization and year, without gaps', async () => {
    const first = await draftWithLines(1000);
    const second = await draftWithLines(2000);
    const issuedSecond = await api.update('invoices', String(second.id), { status: 'issued' });
    const year = await localYear(org.id, String(issuedSecond.issued_at));
    assert.equal(issuedSecond.number, `${year}-0001`);
    assert.ok(typeof issuedSecond.issued_at === 'string');
    // A refused issue (a credit invoice that does not credit anything) uses no number.
    const refused = await api.call('POST', 'invoices', { credit_for_id: first.id });
    assertRefused(refused, 422, 'SK669', /Only an issued or paid invoice can be credited/);
    const issuedFirst = await api.update('invoices', String(first.id), { status: 'issued' });
    assert.equal(issuedFirst.number, `${year}-0002`);

    // Another organization counts on its own, with its own pattern.
    const other = await createOrganization(ctx.db, 'Other');
    await ctx.db.query(`UPDATE api.organizations SET settings = '{"invoices": {"number_pattern": "INV{YY}/{NNNNNN}"}}' WHERE id = $1`, [other.id]);
    const otherApi = resourceClient(app, other.key);
    const otherBooking = await bookingFixture(ctx.db, other.id);
    const otherInvoice = await otherApi.create('invoices', { booking_id: otherBooking.bookingId });
    const issued = await otherApi.update('invoices', String(otherInvoice.id), { status: 'issued' });
    const otherYear = await localYear(other.id, String(issued.issued_at));
    assert.equal(issued.number, `INV${String(otherYear % 100).padStart(2, '0')}/000001`);

    const { rows } = await ctx.db.query<{ number: string }>(
      `SELECT number FROM api.invoices WHERE organization_id = $1 AND number IS NOT NULL ORDER BY number`, [org.id]);
    assert.deepEqual(rows.map((row) => row.number), [`${year}-0001`, `${year}-0002`]);
  });

  it('refuses any change to an issued invoice or its lines (409), and its deletion', async () => {
    const invoice = await draftWithLines(1000, 2000);
    const issued = await api.update('invoices', String(invoice.id), { status: 'issued' });
    assertRefused(await api.call('PATCH', `invoices?id=eq.${String(invoice.id)}`, { notes: 'changed' }), 409, 'SK663', /cannot be changed/);
    assertRefused(await api.call('PATCH', `invoices?id=eq.${String(invoice.id)}`, { status: 'draft' }), 409, 'SK662',
      /cannot move from issued to draft[\s\S]*draft to issued; issued to paid or void; paid to void; void is final/);
    assertRefused(await api.call('POST', 'line_items', { booking_id: booked.bookingId, invoice_id: invoice.id, amount: 5, name: { default: 'Extra' } }), 409, 'SK663');
    const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM api.line_items WHERE invoice_id = $1', [invoice.id]);
    assertRefused(await api.call('PATCH', `line_items?id=eq.${rows[0]!.id}`, { amount: 1 }), 409, 'SK663');
    assertRefused(await api.call('DELETE', `line_items?id=eq.${rows[0]!.id}`), 409, 'SK663');
    assertRefused(await api.call('DELETE', `invoices?id=eq.${String(invoice.id)}`), 409, 'SK667');
    const after = await api.get('invoices', String(invoice.id));
    assert.deepEqual([after.total, after.number, after.notes], [3000, issued.number, '']);
  });

  it('voids an invoice only once an issued credit invoice cancels it', async () => {
    const invoice = await draftWithLines(10000, 2500);
    await api.update('invoices', String(invoice.id), { status: 'issued' });
    assertRefused(await api.call('PATCH', `invoices?id=eq.${String(invoice.id)}`, { status: 'void' }), 409, 'SK668', /cancel its total of 12500/);

    const credit = await api.create('invoices', { credit_for_id: invoice.id });
    assert.equal(credit.booking_id, booked.bookingId);
    assert.equal((await api.get('invoices', String(credit.id))).total, -12500);
    const issuedCredit = await api.update('invoices', String(credit.id), { status: 'issued' });
    assert.match(String(issuedCredit.number), /^\d{4}-\d{4}$/);
    const voided = await api.update('invoices', String(invoice.id), { status: 'void' });
    assert.equal(voided.status, 'void');
    // Nothing is credited twice.
    assertRefused(await api.call('POST', 'invoices', { credit_for_id: invoice.id }), 422, 'SK669', /is void/);
  });

  it('creates and issues the invoice of a booking when it is confirmed (setting)', async () => {
    await ctx.db.query(`UPDATE api.organizations SET settings = '{"invoices": {"on_confirmation": "issue"}}' WHERE id = $1`, [org.id]);
    const request = await bookingFixture(ctx.db, org.id, { status: 'TENTATIVE' });
    await fixtures(ctx.db, org.id).rows('line_items', [
      { booking_id: request.bookingId, amount: 42000, name: { default: 'Rent' } }, { booking_id: request.bookingId, amount: 3000, name: { default: 'Linen' } }]);
    const none = await api.call('GET', `invoices?booking_id=eq.${request.bookingId}`);
    assert.deepEqual(none.json(), []);
    const events = await api.call('PATCH', `calendar_events?booking_id=eq.${request.bookingId}`, { status: 'CONFIRMED' });
    assert.equal(events.statusCode, 200, events.body);
    const invoices = (await api.call('GET', `invoices?booking_id=eq.${request.bookingId}`)).json() as Json[];
    assert.equal(invoices.length, 1);
    assert.equal(invoices[0]!.status, 'issued');
    assert.equal(invoices[0]!.total, 45000);
    assert.match(String(invoices[0]!.number), /^\d{4}-\d{4}$/);
    await ctx.db.query(`UPDATE api.organizations SET settings = '{}' WHERE id = $1`, [org.id]);
  });

  it('a rolled-back issue gives its number back: the waiting issue takes it (no gap)', { skip: ctx.backend !== 'postgres' && 'needs two connections (PostgreSQL)' }, async () => {
    const fresh = await createOrganization(ctx.db, 'Gapless');
    const freshBooking = await bookingFixture(ctx.db, fresh.id);
    const drafts: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      drafts.push((await fixtures(ctx.db, fresh.id).row('invoices', { booking_id: freshBooking.bookingId })).id);
    }
    const issue = (id: string) => `UPDATE api.invoices SET status = 'issued' WHERE id = '${id}' RETURNING number`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let firstIssued!: (number: string) => void;
    const issuedFirst = new Promise<string>((resolve) => { firstIssued = resolve; });
    class Abandon extends Error {}
    const first = ctx.db.transaction(async (tx) => {
      firstIssued((await tx.query<{ number: string }>(issue(drafts[0]!))).rows[0]!.number);
      await held;
      throw new Abandon();
    });
    const year = await localYear(fresh.id, new Date().toISOString());
    let second: Promise<string> | undefined;
    try {
      assert.equal(await issuedFirst, `${year}-0001`);
      second = ctx.db.transaction(async (tx) => (await tx.query<{ number: string }>(issue(drafts[1]!))).rows[0]!.number);
      let secondFinished = false;
      second.then(() => { secondFinished = true; }, () => { secondFinished = true; });
      for (;;) {
        const { rows } = await ctx.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        if (rows[0]!.n > 0 || secondFinished) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      // Whatever happened above, the first transaction ends (rolled back).
      release();
    }
    await assert.rejects(first, Abandon);
    assert.equal(await second, `${year}-0001`);
  });

  it('serves the invoice as a PDF whose text has the number, the lines and the total', async () => {
    const invoice = await api.create('invoices', { booking_id: booked.bookingId });
    await line(invoice.id, 123456, 'Rent Dune House');
    await line(invoice.id, 4550, 'Final cleaning');
    const issued = await api.update('invoices', String(invoice.id), { status: 'issued' });
    const response = await app.inject({
      method: 'GET', url: `/v1/invoices/${String(invoice.id)}`, headers: { authorization: `Bearer ${org.key}`, accept: 'application/pdf' },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['content-type'], 'application/pdf');
    const text = await pdfText(response.rawPayload);
    assert.match(text, new RegExp(`Invoice ${String(issued.number)}`));
    assert.match(text, /Invoicing B\.V\./);
    assert.match(text, /Rent Dune House\s+1\s+EUR 1,234\.56/);
    assert.match(text, /Final cleaning\s+1\s+EUR 45\.50/);
    assert.match(text, /Total\s+EUR 1,280\.06/);
    const seen = await pdfSeenText(response.rawPayload);
    assert.match(seen, new RegExp(`Invoice ${String(issued.number)}`), seen);
    assert.match(seen, /Total\s+EUR 1,280\.06/, seen);

    const json = await app.inject({ method: 'GET', url: `/v1/invoices/${String(invoice.id)}`, headers: { authorization: `Bearer ${org.key}` } });
    assertRefused(json, 406, 'SK673');
    const other = await createOrganization(ctx.db, 'Snoop');
    const hidden = await app.inject({
      method: 'GET', url: `/v1/invoices/${String(invoice.id)}`, headers: { authorization: `Bearer ${other.key}`, accept: 'application/pdf' },
    });
    assertRefused(hidden, 404, 'SK404');
  });
});
