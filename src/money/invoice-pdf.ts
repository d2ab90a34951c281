/**
 * An invoice as a PDF (pdfkit), with what an EU invoice must carry (docs/payments.md#what-an-invoice-shows): the
 * seller's and the buyer's names and addresses and VAT numbers, the invoice's number and date, the date of supply (the
 * stay), the lines, the tax per rate with what it is charged on, the totals without and with tax, the due date and how
 * to pay — in the invoice's language, dates in the organization's calendar, the numbers exactly as stored.
 *
 * Runs in a compute thread (src/compute; the main thread asks through invoice-rendering.ts, which also caps the
 * lines): drawing is CPU work that grows with the invoice. Texts a tenant writes at will are drawn cut to a length
 * (`MAX_LINE_NAME_CHARACTERS`, `MAX_NOTES_CHARACTERS`), so a page's work is bounded by the line count alone.
 */
import PDFDocument from 'pdfkit';
import { addDays } from '../common/dates.js';
import { localizedText } from '../common/languages.js';
import type { Translate } from '../common/translate.js';
import { formatAmount } from './format.js';
import { invoiceLabels, type InvoiceLabels } from './invoice-labels.js';
import type { InvoiceDocument, PostalAddress } from './invoice-queries.js';
import { invoiceTotals } from './invoice-totals.js';

/** Characters of a line's name (and of any other text a tenant writes) drawn; a longer one ends in "…". */
export const MAX_LINE_NAME_CHARACTERS = 300;
/** Characters of the invoice's notes and payment instructions drawn; longer ones end in "…". */
export const MAX_NOTES_CHARACTERS = 4_000;

function cut(text: string, max = MAX_LINE_NAME_CHARACTERS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function title(invoice: InvoiceDocument, t: Translate<InvoiceLabels>): string {
  const kind = t(invoice.credit_for_number ? 'creditInvoice' : 'invoice', { number: invoice.number ?? '' }).trim();
  if (invoice.status === 'draft') return t('draft', { kind: t(invoice.credit_for_number ? 'creditInvoice' : 'invoice', { number: '' }).trim() });
  return invoice.status === 'void' ? t('void', { title: kind }) : kind;
}

function addressLines(address: PostalAddress | null | undefined, country?: string | null): string[] {
  const place = [address?.postal_code, address?.city].filter(Boolean).join(' ');
  return [address?.street, [place, address?.region].filter(Boolean).join(', '), address?.country ?? country ?? undefined]
    .filter((line): line is string => typeof line === 'string' && line.trim() !== '').map((line) => cut(line));
}

/** The compute task: the invoice's PDF bytes. */
export function invoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  const t = invoiceLabels(invoice.language);
  const heading = title(invoice, t);
  const seller = invoice.seller ?? {};
  const sellerName = cut(seller.legal_name || invoice.organization_name);
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: heading, Author: sellerName } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  const money = (minor: number) => formatAmount(minor, invoice.currency);
  const locale = invoice.language;
  const moment = (timestamp: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: invoice.timezone })
    .format(new Date(timestamp));
  const day = (date: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const width = right - left;

  // Seller, top left; the invoice's own facts, top right.
  const top = doc.y;
  doc.font('Helvetica-Bold').fontSize(14).text(sellerName, left, top, { width: width / 2 });
  doc.font('Helvetica').fontSize(9);
  for (const line of addressLines(seller.address)) doc.text(line, { width: width / 2 });
  if (seller.vat_id) doc.text(t('vatId', { id: cut(seller.vat_id) }), { width: width / 2 });
  if (seller.registration_number) doc.text(t('registration', { id: cut(seller.registration_number) }), { width: width / 2 });
  for (const contact of [seller.email, seller.phone, seller.website]) if (contact) doc.text(cut(contact), { width: width / 2 });
  const sellerBottom = doc.y;

  const facts: [string, string][] = [];
  if (invoice.issued_at) facts.push([t('issued'), moment(invoice.issued_at)]);
  if (invoice.due_at && invoice.status !== 'paid') facts.push([t('due'), moment(invoice.due_at)]);
  if (invoice.stay) {
    const lastDay = invoice.stay.rent_period === 'daily' ? addDays(invoice.stay.end_date, -1) : invoice.stay.end_date;
    facts.push([t('supply'), t('stay', {
      start: day(invoice.stay.start_date), end: day(lastDay), unit: cut(localizedText(invoice.stay.unit, locale)),
    })]);
  }
  if (invoice.booking_reference) facts.push([t('booking'), invoice.booking_reference]);
  if (invoice.credit_for_number) facts.push(['', t('corrects', { number: invoice.credit_for_number })]);
  const factsLeft = left + width / 2;
  const labelWidth = 95;
  doc.font('Helvetica-Bold').fontSize(14).text(heading, factsLeft, top, { width: width / 2 });
  doc.fontSize(9);
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font('Helvetica-Bold').text(label ? `${label}:` : '', factsLeft, y, { width: labelWidth });
    const after = doc.y;
    doc.font('Helvetica').text(value, factsLeft + labelWidth, y, { width: width / 2 - labelWidth });
    doc.y = Math.max(after, doc.y);
  }
  doc.y = Math.max(sellerBottom, doc.y) + 18;

  // The buyer.
  const contact = invoice.contact;
  if (contact) {
    const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
    const buyer = [contact.company, name, ...addressLines(contact.address, contact.country), contact.vat_id ? t('vatId', { id: contact.vat_id }) : null, contact.email]
      .filter((line): line is string => typeof line === 'string' && line.trim() !== '').map((line) => cut(line));
    if (buyer.length > 0) {
      doc.font('Helvetica-Bold').fontSize(10).text(t('billedTo'), left, doc.y);
      doc.font('Helvetica').fontSize(10);
      for (const line of buyer) doc.text(line);
      doc.moveDown();
    }
  }

  // The lines: description, quantity, tax rates, amount.
  const columns = { quantity: 50, rate: 70, amount: 110 };
  const descriptionWidth = width - columns.quantity - columns.rate - columns.amount - 15;
  const row = (cells: [string, string, string, string], options: { bold?: boolean } = {}) => {
    const y = doc.y;
    doc.font(options.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    doc.text(cells[0], left, y, { width: descriptionWidth });
    const after = doc.y;
    let x = left + descriptionWidth + 5;
    for (const [text, columnWidth] of [[cells[1], columns.quantity], [cells[2], columns.rate], [cells[3], columns.amount]] as const) {
      doc.text(text, x, y, { width: columnWidth, align: 'right' });
      x += columnWidth + 5;
    }
    doc.y = Math.max(after, doc.y);
    doc.x = left;
  };
  const rule = () => {
    doc.moveTo(left, doc.y + 2).lineTo(right, doc.y + 2).lineWidth(0.5).stroke();
    doc.y += 6;
  };
  const totals = invoiceTotals(invoice.lines);
  row([t('description'), t('quantity'), t('rate'), t('amount')], { bold: true });
  rule();
  for (const line of totals.lines) {
    const rates = line.taxes.map((tax) => `${tax.percentage}%`).join(', ');
    row([cut(localizedText(line.name, locale)), String(line.quantity), rates, money(line.amount)]);
  }
  rule();

  // The sums: without tax, each rate on its base, with tax; deposits beside them.
  const sum = (label: string, amount: number, bold = false) => row([label, '', '', money(amount)], { bold });
  if (totals.taxes.length > 0) {
    sum(t('net'), totals.net);
    for (const rate of totals.taxes) {
      sum(t('taxRow', { name: cut(rate.name), percentage: rate.percentage, base: money(rate.base) }), rate.amount);
    }
    sum(t('gross'), totals.gross, true);
  } else {
    sum(t('total'), totals.gross, true);
  }
  for (const deposit of totals.deposits) sum(t('deposit', { name: cut(localizedText(deposit.name, locale)) }), deposit.amount);
  doc.moveDown();

  // Paid, or how and when to pay.
  doc.font('Helvetica').fontSize(10);
  if (invoice.status === 'paid' && invoice.paid_at) {
    doc.font('Helvetica-Bold').text(t('paidOn', { date: moment(invoice.paid_at) }));
  } else if (invoice.status === 'issued' && invoice.total > 0) {
    const instructions = typeof invoice.payment_instructions === 'string'
      ? invoice.payment_instructions : localizedText(invoice.payment_instructions, locale);
    doc.font('Helvetica-Bold').text(t('howToPay'));
    doc.font('Helvetica');
    if (invoice.due_at && invoice.number) doc.text(t('payBy', { amount: money(invoice.total), date: moment(invoice.due_at), number: invoice.number }));
    if (instructions.trim() !== '') doc.text(cut(instructions, MAX_NOTES_CHARACTERS));
  }
  if (invoice.notes.trim() !== '') doc.moveDown().font('Helvetica').text(cut(invoice.notes, MAX_NOTES_CHARACTERS));
  doc.end();
  return done;
}
