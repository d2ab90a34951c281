/** What an invoice document shows, read as the API role (row-level security applies). */
import type { Queryable } from '../db/types.js';

export interface InvoiceLine {
  name: Record<string, string>;
  quantity: number;
  amount: number;
  fee_type: 'fee' | 'deposit';
  taxes: { name: string; percentage: number; inclusive: boolean; amount: number }[];
}

export interface InvoiceDocument {
  id: string;
  organization_id: string;
  number: string | null;
  status: 'draft' | 'issued' | 'paid' | 'void';
  currency: string;
  total: number;
  issued_at: string | null;
  due_at: string | null;
  notes: string;
  credit_for_number: string | null;
  organization_name: string;
  booking_reference: string | null;
  language: string;
  contact: { first_name: string | null; last_name: string | null; email: string | null } | null;
  lines: InvoiceLine[];
}

/** The tables the document is read from: the route's transaction may read exactly these. */
export const INVOICE_DOCUMENT_TABLES = ['invoices', 'line_items', 'line_item_taxes', 'organizations', 'bookings', 'contacts'];

export async function loadInvoiceDocument(tx: Queryable, id: string): Promise<InvoiceDocument | undefined> {
  const { rows } = await tx.query<InvoiceDocument>(
    `SELECT i.id, i.organization_id, i.number, i.status, i.currency, i.total, i.issued_at, i.due_at, i.notes,
            credited.number AS credit_for_number, o.name AS organization_name, b.reference AS booking_reference,
            coalesce(b.language, o.language) AS language,
            (SELECT json_build_object('first_name', c.first_name, 'last_name', c.last_name, 'email', c.email)
             FROM api.contacts AS c WHERE c.id = i.contact_id) AS contact,
            coalesce((SELECT json_agg(json_build_object(
                        'name', l.name, 'quantity', l.quantity, 'amount', l.amount, 'fee_type', l.fee_type,
                        'taxes', coalesce((SELECT json_agg(json_build_object('name', t.name, 'percentage', t.percentage,
                                                                             'inclusive', t.inclusive, 'amount', t.amount))
                                           FROM api.line_item_taxes AS t WHERE t.line_item_id = l.id), '[]'))
                        ORDER BY l.created_at, l.id)
                      FROM api.line_items AS l WHERE l.invoice_id = i.id), '[]') AS lines
     FROM api.invoices AS i
     JOIN api.organizations AS o ON o.id = i.organization_id
     LEFT JOIN api.bookings AS b ON b.id = i.booking_id
     LEFT JOIN api.invoices AS credited ON credited.id = i.credit_for_id
     WHERE i.id = $1`,
    [id],
  );
  return rows[0];
}
