/**
 * A booking's invoices (docs/payments.md#invoices): a draft of the price lines on no invoice yet, issued (the
 * database numbers it), credited (a draft credit invoice with the lines negated, issued at once), voided once its
 * credits cancel it, and its PDF (`GET /v1/invoices/<id>` with `Accept: application/pdf`).
 */
import { database, rowsOf } from '../api/database';
import { sessionFetch } from '../api/http';
import { toApiError } from '../api/errors';

/** A draft for the booking's first guest with every price line not on an invoice yet. */
export async function createDraftInvoice(bookingId: string, contactId: string | null): Promise<string> {
  const [invoice] = rowsOf(await database.from('invoices').insert({ booking_id: bookingId, contact_id: contactId }).select('id'));
  rowsOf(await database.from('line_items').update({ invoice_id: invoice!.id }).eq('booking_id', bookingId).is('invoice_id', null).select('id'));
  return invoice!.id;
}

export async function issueInvoice(invoiceId: string): Promise<void> {
  rowsOf(await database.from('invoices').update({ status: 'issued' }).eq('id', invoiceId).select('id'));
}

/** Only a draft can be deleted; its lines go back to being on no invoice. */
export async function deleteDraftInvoice(invoiceId: string): Promise<void> {
  rowsOf(await database.from('line_items').update({ invoice_id: null }).eq('invoice_id', invoiceId).select('id'));
  rowsOf(await database.from('invoices').delete().eq('id', invoiceId).eq('status', 'draft').select('id'));
}

/** The full correction of an issued invoice: the database copies its lines negated into the draft, which is issued. */
export async function creditInvoice(invoiceId: string): Promise<void> {
  const [credit] = rowsOf(await database.from('invoices').insert({ credit_for_id: invoiceId }).select('id'));
  await issueInvoice(credit!.id);
}

/** Allowed once issued credit invoices cancel its whole total (409 SK668 before, with the way to do it). */
export async function voidInvoice(invoiceId: string): Promise<void> {
  rowsOf(await database.from('invoices').update({ status: 'void' }).eq('id', invoiceId).select('id'));
}

/** Downloads the invoice's PDF under the name the server gives it (`invoice-2027-0001.pdf`). */
export async function downloadInvoicePdf(invoiceId: string): Promise<void> {
  let response: Response;
  try {
    response = await sessionFetch(`/v1/invoices/${invoiceId}`, { headers: { Accept: 'application/pdf' } });
  } catch (error) {
    throw toApiError(error);
  }
  if (!response.ok) throw toApiError(await response.json().catch(() => ({ code: String(response.status), message: response.statusText })), response.status);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `invoice-${invoiceId}.pdf`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The click has handed the file to the browser's download; the URL is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
