/**
 * `syncCalendar`: one external calendar, fetched, parsed and mirrored into the unit's calendar events.
 *
 * Fetch and parse happen outside any transaction; a failure there (refused address, timeout, too large, HTTP
 * error, not iCalendar, malformed) only sets `error` (and writes an error log row): no event, `last_synced` or
 * `updated_at` changes. The mirror is one transaction that locks the calendar row:
 * 1. events of this calendar that vanished from the feed (and end after today) become CANCELLED;
 * 2. every feed event is created (origin `ical`, type `blocked period`, CONFIRMED, uid = feed UID) or updated
 *    (only the columns in `update_fields`; a cancelled one that reappears is confirmed again), each in its own
 *    SAVEPOINT. One that runs into `calendar_events_no_overlap` (23P01) is retried after the others — an event
 *    may move into dates another event of the same feed has just left — and is otherwise left out: the
 *    existing event (a direct booking, another feed's block) keeps its dates and the conflict is written to
 *    `error`;
 * 3. `last_synced = now()`, `error` = the conflicts or null, `tld` = the feed's host, `updated_at = now()` only
 *    when an event was created, updated or cancelled; one `product_calendar_logs` row.
 */
import type { Database, Transaction } from '../db/types.js';
import { isTimeZone } from './dates.js';
import { todayIn } from '../common/dates.js';
import { feedUrl, fetchFeed, FeedFetchError, type FetchOptions } from './fetch.js';
import { FeedParseError, parseFeed, type FeedEvent } from './parse.js';
import {
  insertEvent, loadCalendar, logImport, mirroredEvents, overlapping, recordFailure, recordSuccess, updateEvent,
  type CalendarKey, type CalendarRow, type EventChanges, type MirroredEvent,
} from './mirror-queries.js';


export interface SyncOptions extends FetchOptions {
  /** Override "now" (tests). */
  now?: Date;
}

export interface SyncConflict {
  uid: string;
  start_date: string;
  end_date: string;
  message: string;
}

export interface SyncReport {
  calendarId: string;
  /** `ok`: synced, no conflicts; `conflicts`: synced, some feed events left out; `failed`: nothing changed. */
  status: 'ok' | 'conflicts' | 'failed' | 'missing';
  created: number;
  updated: number;
  cancelled: number;
  conflicts: SyncConflict[];
  /** What was written to `external_calendars.error` (null on a clean sync). */
  error: string | null;
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function hostOf(icalUrl: string): string {
  try {
    return new URL(feedUrl(icalUrl)).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

async function withSavepoint(tx: Transaction, fn: () => Promise<unknown>): Promise<unknown> {
  await tx.query('SAVEPOINT ical_event');
  try {
    await fn();
    await tx.query('RELEASE SAVEPOINT ical_event');
    return undefined;
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT ical_event');
    await tx.query('RELEASE SAVEPOINT ical_event');
    return error;
  }
}

function changesFor(existing: MirroredEvent, event: FeedEvent, fields: readonly string[]): EventChanges {
  const changes: EventChanges = {};
  for (const field of ['start_date', 'end_date', 'title', 'notes'] as const) {
    if (fields.includes(field) && existing[field] !== event[field]) changes[field] = event[field];
  }
  if (fields.includes('status') && existing.status === 'CANCELLED') changes.status = 'CONFIRMED';
  return changes;
}

async function describeConflict(tx: Transaction, calendar: CalendarRow, event: FeedEvent): Promise<string> {
  const query = overlapping(calendar, event);
  const { rows } = await tx.query<{
    type: string; origin: string | null; start_date: string; end_date: string; reference: string | null;
    calendar_name: string | null; same_calendar: boolean | null;
  }>(query.text, query.values);
  const other = rows[0];
  let what = 'another event';
  if (other) {
    const dates = `${other.start_date} – ${other.end_date}`;
    if (other.reference) what = `booking ${other.reference} (${dates})`;
    else if (other.same_calendar) what = `another event of this feed (${dates})`;
    else if (other.calendar_name !== null || other.origin === 'ical') what = `an event imported from ${other.calendar_name ? `calendar "${other.calendar_name}"` : 'another calendar'} (${dates})`;
    else what = `a ${other.type}${other.origin ? ` (origin ${other.origin})` : ''} (${dates})`;
  }
  return `feed event ${event.uid} (${event.start_date} – ${event.end_date}) overlaps ${what}; it was not imported`;
}

function conflictSummary(conflicts: readonly SyncConflict[]): string | null {
  if (conflicts.length === 0) return null;
  const shown = conflicts.slice(0, 5).map((conflict) => conflict.message);
  const more = conflicts.length > shown.length ? `; and ${conflicts.length - shown.length} more` : '';
  return `${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'}: ${shown.join('; ')}${more}`;
}

async function mirror(db: Database, key: CalendarKey, feed: FeedEvent[], today: string): Promise<SyncReport | undefined> {
  return db.transaction(async (tx) => {
    const loaded = loadCalendar(key, true);
    const calendar = (await tx.query<CalendarRow>(loaded.text, loaded.values)).rows[0];
    if (!calendar) return undefined;
    const fields = calendar.update_fields;
    const existingQuery = mirroredEvents(calendar);
    const existing = new Map((await tx.query<MirroredEvent>(existingQuery.text, existingQuery.values)).rows.map((row) => [row.uid, row]));
    const report: SyncReport = { calendarId: calendar.id, status: 'ok', created: 0, updated: 0, cancelled: 0, conflicts: [], error: null };
    const inFeed = new Set(feed.map((event) => event.uid));

    // 1. Vanished events free their dates first, so that events moving into them can follow.
    if (fields.includes('status')) {
      for (const row of existing.values()) {
        if (row.status === 'CANCELLED' || inFeed.has(row.uid) || row.end_date <= today) continue;
        const query = updateEvent(calendar, row.id, { status: 'CANCELLED' });
        await tx.query(query.text, query.values);
        report.cancelled += 1;
      }
    }

    // 2. Creations and updates; overlaps are retried while another pass makes progress.
    let pending = feed;
    const failures = new Map<string, unknown>();
    for (;;) {
      const retry: FeedEvent[] = [];
      let progress = false;
      for (const event of pending) {
        const row = existing.get(event.uid);
        let query;
        if (!row) query = insertEvent(calendar, event);
        else {
          const changes = changesFor(row, event, fields);
          if (Object.keys(changes).length === 0) continue;
          query = updateEvent(calendar, row.id, changes);
        }
        const error = await withSavepoint(tx, () => tx.query(query.text, query.values));
        if (error === undefined) {
          progress = true;
          failures.delete(event.uid);
          if (row) report.updated += 1;
          else report.created += 1;
        } else {
          failures.set(event.uid, error);
          if (sqlState(error) === '23P01') retry.push(event);
        }
      }
      if (retry.length === 0 || !progress) break;
      pending = retry;
    }
    for (const event of feed) {
      const error = failures.get(event.uid);
      if (error === undefined) continue;
      const message = sqlState(error) === '23P01'
        ? await describeConflict(tx, calendar, event)
        : `feed event ${event.uid} (${event.start_date} – ${event.end_date}) could not be imported: ${(error as Error).message}`;
      report.conflicts.push({ uid: event.uid, start_date: event.start_date, end_date: event.end_date, message });
    }

    // 3. The calendar row and the log.
    report.error = conflictSummary(report.conflicts);
    report.status = report.conflicts.length > 0 ? 'conflicts' : 'ok';
    const changed = report.created + report.updated + report.cancelled > 0;
    const done = recordSuccess(calendar, { error: report.error, changed, host: hostOf(calendar.ical_url) });
    await tx.query(done.text, done.values);
    const log = logImport(calendar, {
      status: report.conflicts.length > 0 ? 'error' : 'success',
      message: report.error ?? `${feed.length} feed events`,
      created: report.created, updated: report.updated, cancelled: report.cancelled,
    });
    await tx.query(log.text, log.values);
    return report;
  });
}

async function fail(db: Database, calendar: CalendarRow, message: string): Promise<SyncReport> {
  await db.transaction(async (tx) => {
    const failure = recordFailure(calendar, message);
    await tx.query(failure.text, failure.values);
    const log = logImport(calendar, { status: 'error', message, created: 0, updated: 0, cancelled: 0 });
    await tx.query(log.text, log.values);
  });
  return { calendarId: calendar.id, status: 'failed', created: 0, updated: 0, cancelled: 0, conflicts: [], error: message };
}

/** Syncs one external calendar now (active or not). Never throws for a bad feed; database errors propagate. */
export async function syncCalendar(db: Database, key: CalendarKey, options: SyncOptions): Promise<SyncReport> {
  const loaded = loadCalendar(key, false);
  const calendar = (await db.query<CalendarRow>(loaded.text, loaded.values)).rows[0];
  const missing: SyncReport = { calendarId: key.id, status: 'missing', created: 0, updated: 0, cancelled: 0, conflicts: [], error: null };
  if (!calendar) return missing;
  if (!isTimeZone(calendar.timezone)) return fail(db, calendar, `the unit's time zone "${calendar.timezone}" is not known to the sync`);
  const today = todayIn(calendar.timezone, options.now);
  let feed: FeedEvent[];
  try {
    const body = await fetchFeed(calendar.ical_url, options);
    feed = parseFeed(body, { timezone: calendar.timezone, timeOffsetMinutes: Number(calendar.time_offset), today });
  } catch (error) {
    if (error instanceof FeedFetchError || error instanceof FeedParseError) return fail(db, calendar, error.message);
    throw error;
  }
  return (await mirror(db, calendar, feed, today)) ?? missing;
}
