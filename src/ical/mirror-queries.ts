/**
 * SQL of the import side, as `{ text, values }`; all of it runs as the owner role inside the sync's transaction.
 * Ids are unique per organization only, so every row is matched on its organization as well as its id.
 */
import type { SqlQuery } from './export-queries.js';
import type { FeedEvent } from './parse.js';

/** An external calendar: its id and organization. */
export interface CalendarKey {
  id: string;
  organization_id: string;
}

export interface CalendarRow extends CalendarKey {
  product_id: string;
  active: boolean;
  ical_url: string;
  time_offset: number;
  update_fields: string[];
  timezone: string;
}

export interface MirroredEvent {
  id: string;
  uid: string;
  start_date: string;
  end_date: string;
  status: string;
  title: string;
  notes: string;
}

/** The calendar with its unit's time zone; `lock` serialises the writes of two syncs of one calendar. */
export function loadCalendar(calendar: CalendarKey, lock: boolean): SqlQuery {
  return {
    text: `SELECT c.id, c.organization_id, c.product_id, c.active, c.ical_url, c.time_offset,
                  c.update_fields::text[] AS update_fields, p.timezone
             FROM api.external_calendars c
             JOIN api.products p ON p.id = c.product_id AND p.organization_id = c.organization_id
            WHERE c.id = $1 AND c.organization_id = $2${lock ? ' FOR UPDATE OF c' : ''}`,
    values: [calendar.id, calendar.organization_id],
  };
}

export function mirroredEvents(calendar: CalendarKey): SqlQuery {
  return {
    text: `SELECT id, uid, start_date::text AS start_date, end_date::text AS end_date, status, title, notes
             FROM api.calendar_events WHERE calendar_id = $1 AND organization_id = $2 AND uid IS NOT NULL`,
    values: [calendar.id, calendar.organization_id],
  };
}

export function insertEvent(calendar: CalendarRow, event: FeedEvent): SqlQuery {
  return {
    text: `INSERT INTO api.calendar_events (organization_id, product_id, calendar_id, uid, origin, type, status,
                                            start_date, end_date, title, notes)
           VALUES ($1, $2, $3, $4, 'ical', 'blocked period', 'CONFIRMED', $5, $6, $7, $8)`,
    values: [calendar.organization_id, calendar.product_id, calendar.id, event.uid, event.start_date, event.end_date,
      event.title, event.notes],
  };
}

export type EventChanges = Partial<Pick<MirroredEvent, 'start_date' | 'end_date' | 'status' | 'title' | 'notes'>>;

export function updateEvent(calendar: CalendarKey, id: string, changes: EventChanges): SqlQuery {
  const columns = Object.keys(changes) as (keyof EventChanges)[];
  return {
    text: `UPDATE api.calendar_events SET ${columns.map((column, i) => `${column} = $${i + 3}`).join(', ')}
            WHERE id = $1 AND organization_id = $2`,
    values: [id, calendar.organization_id, ...columns.map((column) => changes[column])],
  };
}

/** What a feed event that could not be placed runs into (the first blocking event of the unit it overlaps). */
export function overlapping(calendar: CalendarRow, event: FeedEvent): SqlQuery {
  return {
    text: `SELECT e.type, e.origin, e.start_date::text AS start_date, e.end_date::text AS end_date,
                  b.reference, x.name AS calendar_name, e.calendar_id = $4 AS same_calendar
             FROM api.calendar_events e
             LEFT JOIN api.bookings b ON b.id = e.booking_id AND b.organization_id = e.organization_id
             LEFT JOIN api.external_calendars x ON x.id = e.calendar_id AND x.organization_id = e.organization_id
            WHERE e.product_id = $1 AND e.organization_id = $6
              AND e.status <> 'CANCELLED' AND e.type IN ('booking', 'blocked period')
              AND daterange(e.start_date, e.end_date + e.padding, '[)') && daterange($2::date, $3::date, '[)')
              AND NOT (e.calendar_id IS NOT DISTINCT FROM $4::uuid AND e.uid IS NOT DISTINCT FROM $5::text)
            ORDER BY e.start_date LIMIT 1`,
    values: [calendar.product_id, event.start_date, event.end_date, calendar.id, event.uid, calendar.organization_id],
  };
}

export interface SyncOutcome {
  error: string | null;
  changed: boolean;
  host: string;
}

/** A finished sync: last_synced now, error (null or the conflicts), updated_at only when events changed. */
export function recordSuccess(calendar: CalendarKey, outcome: SyncOutcome): SqlQuery {
  return {
    text: `UPDATE api.external_calendars
              SET last_synced = now(), error = $3, tld = $4,
                  updated_at = CASE WHEN $5::boolean THEN now() ELSE updated_at END
            WHERE id = $1 AND organization_id = $2`,
    values: [calendar.id, calendar.organization_id, outcome.error, outcome.host, outcome.changed],
  };
}

/** A failed sync: only error changes. */
export function recordFailure(calendar: CalendarKey, message: string): SqlQuery {
  return {
    text: `UPDATE api.external_calendars SET error = $3 WHERE id = $1 AND organization_id = $2`,
    values: [calendar.id, calendar.organization_id, message],
  };
}

export interface ImportLog {
  status: 'success' | 'error';
  message: string | null;
  created: number;
  updated: number;
  cancelled: number;
}

export function logImport(calendar: Pick<CalendarRow, 'id' | 'organization_id' | 'product_id'>, log: ImportLog): SqlQuery {
  return {
    text: `INSERT INTO api.product_calendar_logs (organization_id, product_id, external_calendar_id, kind, status,
                                                  message, events_created, events_updated, events_cancelled)
           VALUES ($1, $2, $3, 'import', $4, $5, $6, $7, $8)`,
    values: [calendar.organization_id, calendar.product_id, calendar.id, log.status, log.message?.slice(0, 2000) ?? null,
      log.created, log.updated, log.cancelled],
  };
}
