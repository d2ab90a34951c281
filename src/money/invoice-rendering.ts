/**
 * Invoice PDFs as the routes ask for them (`GET /v1/invoices/<id>`, the guest page's invoice link): drawn in the
 * compute pool under the invoice's organization's budget, never on the event loop (docs/security.md). An invoice of
 * more than `MAX_INVOICE_PDF_LINES` lines is refused with 422 SK685 before any drawing: the limit says what it is,
 * rather than a time limit cutting a legitimate invoice off on a busy server.
 */
import { computeTask, taskModule, type ComputePool } from '../compute/pool.js';
import { apiError } from '../errors/registry.js';
import type { InvoiceDocument } from './invoice-queries.js';

/** Lines (with their taxes) one PDF draws at most. */
export const MAX_INVOICE_PDF_LINES = 1_000;

const PDF = computeTask<InvoiceDocument, Uint8Array>(taskModule(import.meta.url, './invoice-pdf'), 'invoicePdf');

export async function renderInvoicePdf(pool: ComputePool, invoice: InvoiceDocument): Promise<Buffer> {
  const count = invoice.lines.length;
  if (count > MAX_INVOICE_PDF_LINES) {
    throw apiError('SK685', { params: { max: String(MAX_INVOICE_PDF_LINES), count: String(count) } });
  }
  const bytes = await pool.run(invoice.organization_id, PDF, invoice);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
