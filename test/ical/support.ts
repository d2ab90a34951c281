/**
 * iCal test support: a loopback HTTP server whose routes serve feeds (or garbage, slowly, hugely…), real-world
 * shaped feed texts, dates relative to today, and owner-side fixtures (products, bookings, calendars).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Queryable } from '../../src/db/types.js';
import { fixtures, type Row } from '../support/fixtures.js';
import { addDays, todayIn } from '../../src/common/dates.js';

export const TIMEZONE = 'Europe/Amsterdam';

/** Today + n days in the unit's zone, as YYYY-MM-DD. */
export function day(n: number): string {
  return addDays(todayIn(TIMEZONE), n);
}

/** Today + n days as an iCal DATE (YYYYMMDD). */
export function ical(n: number): string {
  return day(n).replaceAll('-', '');
}

export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering (ms). */
  delayMs?: number;
}

export interface FeedServer {
  url(path: string): string;
  set(path: string, route: Route | string): void;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404).end('not found');
      return;
    }
    const answer = () => {
      if (res.destroyed) return;
      res.writeHead(route.status ?? 200, { 'content-type': 'text/calendar; charset=utf-8', ...route.headers });
      res.end(route.body ?? '');
    };
    if (route.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    set: (path, route) => routes.set(path, typeof route === 'string' ? { body: route } : route),
    hits: (path) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** CRLF line endings, as real feeds send them. */
export function crlf(lines: string[]): string {
  return lines.join('\r\n') + '\r\n';
}

export interface AllDay {
  uid: string;
  start: number;
  end: number;
  summary?: string;
  description?: string;
  extra?: string[];
}

function allDayEvent(event: AllDay, stamp = true): string[] {
  return [
    'BEGIN:VEVENT',
    ...(stamp ? ['DTSTAMP:20260101T120000Z'] : []),
    `DTEND;VALUE=DATE:${ical(event.end)}`,
    `DTSTART;VALUE=DATE:${ical(event.start)}`,
    `UID:${event.uid}`,
    ...(event.description ? [`DESCRIPTION:${event.description}`] : []),
    `SUMMARY:${event.summary ?? 'Reserved'}`,
    ...(event.extra ?? []),
    'END:VEVENT',
  ];
}

/** Airbnb's export: PRODID of Airbnb, "Reserved" with a folded DESCRIPTION, "Airbnb (Not available)" blocks. */
export function airbnbFeed(events: AllDay[]): string {
  return crlf([
    'BEGIN:VCALENDAR',
    'PRODID;X-RICAL-TZSOURCE=TZINFO:-//Airbnb Inc//Hosting Calendar 0.8.8//EN',
    'CALSCALE:GREGORIAN',
    'VERSION:2.0',
    ...events.flatMap((event) => allDayEvent(event)),
    'END:VCALENDAR',
  ]);
}

export function airbnbReservation(uid: string, start: number, end: number): AllDay {
  return {
    uid: `${uid}@airbnb.com`, start, end, summary: 'Reserved',
    // A folded line (RFC 5545 §3.1: CRLF + one space continues the line).
    description: 'Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMQ4B8Z2XK\\nPhone Number\r\n  (Last 4 Digits): 4821',
  };
}

export function airbnbBlock(uid: string, start: number, end: number): AllDay {
  return { uid: `${uid}@airbnb.com`, start, end, summary: 'Airbnb (Not available)' };
}

/** Booking.com's export: METHOD:PUBLISH, "CLOSED - Not available". */
export function bookingComFeed(events: { uid: string; start: number; end: number }[]): string {
  return crlf([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//admin.booking.com//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...events.flatMap((event) => allDayEvent({ ...event, uid: `${event.uid}@booking.com`, summary: 'CLOSED - Not available' })),
    'END:VCALENDAR',
  ]);
}

/** Vrbo's export (HomeAway PRODID, "Reserved - <name>", LF line endings as some proxies rewrite them). */
export function vrboFeed(events: { uid: string; start: number; end: number; name: string }[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//HomeAway.com\\, Inc.//EN',
    'CALSCALE:GREGORIAN',
    ...events.flatMap((event) => allDayEvent({ uid: `${event.uid}`, start: event.start, end: event.end, summary: `Reserved - ${event.name}` })),
    'END:VCALENDAR',
  ].join('\n') + '\n';
}

/** A feed with timed events: one with TZID + VTIMEZONE (New York), one in UTC. */
export function timedFeed(lines: string[]): string {
  return crlf(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Example Corp//Channel Manager//EN', ...lines, 'END:VCALENDAR']);
}

export const NEW_YORK_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:America/New_York',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

// ---------------------------------------------------------------------------------------------------------------
// Owner-side fixtures.

export async function createProduct(db: Queryable, organizationId: string, name = 'Dune House', fields: Record<string, unknown> = {}): Promise<{ id: string; ical_export_secret: string; ical_export_secret_no_details: string }> {
  return fixtures(db, organizationId).row<Row & { ical_export_secret: string; ical_export_secret_no_details: string }>(
    'products', { name: { default: name }, timezone: TIMEZONE, ...fields });
}

export async function createCalendar(db: Queryable, organizationId: string, productId: string, icalUrl: string, fields: Record<string, unknown> = {}): Promise<string> {
  return fixtures(db, organizationId).externalCalendar(productId, { ical_url: icalUrl, ...fields });
}

/** A direct booking (bookings row + CONFIRMED event + guest contact); returns its reference and event id. */
export async function createBooking(db: Queryable, organizationId: string, productId: string, start: string, end: string, guest = { first: 'Anna', last: 'de Vries' }, padding = 0, status = 'CONFIRMED'): Promise<{ reference: string; eventId: string; bookingId: string }> {
  const f = fixtures(db, organizationId);
  const booking = await f.row<Row & { reference: string }>('bookings');
  await f.guest(booking.id, { first_name: guest.first, last_name: guest.last });
  const eventId = await f.event(productId, {
    booking_id: booking.id, status, start_date: start, end_date: end, padding, title: `${guest.first} ${guest.last}`, origin: 'api',
  });
  return { reference: booking.reference, eventId, bookingId: booking.id };
}

export async function createBlock(db: Queryable, organizationId: string, productId: string, start: string, end: string, title = 'Owner stay'): Promise<string> {
  return fixtures(db, organizationId).event(productId, { type: 'blocked period', start_date: start, end_date: end, title, origin: 'api' });
}

export interface EventRow {
  id: string;
  uid: string;
  start_date: string;
  end_date: string;
  status: string;
  title: string;
  notes: string;
  type: string;
  origin: string | null;
}

export async function importedEvents(db: Queryable, calendarId: string): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT id, uid, start_date::text AS start_date, end_date::text AS end_date, status, title, notes, type, origin
       FROM api.calendar_events WHERE calendar_id = $1 ORDER BY start_date, uid`, [calendarId]);
  return rows;
}

export interface CalendarState {
  error: string | null;
  last_synced: string | null;
  updated_at: string | null;
  tld: string;
}

export async function calendarState(db: Queryable, calendarId: string): Promise<CalendarState> {
  const { rows } = await db.query<CalendarState>(
    `SELECT error, last_synced::text AS last_synced, updated_at::text AS updated_at, tld FROM api.external_calendars WHERE id = $1`,
    [calendarId]);
  return rows[0]!;
}
