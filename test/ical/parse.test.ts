import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseFeed, FeedParseError } from '../../src/ical/parse.js';
import { airbnbBlock, airbnbFeed, airbnbReservation, bookingComFeed, crlf, day, ical, NEW_YORK_VTIMEZONE, TIMEZONE, timedFeed, vrboFeed } from './support.js';

const options = (timeOffsetMinutes = 0) => ({ timezone: TIMEZONE, timeOffsetMinutes, today: day(0) });

describe('parseFeed', () => {
  it('reads an Airbnb feed: reservations and "Not available" blocks, folded lines, CRLF', () => {
    const events = parseFeed(airbnbFeed([airbnbReservation('a1', 5, 10), airbnbBlock('b1', 20, 27)]), options());
    assert.deepEqual(events.map((e) => [e.uid, e.start_date, e.end_date, e.title]), [
      ['a1@airbnb.com', day(5), day(10), 'Reserved'],
      ['b1@airbnb.com', day(20), day(27), 'Airbnb (Not available)'],
    ]);
    // The folded DESCRIPTION is unfolded and its \n unescaped.
    assert.equal(events[0]!.notes, 'Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMQ4B8Z2XK\nPhone Number (Last 4 Digits): 4821');
  });

  it('reads Booking.com and Vrbo (LF-only) feeds', () => {
    const booking = parseFeed(bookingComFeed([{ uid: 'x9', start: 3, end: 6 }]), options());
    assert.deepEqual(booking.map((e) => [e.uid, e.start_date, e.end_date, e.title]), [['x9@booking.com', day(3), day(6), 'CLOSED - Not available']]);
    const vrbo = parseFeed(vrboFeed([{ uid: '4711-abc', start: 1, end: 8, name: 'John' }]), options());
    assert.deepEqual(vrbo.map((e) => [e.uid, e.start_date, e.end_date, e.title]), [['4711-abc', day(1), day(8), 'Reserved - John']]);
  });

  it('turns timed events into the unit\'s dates: VTIMEZONE, IANA TZID without VTIMEZONE, UTC, floating', () => {
    const feed = timedFeed([
      ...NEW_YORK_VTIMEZONE,
      // 20:00 New York = 01:00/02:00 next day in Amsterdam: the stay starts the next day there.
      'BEGIN:VEVENT', 'UID:ny', `DTSTART;TZID=America/New_York:${ical(10)}T200000`, `DTEND;TZID=America/New_York:${ical(12)}T100000`, 'SUMMARY:NY', 'END:VEVENT',
      // No VTIMEZONE for Tokyo: the IANA name is used. 08:00 Tokyo = 00:00/01:00 same day in Amsterdam.
      'BEGIN:VEVENT', 'UID:tokyo', `DTSTART;TZID=Asia/Tokyo:${ical(20)}T090000`, `DTEND;TZID=Asia/Tokyo:${ical(22)}T090000`, 'END:VEVENT',
      // UTC: 23:30Z is the next day in Amsterdam (UTC+1/+2).
      'BEGIN:VEVENT', 'UID:utc', `DTSTART:${ical(30)}T233000Z`, `DTEND:${ical(33)}T090000Z`, 'END:VEVENT',
      // Floating: the unit's local time. Check-in 15:00, checkout 11:00.
      'BEGIN:VEVENT', 'UID:floating', `DTSTART:${ical(40)}T150000`, `DTEND:${ical(43)}T110000`, 'END:VEVENT',
      // A short timed event blocks its day.
      'BEGIN:VEVENT', 'UID:short', `DTSTART:${ical(50)}T100000`, `DTEND:${ical(50)}T120000`, 'END:VEVENT',
    ]);
    const byUid = Object.fromEntries(parseFeed(feed, options()).map((e) => [e.uid, [e.start_date, e.end_date]]));
    assert.deepEqual(byUid, {
      ny: [day(11), day(12)],
      tokyo: [day(20), day(22)],
      utc: [day(31), day(33)],
      floating: [day(40), day(43)],
      short: [day(50), day(51)],
    });
  });

  it('applies time_offset (minutes) to timed events only', () => {
    const feed = timedFeed([
      // Midnight UTC exports (a common channel-manager shape) land at 01:00/02:00 in Amsterdam …
      'BEGIN:VEVENT', 'UID:t', `DTSTART:${ical(10)}T230000Z`, `DTEND:${ical(13)}T230000Z`, 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:d', `DTSTART;VALUE=DATE:${ical(20)}`, `DTEND;VALUE=DATE:${ical(22)}`, 'END:VEVENT',
    ]);
    const plain = Object.fromEntries(parseFeed(feed, options(0)).map((e) => [e.uid, [e.start_date, e.end_date]]));
    assert.deepEqual(plain.t, [day(11), day(14)]);
    // … minus 3 hours moves them back to the intended day; all-day events do not move.
    const shifted = Object.fromEntries(parseFeed(feed, options(-180)).map((e) => [e.uid, [e.start_date, e.end_date]]));
    assert.deepEqual(shifted, { t: [day(10), day(13)], d: [day(20), day(22)] });
  });

  it('expands recurring events with EXDATE and a RECURRENCE-ID override; skips cancelled, transparent and past events', () => {
    const feed = crlf([
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN',
      // Weekly two-night owner block, 4 times, the second one excluded, the third one moved a day later.
      'BEGIN:VEVENT', 'UID:weekly', `DTSTART;VALUE=DATE:${ical(7)}`, `DTEND;VALUE=DATE:${ical(9)}`, 'RRULE:FREQ=WEEKLY;COUNT=4',
      `EXDATE;VALUE=DATE:${ical(14)}`, 'SUMMARY:Cleaning', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:weekly', `RECURRENCE-ID;VALUE=DATE:${ical(21)}`, `DTSTART;VALUE=DATE:${ical(22)}`, `DTEND;VALUE=DATE:${ical(24)}`, 'SUMMARY:Cleaning (moved)', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:gone', `DTSTART;VALUE=DATE:${ical(40)}`, `DTEND;VALUE=DATE:${ical(42)}`, 'STATUS:CANCELLED', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:free', `DTSTART;VALUE=DATE:${ical(50)}`, `DTEND;VALUE=DATE:${ical(52)}`, 'TRANSP:TRANSPARENT', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:past', `DTSTART;VALUE=DATE:${ical(-10)}`, `DTEND;VALUE=DATE:${ical(0)}`, 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:current', `DTSTART;VALUE=DATE:${ical(-2)}`, `DTEND;VALUE=DATE:${ical(1)}`, 'END:VEVENT',
      'END:VCALENDAR',
    ]);
    const events = parseFeed(feed, options()).map((e) => [e.uid, e.start_date, e.end_date, e.title]);
    assert.deepEqual(events, [
      [`weekly/${day(7)}`, day(7), day(9), 'Cleaning'],
      [`weekly/${day(21)}`, day(22), day(24), 'Cleaning (moved)'],
      [`weekly/${day(28)}`, day(28), day(30), 'Cleaning'],
      ['current', day(-2), day(1), ''],
    ]);
  });

  it('refuses HTML, garbage, and malformed calendars', () => {
    assert.throws(() => parseFeed('<!DOCTYPE html><html><body>Log in</body></html>', options()), FeedParseError);
    assert.throws(() => parseFeed('\u0000\u0001binary', options()), /not an iCalendar feed/);
    assert.throws(() => parseFeed('', options()), /not an iCalendar feed/);
    assert.throws(() => parseFeed(crlf(['BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'UID:x', 'this line has no colon', 'END:VEVENT', 'END:VCALENDAR']), options()), FeedParseError);
    assert.throws(() => parseFeed(crlf(['BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'UID:x', 'END:VCALENDAR']), options()), FeedParseError);
    assert.throws(() => parseFeed(crlf(['BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'UID:nostart', 'SUMMARY:x', 'END:VEVENT', 'END:VCALENDAR']), options()), /no DTSTART|DTSTART/);
    assert.throws(() => parseFeed(crlf(['BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'UID:bad', 'DTSTART;VALUE=DATE:2026-13-45', 'END:VEVENT', 'END:VCALENDAR']), options()), FeedParseError);
  });

  it('accepts a BOM and an empty calendar', () => {
    assert.deepEqual(parseFeed('\uFEFF' + crlf(['BEGIN:VCALENDAR', 'VERSION:2.0', 'END:VCALENDAR']), options()), []);
  });
});

describe('parseFeed, Outlook-style time zones', () => {
  it('accepts a quoted TZID with colons and a Windows zone name defined by the feed\'s VTIMEZONE', () => {
    const feed = timedFeed([
      'BEGIN:VTIMEZONE', 'TZID:(UTC+01:00) Amsterdam\\, Berlin', 'BEGIN:STANDARD', 'DTSTART:16010101T030000', 'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10', 'END:STANDARD', 'BEGIN:DAYLIGHT', 'DTSTART:16010101T020000',
      'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3', 'END:DAYLIGHT', 'END:VTIMEZONE',
      'BEGIN:VEVENT', 'UID:outlook', `DTSTART;TZID="(UTC+01:00) Amsterdam, Berlin":${ical(10)}T160000`,
      `DTEND;TZID="(UTC+01:00) Amsterdam, Berlin":${ical(12)}T100000`, 'END:VEVENT',
    ]);
    assert.deepEqual(parseFeed(feed, options()).map((e) => [e.start_date, e.end_date]), [[day(10), day(12)]]);
  });
});

describe('parseFeed, long-running rules', () => {
  const rule = (start: string, freq: string) => crlf(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN',
    'BEGIN:VEVENT', 'UID:rule', `DTSTART;VALUE=DATE:${start}`, 'DURATION:P1D', `RRULE:FREQ=${freq}`, 'END:VEVENT', 'END:VCALENDAR']);

  it('a weekly rule running since 1990 without an end is expanded up to the horizon only', () => {
    const events = parseFeed(rule('19900101', 'WEEKLY'), { ...options(), horizonDays: 70 });
    assert.ok(events.length >= 9 && events.length <= 11, `${events.length} occurrences`);
    assert.ok(events.every((e) => e.end_date > day(0) && e.start_date <= day(70)));
  });

  // The CPU bound is the expansion budget (a count of steps), so the test checks the refusal, not a duration.
  it('a daily rule begun decades ago exceeds the expansion budget: the feed fails (bounded CPU)', () => {
    assert.throws(() => parseFeed(rule('19900101', 'DAILY'), options()), /recurs too often \(more than \d+ occurrences to expand\)/);
  });
});
