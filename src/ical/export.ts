/**
 * A unit's calendar events → its RFC 5545 export feed, generated with ical.js. Pure: the caller loads the rows.
 *
 * Every non-cancelled booking and blocked period becomes an all-day VEVENT with `UID:<event id>@staykit`,
 * `DTSTART;VALUE=DATE` = start_date and `DTEND;VALUE=DATE` = end_date (exclusive, as stored). A cooldown
 * (`padding` > 0) is exported as a second block `UID:<event id>-padding@staykit` over [end_date, end_date +
 * padding), so platforms do not sell the days the unit keeps free. `DTSTAMP` is the event's `updated_at`, so an
 * unchanged calendar yields byte-identical feeds (and the same ETag).
 *
 * The details feed names the guest and the booking reference (SUMMARY, DESCRIPTION); the no-details feed says
 * only "Booked" or "Blocked".
 */
import ICAL from 'ical.js';
import { createHash } from 'node:crypto';
import { addDays } from '../common/dates.js';

export interface ExportEvent {
  id: string;
  type: 'booking' | 'blocked period';
  status: 'CONFIRMED' | 'TENTATIVE';
  start_date: string;
  end_date: string;
  padding: number;
  title: string;
  updated_at: string;
  /** Booking reference, or null for a blocked period. */
  reference: string | null;
  /** Guest name from the booking's contact, or ''. */
  guest_name: string;
}

export interface ExportFeed {
  body: string;
  etag: string;
}

export const PRODID = '-//Staykit//Staykit iCal export 1.0//EN';

function utcStamp(timestamp: string): ICAL.Time {
  const date = new Date(timestamp);
  return ICAL.Time.fromJSDate(Number.isNaN(date.getTime()) ? new Date(0) : date, true);
}

function summary(event: ExportEvent, details: boolean): string {
  if (!details) return event.type === 'booking' ? 'Booked' : 'Blocked';
  if (event.type === 'booking') {
    const who = event.guest_name || event.title;
    const reference = event.reference ?? '';
    return [who, reference && `(${reference})`].filter(Boolean).join(' ') || 'Booked';
  }
  return event.title || 'Blocked';
}

function description(event: ExportEvent): string {
  const lines = [];
  if (event.reference) lines.push(`Reference: ${event.reference}`);
  if (event.guest_name) lines.push(`Guest: ${event.guest_name}`);
  if (event.title && event.title !== event.guest_name) lines.push(`Title: ${event.title}`);
  lines.push(`Status: ${event.status}`);
  return lines.join('\n');
}

function vevent(uid: string, start: string, end: string, stamp: ICAL.Time, title: string, status: string): ICAL.Component {
  const component = new ICAL.Component('vevent');
  component.addPropertyWithValue('uid', uid);
  component.addPropertyWithValue('dtstamp', stamp);
  component.addPropertyWithValue('dtstart', ICAL.Time.fromDateString(start));
  component.addPropertyWithValue('dtend', ICAL.Time.fromDateString(end));
  component.addPropertyWithValue('summary', title);
  component.addPropertyWithValue('status', status);
  component.addPropertyWithValue('transp', 'OPAQUE');
  return component;
}

/** Builds the feed; `events` in the order they should appear (start_date, id). */
export function buildFeed(calendarName: string, events: readonly ExportEvent[], details: boolean): ExportFeed {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.addPropertyWithValue('prodid', PRODID);
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('method', 'PUBLISH');
  if (calendarName) calendar.addPropertyWithValue('x-wr-calname', calendarName);
  for (const event of events) {
    const stamp = utcStamp(event.updated_at);
    const main = vevent(`${event.id}@staykit`, event.start_date, event.end_date, stamp, summary(event, details), event.status);
    if (details) main.addPropertyWithValue('description', description(event));
    calendar.addSubcomponent(main);
    if (event.padding > 0) {
      calendar.addSubcomponent(
        vevent(`${event.id}-padding@staykit`, event.end_date, addDays(event.end_date, event.padding), stamp,
          details ? `Cooldown after ${summary(event, true)}` : 'Blocked', event.status),
      );
    }
  }
  const body = calendar.toString() + '\r\n';
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  return { body, etag };
}

/** RFC 9110 If-None-Match (weak comparison): true when the client's copy is current. */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
