/**
 * Feed text → the blocked date ranges it describes, in the unit's dates. Pure: no database, no network.
 *
 * - The text must be an iCalendar object (`BEGIN:VCALENDAR`); ical.js parses it (CRLF or LF, folded lines,
 *   escaped text). Anything it cannot parse, and any VEVENT without a usable DTSTART, fails the whole feed with
 *   `FeedParseError`: a sync that silently skipped an event would cancel it and free its dates. So does any date
 *   that ical.js would roll over instead of refusing: a date or time that does not exist (`20270230`, `T250000`,
 *   also in RDATE, EXDATE and UNTIL), an end before the start, a recurrence expanded into a day its rule does
 *   not allow, and a kept event outside the dates Staykit stores (1900-01-01 – 2199-12-31).
 * - All-day events (`VALUE=DATE`) keep their dates; DTEND is exclusive, as in `calendar_events.end_date`.
 * - Timed events: the instant (UTC, TZID with the feed's VTIMEZONE, TZID naming an IANA zone, or floating = the
 *   unit's local time) is turned into the unit's wall-clock time, `timeOffsetMinutes` is added, and the date is
 *   taken. The end date is the date of the (shifted) end; an event that ends on the day it starts blocks that day.
 * - `STATUS:CANCELLED` and `TRANSP:TRANSPARENT` events are not blocks; they count as absent from the feed.
 * - Recurring events (RRULE/RDATE/EXDATE, RECURRENCE-ID overrides) are expanded up to `horizonDays` after today;
 *   each occurrence gets the UID `<UID>/<RECURRENCE-ID>`. At most 10 000 occurrences (past ones included) are
 *   walked per feed.
 * - Events that end on or before today are dropped: the sync manages today and the future only.
 */
import ICAL from 'ical.js';
import { createHash } from 'node:crypto';
import { invalidDateInLine } from './date-values.js';
import { addDays } from '../common/dates.js';
import { addMinutes, dateOf, instantOfWallTime, isTimeZone, SUPPORTED_DATES, wallTimeAt, type WallTime } from './dates.js';
import { occurrenceChecker } from './recurrence-check.js';

export interface FeedEvent {
  /** The feed's UID (with `/<RECURRENCE-ID>` for an occurrence of a recurring event). */
  uid: string;
  start_date: string;
  /** Exclusive. */
  end_date: string;
  title: string;
  notes: string;
}

export interface ParseOptions {
  /** The unit's time zone (IANA). */
  timezone: string;
  /** `external_calendars.time_offset`: minutes added to timed events before they become dates. */
  timeOffsetMinutes: number;
  /** Today in the unit's time zone (YYYY-MM-DD). */
  today: string;
  /** How far recurring events are expanded (days after today). Default 730. */
  horizonDays?: number;
  /** At most this many events (occurrences included). Default 5000. */
  maxEvents?: number;
}

export class FeedParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedParseError';
  }
}

const MAX_TEXT = 1000;
/**
 * Occurrences walked per feed, past ones included. Expansion is CPU work on the event loop (~0.15 ms a step), so
 * the budget bounds what one hostile feed can cost; a daily rule begun decades ago exceeds it and fails the feed.
 */
const MAX_OCCURRENCE_STEPS = 10_000;

function text(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.trim().slice(0, MAX_TEXT);
}

function tzidOf(component: ICAL.Component, property: string): string | undefined {
  const tzid = component.getFirstProperty(property)?.getParameter('tzid');
  return typeof tzid === 'string' && tzid !== '' ? tzid.replace(/^\/+/, '') : undefined;
}

function isFloating(time: ICAL.Time): boolean {
  return !time.zone || time.zone === ICAL.Timezone.localTimezone || time.zone.tzid === 'floating';
}

/** The instant a DTSTART/DTEND value names (a DATE: its midnight in the unit's time zone). */
function instantOf(time: ICAL.Time, tzid: string | undefined, options: ParseOptions): number {
  const wall: WallTime = { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second };
  if (time.isDate) return instantOfWallTime({ ...wall, hour: 0, minute: 0, second: 0 }, options.timezone);
  if (time.zone?.tzid === 'UTC' || time.zone === ICAL.Timezone.utcTimezone) {
    return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  }
  if (!isFloating(time)) return time.toUnixTime() * 1000; // TZID defined by a VTIMEZONE of the feed
  if (tzid !== undefined && isTimeZone(tzid)) return instantOfWallTime(wall, tzid); // TZID naming an IANA zone, no VTIMEZONE
  return instantOfWallTime(wall, options.timezone); // floating (or unknown TZID): the unit's local time
}

/** The date, in the unit's calendar, of a DTSTART/DTEND value. */
function localDate(time: ICAL.Time, tzid: string | undefined, options: ParseOptions): string {
  if (time.isDate) return dateOf(time);
  return dateOf(addMinutes(wallTimeAt(instantOf(time, tzid, options), options.timezone), options.timeOffsetMinutes));
}

/**
 * The event's dates. An end before the start (DTEND earlier than DTSTART, a negative DURATION) fails the feed: it
 * is not a one-day event. An end equal to the start, or on the start's day, blocks that one day.
 */
function range(
  start: ICAL.Time,
  end: ICAL.Time,
  component: ICAL.Component,
  uid: string,
  options: ParseOptions,
): { start_date: string; end_date: string } {
  const startTzid = tzidOf(component, 'dtstart');
  const endTzid = tzidOf(component, 'dtend') ?? startTzid;
  const endsEarlier = start.isDate && end.isDate
    ? dateOf(end) < dateOf(start)
    : instantOf(end, endTzid, options) < instantOf(start, startTzid, options);
  if (endsEarlier) throw new FeedParseError(`event ${uid} ends (${end.toString()}) before it starts (${start.toString()})`);
  const startDate = localDate(start, startTzid, options);
  let endDate = localDate(end, endTzid, options);
  if (endDate <= startDate) endDate = addDays(startDate, 1);
  return { start_date: startDate, end_date: endDate };
}

function blocks(component: ICAL.Component): boolean {
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
  const transp = String(component.getFirstPropertyValue('transp') ?? '').toUpperCase();
  return status !== 'CANCELLED' && transp !== 'TRANSPARENT';
}

function uidOf(component: ICAL.Component): string {
  const uid = text(component.getFirstPropertyValue('uid'));
  if (uid !== '') return uid;
  // No UID (not valid RFC 5545, but seen): a stable stand-in from what the event says.
  const basis = ['dtstart', 'dtend', 'summary'].map((name) => String(component.getFirstPropertyValue(name) ?? '')).join('|');
  return `no-uid-${createHash('sha256').update(basis).digest('hex').slice(0, 24)}`;
}

function startOf(event: ICAL.Event, uid: string): ICAL.Time {
  let start: ICAL.Time | undefined;
  try {
    start = event.startDate;
  } catch (error) {
    throw new FeedParseError(`event ${uid}: DTSTART cannot be read (${(error as Error).message})`);
  }
  if (!start) throw new FeedParseError(`event ${uid} has no DTSTART`);
  return start;
}

/**
 * Checks ical.js is lenient about: BEGIN/END must pair up (it closes unterminated components silently, so a
 * truncated feed would pass), and date values must be real dates and times (it reads "20270230" as March 2).
 */
function checkStructure(source: string): void {
  const open: string[] = [];
  for (const line of source.replace(/\r?\n[ \t]/g, '').split(/\r?\n/)) {
    const invalid = invalidDateInLine(line);
    if (invalid) throw new FeedParseError(`malformed iCalendar feed: ${invalid}`);
    const match = /^(BEGIN|END):([A-Za-z0-9-]+)\s*$/i.exec(line);
    if (!match) continue;
    const name = match[2]!.toUpperCase();
    if (match[1]!.toUpperCase() === 'BEGIN') open.push(name);
    else if (open.pop() !== name) throw new FeedParseError(`malformed iCalendar feed: END:${name} does not close the open component`);
  }
  if (open.length > 0) throw new FeedParseError(`malformed iCalendar feed: BEGIN:${open[open.length - 1]} is never closed (truncated feed?)`);
}

/** Parses a feed; throws FeedParseError when it is not a usable iCalendar object. */
export function parseFeed(body: string, options: ParseOptions): FeedEvent[] {
  const horizon = addDays(options.today, options.horizonDays ?? 730);
  const maxEvents = options.maxEvents ?? 5000;
  const source = body.replace(/^\uFEFF/, '').trimStart();
  if (!/^BEGIN:VCALENDAR\r?\n/i.test(source)) {
    const start = JSON.stringify(source.slice(0, 40));
    throw new FeedParseError(`not an iCalendar feed: it does not start with BEGIN:VCALENDAR (it starts with ${start})`);
  }
  checkStructure(source);
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(source) as unknown as unknown[]);
  } catch (error) {
    throw new FeedParseError(`malformed iCalendar feed: ${(error as Error).message}`);
  }
  if (root.name !== 'vcalendar') throw new FeedParseError(`not an iCalendar feed: the root is ${root.name}`);

  const components = root.getAllSubcomponents('vevent');
  const masters = new Set(components.filter((c) => !c.hasProperty('recurrence-id')).map((c) => uidOf(c)));
  const events = new Map<string, FeedEvent>();
  let steps = 0;
  const add = (event: FeedEvent) => {
    if (event.end_date <= options.today) return;
    if (event.start_date < SUPPORTED_DATES.first || event.end_date > SUPPORTED_DATES.endLimit) {
      throw new FeedParseError(`event ${event.uid}: its dates (${event.start_date} – ${event.end_date}) are outside the supported range ${SUPPORTED_DATES.first} – ${SUPPORTED_DATES.last}`);
    }
    let uid = event.uid;
    if (events.has(uid)) uid = `${event.uid}/${event.start_date}`; // duplicate UID without RECURRENCE-ID
    if (events.has(uid)) return;
    if (events.size >= maxEvents) throw new FeedParseError(`the feed has more than ${maxEvents} events`);
    events.set(uid, { ...event, uid });
  };

  for (const component of components) {
    const uid = uidOf(component);
    const recurrenceException = component.hasProperty('recurrence-id');
    if (recurrenceException && masters.has(uid)) continue; // applied through its master
    let event: ICAL.Event;
    try {
      event = new ICAL.Event(component);
    } catch (error) {
      throw new FeedParseError(`event ${uid} cannot be read: ${(error as Error).message}`);
    }
    const start = startOf(event, uid);
    const details = { title: text(component.getFirstPropertyValue('summary')), notes: text(component.getFirstPropertyValue('description')) };

    if (recurrenceException) {
      // An override whose master is not in the feed: a plain event of its own.
      if (blocks(component)) add({ uid: `${uid}/${event.recurrenceId.toString()}`, ...range(start, event.endDate, component, uid, options), ...details });
      continue;
    }
    if (!event.isRecurring()) {
      if (blocks(component)) add({ uid, ...range(start, event.endDate, component, uid, options), ...details });
      continue;
    }
    let iterator: ICAL.RecurExpansion;
    try {
      iterator = event.iterator();
    } catch (error) {
      throw new FeedParseError(`event ${uid}: its recurrence cannot be expanded (${(error as Error).message})`);
    }
    const checkOccurrence = occurrenceChecker(event);
    for (;;) {
      steps += 1;
      if (steps > MAX_OCCURRENCE_STEPS) throw new FeedParseError(`event ${uid} recurs too often (more than ${MAX_OCCURRENCE_STEPS} occurrences to expand)`);
      let next: ICAL.Time | undefined;
      try {
        next = iterator.next();
      } catch (error) {
        throw new FeedParseError(`event ${uid}: its recurrence cannot be expanded (${(error as Error).message})`);
      }
      if (!next) break;
      const occurrence = event.getOccurrenceDetails(next);
      const item = occurrence.item.component;
      const dates = range(occurrence.startDate, occurrence.endDate, item, uid, options);
      if (dates.start_date > horizon) break;
      const broken = checkOccurrence?.(next);
      if (broken) throw new FeedParseError(`event ${uid}: ${broken}`);
      if (!blocks(item)) continue;
      add({
        uid: `${uid}/${occurrence.recurrenceId.toString()}`,
        ...dates,
        title: text(item.getFirstPropertyValue('summary')) || details.title,
        notes: text(item.getFirstPropertyValue('description')) || details.notes,
      });
    }
  }
  return [...events.values()];
}
