/**
 * The guest page's reads and its one write, as the database owner with the booking's organization named in every
 * statement: the page is reached by the booking's secret alone, so nothing here takes a key or a tenant setting,
 * and every statement is bound to that one booking.
 */
import type { Database, Queryable } from '../db/types.js';
import type { CoverPhoto } from '../media/cover.js';

type MultiLanguage = Record<string, string>;

export interface GuestBooking {
  id: string;
  organization_id: string;
  reference: string;
  language: string;
  currency: string;
  occupancy: Record<string, number>;
  status: 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED' | null;
  start_date: string | null;
  end_date: string | null;
  product: {
    name: MultiLanguage; rent_period: 'daily' | 'nightly'; timezone: string; address: string; latest_arrival_time: string | null;
    cover: CoverPhoto | null;
  } | null;
  groups: { id: string; name: MultiLanguage; accumulator: boolean }[];
  line_items: { name: MultiLanguage; quantity: number; amount: number; fee_type: string; item_type: string }[];
  payments: { amount: number; currency: string; status: string; due_at: string | null; paid_at: string | null }[];
  invoices: { id: string; number: string; status: string; total: number; currency: string; issued_at: string | null }[];
  /** Refunds of the booking's payments (a cancellation's, or written by the organization), failed ones left out. */
  refunds: { amount: number; currency: string; status: 'pending' | 'refunded'; refunded_at: string | null }[];
  cancellation_requested: boolean;
}

/** Secrets the database generates are 32 base62 characters; clients may set others of 16 or more. */
export const SECRET_PATTERN = /^[0-9A-Za-z]{16,128}$/;

export async function findGuestBooking(db: Queryable, secret: string): Promise<GuestBooking | undefined> {
  // Two rows would be two bookings sharing a secret a client set by hand: show neither.
  const { rows } = await db.query<GuestBooking>(
    `SELECT b.id, b.organization_id, b.reference, b.language, b.currency, b.occupancy,
            e.status, e.start_date::text, e.end_date::text,
            (SELECT json_build_object('name', p.name, 'rent_period', p.rent_period, 'timezone', p.timezone,
                                      'latest_arrival_time', p.latest_arrival_time,
                                      'cover', staykit_internal.product_cover(p.organization_id, p.images),
                                      'address', CASE WHEN p.hide_exact_address AND e.status IS DISTINCT FROM 'CONFIRMED'
                                                      THEN p.approximate_address ELSE p.exact_address END)
             FROM api.products AS p WHERE p.id = e.product_id AND p.organization_id = b.organization_id) AS product,
            coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'accumulator', EXISTS (
                        SELECT 1 FROM api.capacity_group_dependencies AS d
                        WHERE d.accumulator_id = g.id AND d.organization_id = g.organization_id)) ORDER BY g."order", g.id)
                      FROM api.capacity_groups AS g WHERE g.organization_id = b.organization_id), '[]') AS groups,
            coalesce((SELECT json_agg(json_build_object('name', l.name, 'quantity', l.quantity, 'amount', l.amount,
                                                        'fee_type', l.fee_type, 'item_type', l.item_type) ORDER BY l.created_at, l.id)
                      FROM api.line_items AS l WHERE l.booking_id = b.id AND l.organization_id = b.organization_id), '[]') AS line_items,
            coalesce((SELECT json_agg(json_build_object('amount', pm.amount, 'currency', pm.currency, 'status', pm.status,
                                                        'due_at', pm.due_at, 'paid_at', pm.paid_at) ORDER BY pm.due_at NULLS LAST, pm.created_at)
                      FROM api.payments AS pm WHERE pm.booking_id = b.id AND pm.organization_id = b.organization_id), '[]') AS payments,
            coalesce((SELECT json_agg(json_build_object('id', i.id, 'number', i.number, 'status', i.status, 'total', i.total,
                                                        'currency', i.currency, 'issued_at', i.issued_at) ORDER BY i.created_at)
                      FROM api.invoices AS i WHERE i.booking_id = b.id AND i.organization_id = b.organization_id
                        AND i.status <> 'draft'), '[]') AS invoices,
            coalesce((SELECT json_agg(json_build_object('amount', r.amount, 'currency', pm.currency, 'status', r.status,
                                                        'refunded_at', r.refunded_at) ORDER BY r.created_at)
                      FROM api.refunds AS r JOIN api.payments AS pm ON pm.id = r.payment_id AND pm.organization_id = r.organization_id
                      WHERE pm.booking_id = b.id AND pm.organization_id = b.organization_id AND r.status <> 'failed'), '[]') AS refunds,
            EXISTS (SELECT 1 FROM staykit_internal.cancellation_requests AS r
                    WHERE r.booking_id = b.id AND r.organization_id = b.organization_id) AS cancellation_requested
     FROM api.bookings AS b
     LEFT JOIN LATERAL (
       SELECT ce.status, ce.start_date, ce.end_date, ce.product_id FROM api.calendar_events AS ce
       WHERE ce.booking_id = b.id AND ce.organization_id = b.organization_id ORDER BY ce.created_at LIMIT 1
     ) AS e ON true
     WHERE b.secret = $1
     LIMIT 2`,
    [secret],
  );
  return rows.length === 1 ? rows[0] : undefined;
}

/**
 * The guest's cancellation request, as an inbound message on the booking the host sees (and webhooks report), made
 * once while it is open (migration 0211): the booking's request row is taken first, so of requests sent at the same
 * moment one writes the message and the others wait for it and then write nothing. False when one was made already.
 */
export async function recordCancellationRequest(db: Database, booking: GuestBooking, reason: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ message_id: string }>(
      `INSERT INTO staykit_internal.cancellation_requests (organization_id, booking_id, message_id)
       VALUES ($1, $2, gen_random_uuid()) ON CONFLICT DO NOTHING RETURNING message_id`,
      [booking.organization_id, booking.id],
    );
    if (rows.length === 0) return false;
    // From the guest (their contact and e-mail address), to the host: the dashboard shows it as received.
    await tx.query(
      `INSERT INTO api.messages (id, organization_id, booking_id, contact_id, channel, direction, status, from_address, to_address, subject, body)
       SELECT $1, $2, $3, guest.id, 'email', 'inbound', 'received', guest.email, 'host', $4, $5
       FROM (SELECT NULL) AS one
       LEFT JOIN LATERAL (
         SELECT c.id, c.email FROM api.contact_bookings AS cb
         JOIN api.contacts AS c ON c.id = cb.contact_id AND c.organization_id = cb.organization_id
         WHERE cb.booking_id = $3 AND cb.organization_id = $2 ORDER BY cb.created_at, cb.id LIMIT 1) AS guest ON true`,
      [rows[0]!.message_id, booking.organization_id, booking.id, `Cancellation request ${booking.reference}`, reason],
    );
    return true;
  });
}
