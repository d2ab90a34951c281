/**
 * An invoice as a PDF (pdfkit): who issues it, its number and date, the booking, one row per line with its taxes,
 * and the total — the numbers exactly as stored, formatted in the invoice's currency. Runs in a compute thread
 * (src/compute; the main thread asks through invoice-rendering.ts, which also caps the lines): drawing is CPU work
 * that grows with the invoice. Texts a tenant writes at will are drawn cut to a length (`MAX_LINE_NAME_CHARACTERS`,
 * `MAX_NOTES_CHARACTERS`), so a page's work is bounded by the line count alone.
 */
import PDFDocument from 'pdfkit';
import { localizedText } from '../common/languages.js';
import { formatAmount } from './format.js';
import type { InvoiceDocument } from './invoice-queries.js';

/** Characters of a line's name drawn; a longer name ends in "…". */
export const MAX_LINE_NAME_CHARACTERS = 300;
/** Characters of the invoice's notes drawn; longer notes end in "…". */
export const MAX_NOTES_CHARACTERS = 4_000;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function title(invoice: InvoiceDocument): string {
  const kind = invoice.credit_for_number ? 'Credit invoice' : 'Invoice';
  if (invoice.status === 'draft') return `${kind} (draft, not issued)`;
  return `${kind} ${invoice.number ?? ''}${invoice.status === 'void' ? ' (void)' : ''}`;
}

/** The compute task: the invoice's PDF bytes. */
export function invoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title(invoice), Author: invoice.organization_name } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  const money = (minor: number) => formatAmount(minor, invoice.currency);

  doc.fontSize(18).text(cut(invoice.organization_name, MAX_LINE_NAME_CHARACTERS));
  doc.moveDown().fontSize(14).text(title(invoice));
  doc.fontSize(10);
  if (invoice.issued_at) doc.text(`Date: ${invoice.issued_at.slice(0, 10)}`);
  if (invoice.due_at) doc.text(`Due: ${invoice.due_at.slice(0, 10)}`);
  if (invoice.credit_for_number) doc.text(`Corrects invoice ${invoice.credit_for_number}`);
  if (invoice.booking_reference) doc.text(`Booking: ${invoice.booking_reference}`);
  const contact = invoice.contact;
  if (contact) {
    const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
    if (name || contact.email) doc.text(cut(`Billed to: ${[name, contact.email].filter(Boolean).join(', ')}`, MAX_LINE_NAME_CHARACTERS));
  }

  doc.moveDown();
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const amountWidth = 120;
  const row = (label: string, amount: string, options: { bold?: boolean } = {}) => {
    const y = doc.y;
    doc.font(options.bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(label, left, y, { width: right - left - amountWidth - 10 });
    const after = doc.y;
    doc.text(amount, right - amountWidth, y, { width: amountWidth, align: 'right' });
    doc.y = Math.max(after, doc.y);
    doc.x = left;
  };
  for (const line of invoice.lines) {
    const quantity = line.quantity > 1 ? `${line.quantity} × ` : '';
    const deposit = line.fee_type === 'deposit' ? ' (deposit, not in the total)' : '';
    row(`${quantity}${cut(localizedText(line.name, invoice.language), MAX_LINE_NAME_CHARACTERS)}${deposit}`, money(line.amount));
    for (const tax of line.taxes) {
      row(`    ${cut(tax.name, MAX_LINE_NAME_CHARACTERS)} ${tax.percentage}%${tax.inclusive ? ' (included)' : ''}`, money(tax.amount));
    }
  }
  doc.moveDown(0.5);
  row('Total', money(invoice.total), { bold: true });
  if (invoice.notes.trim() !== '') doc.moveDown().font('Helvetica').text(cut(invoice.notes, MAX_NOTES_CHARACTERS));
  doc.end();
  return done;
}
