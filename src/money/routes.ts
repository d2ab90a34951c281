/**
 * The money module's HTTP routes, registered under `/v1` (docs/payments.md):
 * - `GET /v1/invoices/{id}` with `Accept: application/pdf` → the invoice as a PDF (scope `invoices:read`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Authorize } from '../auth/authorize.js';
import type { Database } from '../db/types.js';
import { UUID } from '../common/patterns.js';
import { notFound } from '../errors/catalogue.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';
import { invoicePdfOnly } from './errors.js';
import { renderInvoicePdf } from './invoices/pdf.js';
import { INVOICE_DOCUMENT_TABLES, loadInvoiceDocument } from './invoices/queries.js';

export interface MoneyRouteDeps {
  db: Database;
  authorize: Authorize;
}

function acceptsPdf(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => part.split(';')[0]!.trim().toLowerCase() === 'application/pdf');
}

export const moneyRoutes: FastifyPluginAsync<MoneyRouteDeps> = async (app, deps) => {
  const { db, authorize } = deps;

  app.get<{ Params: { id: string } }>('/invoices/:id', async (request, reply) => {
    const principal = await authorize(request, 'invoices', 'read');
    const { id } = request.params;
    if (!acceptsPdf(request.headers.accept)) throw invoicePdfOnly(id);
    if (!UUID.test(id)) throw notFound(`No invoice ${id}`);
    const invoice = await inTenantTransaction(db, principal, async (tx) => ({
      result: await loadInvoiceDocument(tx, id), rollback: true,
    }), { readable: INVOICE_DOCUMENT_TABLES });
    if (!invoice) throw notFound(`No invoice ${id}`);
    const pdf = await renderInvoicePdf(invoice);
    const name = invoice.number ?? `draft-${invoice.id}`;
    return reply.type('application/pdf')
      .header('content-disposition', `inline; filename="invoice-${name.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`)
      .send(pdf);
  });
};
