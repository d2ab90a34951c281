/**
 * What a template is rendered with: one statement reads a booking with its calendar event, unit, organization,
 * guest (the first contact linked to it), line items, form values and the unit's reply-to address, as JSON.
 * Runs on the server's connection, always scoped by the organization given (a job's, or the API key's).
 */
import type { CoverPhoto } from '../media/cover.js';
import type { Queryable } from '../db/types.js';

export interface MultiLanguageString {
  default: string;
  [language: string]: string;
}

/** The organization's logo as e-mails show it (staykit_internal.organization_logo, migration 0235). */
export type BrandLogo = Pick<CoverPhoto, 'media_id' | 'url' | 'width' | 'height' | 'variants'>;

export interface BookingPayment {
  id: string; amount: number; currency: string; status: string; method: string; due_date: string | null;
  paid_at: string | null;
}

export interface BookingRecord {
  booking: {
    id: string; reference: string; secret: string; created_at: string; confirmed_at: string | null; currency: string;
    language: string; occupancy: Record<string, number>; silent: boolean;
    /** Refunded (or being refunded) of what was paid, in minor units. */
    refunded: number;
  };
  event: { id: string; start_date: string; end_date: string; status: string; padding: number };
  product: {
    id: string; name: MultiLanguageString; description: MultiLanguageString; approximate_address: string;
    exact_address: string; hide_exact_address: boolean; rent_period: 'daily' | 'nightly'; timezone: string;
    currency: string; latest_arrival_time: string | null;
  };
  /** `brand_color`: settings.brand_color (#rrggbb, migration 0235), or null. */
  organization: { id: string; name: string; language: string; brand_color: string | null };
  contact: {
    id: string; first_name: string; last_name: string; email: string | null; phone: string | null; language: string | null;
  } | null;
  line_items: { name: MultiLanguageString; quantity: number; amount: number; fee_type: string; item_type: string }[];
  details: { name: MultiLanguageString; value: string | null }[];
  reply_to: { email: string; name: string } | null;
  /** The booking's payments, the earliest due first; `due_date` is the day it is due in the unit's time zone. */
  payments: BookingPayment[];
  /**
   * The payment the message is about: a payment_received or payment_due job's (migration 0226). Without one, the
   * templates' `payment` is the booking's next payment still to pay.
   */
  payment_id?: string | null;
  /** The organization's capacity groups that sum others: their counts repeat other groups' guests. */
  accumulators: string[];
  /**
   * The unit's cover photo for `include_product_image` (loadProductCover): set by the template job, which runs as
   * the owner; a preview, which runs with the caller's scopes, has none (the photo is media, a table of its own).
   */
  cover?: CoverPhoto | null;
  /** The organization's logo (loadOrganizationLogo), read like the cover: by the job, or a preview that may read media. */
  logo?: BrandLogo | null;
}

const BOOKING_RECORD = `
  SELECT jsonb_build_object(
    'booking', jsonb_build_object('id', b.id, 'reference', b.reference, 'secret', b.secret, 'created_at', b.created_at,
                                  'confirmed_at', b.confirmed_at, 'currency', b.currency, 'language', b.language,
                                  'occupancy', b.occupancy, 'silent', b.silent,
                                  'refunded', (SELECT coalesce(sum(r.amount), 0)
                                               FROM api.refunds AS r
                                               JOIN api.payments AS pm ON pm.id = r.payment_id AND pm.organization_id = r.organization_id
                                               WHERE pm.booking_id = b.id AND pm.organization_id = b.organization_id
                                                 AND r.status <> 'failed')),
    'event', jsonb_build_object('id', e.id, 'start_date', e.start_date, 'end_date', e.end_date, 'status', e.status,
                                'padding', e.padding),
    'product', jsonb_build_object('id', p.id, 'name', p.name, 'description', p.description,
                                  'approximate_address', p.approximate_address, 'exact_address', p.exact_address,
                                  'hide_exact_address', p.hide_exact_address, 'rent_period', p.rent_period,
                                  'timezone', p.timezone, 'currency', p.currency,
                                  'latest_arrival_time', p.latest_arrival_time),
    'organization', jsonb_build_object('id', o.id, 'name', o.name, 'language', o.language,
                                       'brand_color', o.settings ->> 'brand_color'),
    'contact', (SELECT jsonb_build_object('id', c.id, 'first_name', c.first_name, 'last_name', c.last_name,
                                          'email', c.email, 'phone', c.phone, 'language', c.language)
                FROM api.contact_bookings AS cb
                JOIN api.contacts AS c ON c.id = cb.contact_id AND c.organization_id = cb.organization_id
                WHERE cb.booking_id = b.id AND cb.organization_id = b.organization_id
                ORDER BY cb.created_at, cb.id LIMIT 1),
    'line_items', coalesce((SELECT jsonb_agg(jsonb_build_object('name', li.name, 'quantity', li.quantity,
                                                                'amount', li.amount, 'fee_type', li.fee_type,
                                                                'item_type', li.item_type) ORDER BY li.created_at, li.id)
                            FROM api.line_items AS li
                            WHERE li.booking_id = b.id AND li.organization_id = b.organization_id), '[]'),
    'details', coalesce((SELECT jsonb_agg(jsonb_build_object('name', d.name, 'value', d.value) ORDER BY d.created_at, d.id)
                         FROM api.booking_details AS d
                         WHERE d.booking_id = b.id AND d.organization_id = b.organization_id), '[]'),
    'accumulators', (SELECT coalesce(jsonb_agg(DISTINCT d.accumulator_id), '[]')
                     FROM api.capacity_group_dependencies AS d WHERE d.organization_id = b.organization_id),
    'payments', coalesce((SELECT jsonb_agg(jsonb_build_object('id', pm.id, 'amount', pm.amount, 'currency', pm.currency,
                                                              'status', pm.status, 'method', pm.method,
                                                              'due_date', (pm.due_at AT TIME ZONE p.timezone)::date,
                                                              'paid_at', pm.paid_at)
                                           ORDER BY pm.due_at NULLS LAST, pm.created_at, pm.id)
                          FROM api.payments AS pm
                          WHERE pm.booking_id = b.id AND pm.organization_id = b.organization_id), '[]'),
    'reply_to', (SELECT jsonb_build_object('email', r.email, 'name', r.name)
                 FROM api.product_reply_to_addresses AS pr
                 JOIN api.reply_to_addresses AS r ON r.id = pr.reply_to_address_id AND r.organization_id = pr.organization_id
                 WHERE pr.product_id = p.id AND pr.organization_id = p.organization_id)
  ) AS record
  FROM api.bookings AS b
  JOIN api.calendar_events AS e ON e.booking_id = b.id AND e.organization_id = b.organization_id AND e.type = 'booking'
  JOIN api.products AS p ON p.id = e.product_id AND p.organization_id = e.organization_id
  JOIN api.organizations AS o ON o.id = b.organization_id
  WHERE b.id = $1 AND b.organization_id = $2
  ORDER BY e.created_at, e.id
  LIMIT 1`;

/**
 * Every table BOOKING_RECORD reads: what a template's output is derived from, so a principal that sees it (a preview)
 * needs the read scope of each.
 */
export const BOOKING_RECORD_TABLES: readonly string[] = [
  'bookings', 'calendar_events', 'products', 'organizations', 'contact_bookings', 'contacts', 'line_items',
  'booking_details', 'product_reply_to_addresses', 'reply_to_addresses', 'capacity_group_dependencies', 'payments', 'refunds',
];

/** The cover photo of the booking's unit (staykit_internal.product_cover, migration 0232), or null. */
export async function loadProductCover(db: Queryable, organizationId: string, productId: string): Promise<CoverPhoto | null> {
  const { rows } = await db.query<{ cover: CoverPhoto | null }>(
    `SELECT staykit_internal.product_cover(p.organization_id, p.images) AS cover FROM api.products AS p
     WHERE p.organization_id = $1 AND p.id = $2`, [organizationId, productId]);
  return rows[0]?.cover ?? null;
}

/** The organization's logo (staykit_internal.organization_logo, migration 0235), or null. */
export async function loadOrganizationLogo(db: Queryable, organizationId: string): Promise<BrandLogo | null> {
  const { rows } = await db.query<{ logo: BrandLogo | null }>('SELECT staykit_internal.organization_logo($1) AS logo', [organizationId]);
  return rows[0]?.logo ?? null;
}

/** The booking as templates see it, or undefined when it does not exist (in that organization). */
export async function loadBookingRecord(db: Queryable, organizationId: string, bookingId: string): Promise<BookingRecord | undefined> {
  const { rows } = await db.query<{ record: BookingRecord }>(BOOKING_RECORD, [bookingId, organizationId]);
  return rows[0]?.record;
}
