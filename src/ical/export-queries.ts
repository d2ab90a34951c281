/**
 * SQL of the export feed, as `{ text, values }`. These run as the connecting (owner) role, outside any tenant
 * transaction: the secret in the URL is the credential, and the product is found by it. Ids are unique per
 * organization only, so every row is matched on its organization as well as its id.
 */
import { SUPPORTED_DATES } from './dates.js';

export interface SqlQuery {
  text: string;
  values: unknown[];
}

export interface FeedProduct {
  id: string;
  organization_id: string;
  name: string;
  timezone: string;
  details: boolean;
}

/** The live product whose details or no-details secret is `secret` (at most 2 rows: ambiguous means none). */
export function productBySecret(secret: string): SqlQuery {
  return {
    text: `SELECT id, organization_id, timezone,
                  coalesce(name ->> 'default', (SELECT value FROM jsonb_each_text(name) LIMIT 1), '') AS name,
                  (ical_export_secret = $1 AND ical_export_secret_no_details <> $1) AS details
             FROM api.products
            WHERE (ical_export_secret = $1 OR ical_export_secret_no_details = $1) AND deleted_at IS NULL
            LIMIT 2`,
    values: [secret],
  };
}

/**
 * The product's blocking events from `pastDays` before today (in the unit's time zone) on, with the booking's
 * reference and the first guest's name. `excludeCalendarId` leaves out events imported from that calendar.
 *
 * Dates outside the supported range (rows stored before the database refused them, e.g. an end of `infinity`) are
 * clamped into it, so the feed can always be written and the dates stay blocked; `clamped` marks those rows. The
 * date filter never adds to a stored date, which could overflow.
 */
export function exportEvents(product: Pick<FeedProduct, 'id' | 'organization_id' | 'timezone'>, pastDays: number, excludeCalendarId: string | null): SqlQuery {
  return {
    text: `SELECT e.id, e.type, e.status,
                  least(greatest(e.start_date, $5::date), $6::date)::text AS start_date,
                  least(greatest(e.end_date, $5::date + 1), $7::date)::text AS end_date,
                  NOT (e.start_date BETWEEN $5::date AND $6::date AND e.end_date BETWEEN $5::date + 1 AND $7::date) AS clamped,
                  e.padding, e.title, to_char(e.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at,
                  b.reference,
                  coalesce((SELECT trim(c.first_name || ' ' || c.last_name)
                              FROM api.contact_bookings cb
                              JOIN api.contacts c ON c.id = cb.contact_id AND c.organization_id = cb.organization_id
                             WHERE cb.booking_id = b.id AND cb.organization_id = b.organization_id
                             ORDER BY cb.created_at, c.id LIMIT 1), '') AS guest_name
             FROM api.calendar_events e
             LEFT JOIN api.bookings b ON b.id = e.booking_id AND b.organization_id = e.organization_id
            WHERE e.product_id = $1 AND e.organization_id = $8
              AND e.status <> 'CANCELLED' AND e.type IN ('booking', 'blocked period')
              AND e.end_date > (now() AT TIME ZONE $2)::date - $3::int - e.padding
              AND ($4::uuid IS NULL OR e.calendar_id IS DISTINCT FROM $4::uuid)
            ORDER BY e.start_date, e.id`,
    values: [product.id, product.timezone, pastDays, excludeCalendarId, SUPPORTED_DATES.first, SUPPORTED_DATES.last,
      SUPPORTED_DATES.endLimit, product.organization_id],
  };
}

/** One row of the unit's iCal log for a served feed. */
export function logExport(product: FeedProduct, userAgent: string | null, message: string): SqlQuery {
  return {
    text: `INSERT INTO api.product_calendar_logs (organization_id, product_id, kind, status, message, user_agent)
           VALUES ($1, $2, 'export', 'success', $3, $4)`,
    values: [product.organization_id, product.id, message, userAgent],
  };
}
