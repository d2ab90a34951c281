/**
 * An invoice carries what an EU invoice must (issue: a first real day, item 10): the seller's and the buyer's names,
 * addresses and VAT numbers, number and date, the date of supply (the stay), the lines with their tax rates, the tax
 * per rate with the amount it is charged on — each tax once, not per line and again as a line —, the totals without
 * and with tax, the due date and how to pay, in the booking's language. Read back from the PDF's text layer.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { INVOICE_DOCUMENT_TABLES } from '../../src/money/invoice-queries.js';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';

const run = promisify(execFile);

async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'staykit-invoice-doc-'));
  try {
    await writeFile(join(dir, 'invoice.pdf'), pdf);
    return (await run('pdftotext', ['-layout', join(dir, 'invoice.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const SETTINGS = {
  invoices: {
    on_confirmation: 'issue',
    payment_terms_days: 30,
    seller: {
      legal_name: 'Dune Stays B.V.', vat_id: 'NL123456789B01', registration_number: 'KvK 12345678', email: 'billing@dunestays.example',
      address: { street: 'Dorpsstraat 1', postal_code: '1861 KT', city: 'Bergen', country: 'NL' },
    },
    payment_instructions: { default: 'Bank transfer to IBAN NL91 ABNA 0417 1643 00.', nl: 'Overmaken naar IBAN NL91 ABNA 0417 1643 00.' },
  },
};

forEachBackend('what an invoice shows', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let product: string;
  let adults: string;
  let day = 1;

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Dune Stays');
    const settings = await app.inject({
      method: 'PATCH', url: `/v1/organizations?id=eq.${org.id}`, headers: { authorization: `Bearer ${org.key}` }, payload: { settings: SETTINGS },
    });
    assert.equal(settings.statusCode, 204, settings.body);
    const f = fixtures(ctx.db, org.id);
    adults = await f.group('Adults');
    product = await f.product({ name: { default: 'Dune House', nl: 'Duinhuis' } });
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10900 }] });
    await f.tax(product, { name: 'VAT', percentage: 9, inclusive: true, applies_to: 'rent' });
    await f.tax(product, { name: 'Tourist tax', percentage: 5, inclusive: false, applies_to: 'rent' });
  });
  after(() => app.close());

  /** A two-night stay booked in `language` by a business guest; its issued invoice's PDF text and row. */
  async function invoiced(language: string, key = org.key) {
    const start = `2027-09-${String(day).padStart(2, '0')}`;
    const end = `2027-09-${String(day + 2).padStart(2, '0')}`;
    day += 3;
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: product, interval: { start, end }, occupancy: { [adults]: 2 }, language,
      contact: { first_name: 'Greta', last_name: 'Berg', email: 'greta@acme.example' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const bookingId = (booked.json() as { booking_id: string }).booking_id;
    const { rows: [contact] } = await ctx.db.query<{ id: string }>('SELECT contact_id AS id FROM api.contact_bookings WHERE booking_id = $1', [bookingId]);
    const patched = await app.inject({
      method: 'PATCH', url: `/v1/contacts?id=eq.${contact!.id}`, headers: { authorization: `Bearer ${org.key}` },
      payload: { company: 'Acme GmbH', vat_id: 'DE123456789', address: { street: 'Hauptstraße 5', postal_code: '10115', city: 'Berlin' }, country: 'DE' },
    });
    assert.equal(patched.statusCode, 204, patched.body);
    const { rows: [invoice] } = await ctx.db.query<{ id: string; number: string; issued_at: string; due_at: string; total: number }>(
      'SELECT id, number, issued_at::text, due_at::text, total FROM api.invoices WHERE booking_id = $1', [bookingId]);
    assert.ok(invoice, 'the confirmation issued an invoice');
    const pdf = await app.inject({ method: 'GET', url: `/v1/invoices/${invoice.id}`, headers: { authorization: `Bearer ${key}`, accept: 'application/pdf' } });
    return { invoice, pdf, start, end };
  }

  it('names seller and buyer with addresses and VAT numbers, the stay, each tax once per rate, the totals, the due date and how to pay', async () => {
    const { invoice, pdf } = await invoiced('en');
    assert.equal(pdf.statusCode, 200, pdf.body);
    const text = await pdfText(pdf.rawPayload);
    for (const expected of ['Dune Stays B.V.', 'Dorpsstraat 1', '1861 KT Bergen', 'VAT number: NL123456789B01', 'Registration number: KvK 12345678',
      'billing@dunestays.example', `Invoice ${invoice.number}`, 'Billed to', 'Acme GmbH', 'Greta Berg', 'Hauptstraße 5', '10115 Berlin', 'DE',
      'VAT number: DE123456789', 'Booking']) {
      assert.ok(text.includes(expected), `${expected} in:\n${text}`);
    }
    assert.match(text, /Invoice date:\s+\w+ \d+, 20\d\d/);
    assert.match(text, /Date of supply:\s+September 1, 2027 – September 3,[\s\S]*2027, Dune House/);
    // Rent 2 × 109.00 with 9 % VAT included (18.00) and 5 % tourist tax on top (10.90); total 228.90.
    assert.equal(invoice.total, 22890);
    assert.match(text, /Rent\s+2\s+9%, 5%\s+EUR 218\.00/);
    assert.match(text, /Total excluding tax\s+EUR 200\.00/);
    assert.match(text, /VAT 9% of EUR 200\.00\s+EUR 18\.00/);
    assert.match(text, /Tourist tax 5% of EUR 200\.00\s+EUR 10\.90/);
    assert.match(text, /Total including tax\s+EUR 228\.90/);
    assert.equal(text.match(/Tourist tax/g)?.length, 1, 'the exclusive tax is drawn once, in the breakdown');
    const due = new Date(new Date(invoice.issued_at).getTime() + 30 * 86_400_000);
    assert.equal(new Date(invoice.due_at).toISOString(), due.toISOString(), 'due 30 days after issue (payment_terms_days)');
    const dueText = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(due);
    assert.match(text, new RegExp(`Due date:\\s+${dueText}`));
    assert.match(text, /How to pay/);
    assert.ok(text.includes(`Please pay EUR 228.90 by ${dueText}, quoting ${invoice.number}.`), text);
    assert.match(text, /Bank transfer to IBAN NL91 ABNA 0417 1643 00\./);
  });

  it("is in the booking's language", async () => {
    const { invoice, pdf } = await invoiced('nl');
    const text = await pdfText(pdf.rawPayload);
    for (const expected of [`Factuur ${invoice.number}`, 'Factuurdatum', 'Vervaldatum', 'Leveringsdatum', 'Duinhuis', 'Factuur aan',
      'Btw-nummer: DE123456789', 'Totaal exclusief btw', 'Totaal inclusief btw', 'Overmaken naar IBAN']) {
      assert.ok(text.includes(expected), `${expected} in:\n${text}`);
    }
    assert.doesNotMatch(text, /Invoice date|Total including tax|Bank transfer/);
  });

  it('needs the read scope of every table the document shows', async () => {
    const invoicesOnly = await createKey(ctx.db, org.id, ['invoices:read']);
    const { pdf } = await invoiced('en', invoicesOnly);
    assert.equal(pdf.statusCode, 403, pdf.body);
    assert.doesNotMatch(pdf.body, /Greta|Acme/);
    const everything = await createKey(ctx.db, org.id, INVOICE_DOCUMENT_TABLES.map((table) => `${table}:read`));
    const allowed = await invoiced('en', everything);
    assert.equal(allowed.pdf.statusCode, 200, allowed.pdf.body);
  });

  it('refuses invoice settings of the wrong shape when they are written', async () => {
    for (const invoices of [{ seller: { vat_id: 123 } }, { seller: { address: 'Dorpsstraat 1' } }, { seller: { iban: 'x' } },
      { payment_terms_days: 400 }, { payment_terms_days: 1.5 }, { payment_instructions: { nl: 'geen default' } }]) {
      const refused = await app.inject({
        method: 'PATCH', url: `/v1/organizations?id=eq.${org.id}`, headers: { authorization: `Bearer ${org.key}` },
        payload: { settings: { invoices } },
      });
      assert.equal(refused.statusCode, 400, `${JSON.stringify(invoices)}: ${refused.body}`);
      assert.equal(refused.json().code, '23514');
    }
  });
});
