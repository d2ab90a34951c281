/** What an invoice document shows, read as the API role (row-level security applies). */
import type { Queryable } from '../db/types.js';

export interface InvoiceLine {
  name: Record<string, string>;
  quantity: number;
  amount: number;
  fee_type: 'fee' | 'deposit';
  /** `tax` for the lines that carry exclusive taxes (drawn in the tax summary, not among the lines). */
  item_type: string;
  taxes: { name: string; percentage: number; inclusive: boolean; amount: number }[];
}

export interface PostalAddress {
  street?: string;
  postal_code?: string;
  city?: string;
  region?: string;
  country?: string;
}

/** `organizations.settings.invoices.seller` (migration 0215): every field optional. */
export interface InvoiceSeller {
  legal_name?: string;
  address?: PostalAddress;
  vat_id?: string;
  registration_number?: string;
  email?: string;
  phone?: string;
  website?: string;
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
  paid_at: string | null;
  notes: string;
  credit_for_number: string | null;
  organization_name: string;
  /** The organization's time zone: the dates on the invoice are its calendar's. */
  timezone: string;
  seller: InvoiceSeller | null;
  payment_instructions: string | Record<string, string> | null;
  booking_reference: string | null;
  language: string;
  contact: {
    first_name: string | null; last_name: string | null; email: string | null; company: string | null;
    address: PostalAddress | null; country: string | null; vat_id: string | null;
  } | null;
  /** The booking's stay (the date of supply): its unit and dates, end exclusive as stored. */
  stay: { unit: Record<string, string>; start_date: string; end_date: string; rent_period: 'daily' | 'nightly' } | null;
  lines: InvoiceLine[];
}

/** The tables the document is read from: the route's transaction may read exactly these, and its principal needs each one's read scope. */
export const INVOICE_DOCUMENT_TABLES = [
  'invoices', 'line_items', 'line_item_taxes', 'organizations', 'bookings', 'contacts', 'calendar_events', 'products',
];

export async function loadInvoiceDocument(tx: Queryable, id: string): Promise<InvoiceDocument | undefined> {
  const { rows } = await tx.query<InvoiceDocument>(
    `SELECT i.id, i.organization_id, i.number, i.status, i.currency, i.total, i.issued_at, i.due_at, i.paid_at, i.notes,
            credited.number AS credit_for_number, o.name AS organization_name, o.timezone,
            o.settings -> 'invoices' -> 'seller' AS seller, o.settings -> 'invoices' -> 'payment_instructions' AS payment_instructions,
            b.reference AS booking_reference, coalesce(b.language, o.language) AS language,
            (SELECT json_build_object('first_name', c.first_name, 'last_name', c.last_name, 'email', c.email, 'company', c.company,
                                      'address', c.address, 'country', c.country, 'vat_id', c.vat_id)
             FROM api.contacts AS c WHERE c.id = i.contact_id) AS contact,
            (SELECT json_build_object('unit', p.name, 'start_date', e.start_date, 'end_date', e.end_date, 'rent_period', p.rent_period)
             FROM api.calendar_events AS e JOIN api.products AS p ON p.id = e.product_id AND p.organization_id = e.organization_id
             WHERE e.booking_id = i.booking_id AND e.organization_id = i.organization_id AND e.type = 'booking'
             ORDER BY e.created_at, e.id LIMIT 1) AS stay,
            coalesce((SELECT json_agg(json_build_object(
                        'name', l.name, 'quantity', l.quantity, 'amount', l.amount, 'fee_type', l.fee_type, 'item_type', l.item_type,
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
