/**
 * The import refuses dates ical.js would roll over (February 30 → March 2, 25:00 → the next day, a yearly
 * BYMONTHDAY=30 in February → March 1 or 2, an end before the start → a one-day event): each fails the feed, as
 * docs/ical.md says, and through the app the calendar's `error` names the cause while its events stay as they were.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';
import { buildApp } from '../../src/http/app.js';
import { loadConfig } from '../../src/config.js';
import { FeedParseError, parseFeed } from '../../src/ical/parse.js';
import { createCalendar, createProduct, crlf, day, ical, importedEvents, startFeedServer, TIMEZONE, type FeedServer } from './support.js';

const options = { timezone: TIMEZONE, timeOffsetMinutes: 0, today: day(0) };
const year = Number(day(400).slice(0, 4)); // a year well ahead, so every event below is kept
/** What ical.js makes of February 30 of `year`: the day after February's last. */
const february30 = `${year}-03-0${(year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 1 : 2}`;

function feed(...event: string[]): string {
  return crlf(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', 'BEGIN:VEVENT', 'UID:e1', ...event, 'END:VEVENT', 'END:VCALENDAR']);
}

function refuses(body: string, message: RegExp): void {
  assert.throws(() => parseFeed(body, options), (error: unknown) => {
    assert.ok(error instanceof FeedParseError, String(error));
    assert.match(error.message, message);
    return true;
  });
}

const dates = (body: string) => parseFeed(body, options).map((event) => [event.start_date, event.end_date]);

describe('parseFeed refuses dates it would roll over', () => {
  it('a day that does not exist: February 30, April 31, February 29 of a common year', () => {
    refuses(feed(`DTSTART;VALUE=DATE:${year}0230`, `DTEND;VALUE=DATE:${year}0303`), new RegExp(`DTSTART has an invalid date "${year}0230"`));
    refuses(feed(`DTSTART;VALUE=DATE:${year}0401`, `DTEND;VALUE=DATE:${year}0431`), /DTEND has an invalid date/);
    refuses(feed('DTSTART;VALUE=DATE:21000229', 'DTEND;VALUE=DATE:21000301'), /invalid date "21000229"/);
    // The neighbours are fine: February 29 of a leap year.
    assert.deepEqual(dates(feed('DTSTART;VALUE=DATE:20880229', 'DTEND;VALUE=DATE:20880301')), [['2088-02-29', '2088-03-01']]);
  });

  it('a time that does not exist: hour 25 or 24, minute 61 — with or without parameters', () => {
    refuses(feed(`DTSTART:${year}0301T250000Z`, `DTEND:${year}0303T100000Z`), /DTSTART has an invalid date ".*T250000Z"/);
    refuses(feed(`DTSTART:${year}0301T240000`, `DTEND:${year}0303T100000`), /invalid date/);
    refuses(feed(`DTSTART;TZID=Europe/Amsterdam:${year}0301T106100`, `DTEND;TZID=Europe/Amsterdam:${year}0303T100000`), /invalid date/);
  });

  it('invalid dates in RDATE, EXDATE and a rule\'s UNTIL', () => {
    const start = [`DTSTART;VALUE=DATE:${year}0301`, `DTEND;VALUE=DATE:${year}0302`];
    refuses(feed(...start, `RDATE;VALUE=DATE:${year}0230`), /RDATE has an invalid date/);
    refuses(feed(...start, 'RRULE:FREQ=WEEKLY;COUNT=3', `EXDATE;VALUE=DATE:${year}0332`), /EXDATE has an invalid date/);
    refuses(feed(...start, `RRULE:FREQ=DAILY;UNTIL=${year}0230`), /RRULE has an invalid UNTIL/);
  });

  it('a recurrence expanded into a day its rule does not allow (BYMONTHDAY=30 in February)', () => {
    refuses(feed(`DTSTART;VALUE=DATE:${year}0101`, `DTEND;VALUE=DATE:${year}0102`, 'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2'),
      new RegExp(`produced ${february30}, a date the rule does not allow`));
    // A monthly rule on the 30th simply has no February occurrence (RFC 5545): nothing to refuse.
    const monthly = dates(feed(`DTSTART;VALUE=DATE:${year}0130`, `DTEND;VALUE=DATE:${year}0131`, 'RRULE:FREQ=MONTHLY;BYMONTHDAY=30;COUNT=3'));
    assert.deepEqual(monthly.map(([start]) => start!.slice(5)), ['01-30', '03-30', '04-30']);
  });

  it('an end before the start, by DTEND or by a negative DURATION; an end on the start still blocks one day', () => {
    refuses(feed(`DTSTART;VALUE=DATE:${year}0310`, `DTEND;VALUE=DATE:${year}0305`), new RegExp(`event e1 ends \\(${year}-03-05\\) before it starts \\(${year}-03-10\\)`));
    refuses(feed(`DTSTART:${year}0310T100000Z`, `DTEND:${year}0310T080000Z`), /ends .* before it starts/);
    refuses(feed(`DTSTART;VALUE=DATE:${year}0310`, 'DURATION:-P3D'), /ends .* before it starts/);
    assert.deepEqual(dates(feed(`DTSTART;VALUE=DATE:${year}0310`, `DTEND;VALUE=DATE:${year}0310`)), [[`${year}-03-10`, `${year}-03-11`]]);
  });

  it('an event outside the dates Staykit stores (1900-01-01 – 2199-12-31)', () => {
    refuses(feed(`DTSTART;VALUE=DATE:${year}0301`, 'DTEND;VALUE=DATE:99991231'), /outside the supported range 1900-01-01 – 2199-12-31/);
    refuses(feed('DTSTART;VALUE=DATE:18000101', `DTEND;VALUE=DATE:${year}0301`), /outside the supported range/);
    // An old event that has ended is dropped before the check, as every past event is.
    assert.deepEqual(dates(feed('DTSTART;VALUE=DATE:18000101', 'DTEND;VALUE=DATE:18000105')), []);
  });
});

forEachBackend('iCal import of a feed with a rolled-over date, through the app', (ctx) => {
  let server: FeedServer;
  let app: FastifyInstance;
  let org: TestOrganization;
  before(async () => {
    server = await startFeedServer();
    org = await createOrganization(ctx.db, 'Strict feeds');
    app = await buildApp({ db: ctx.db, config: loadConfig({ STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true' }) });
  });
  after(async () => {
    await app.close();
    await server.close();
  });

  it('fails the feed: error names the date, the imported events are left as they were', async () => {
    const product = await createProduct(ctx.db, org.id);
    const calendar = await createCalendar(ctx.db, org.id, product.id, server.url('/feed.ics'));
    const sync = () => app.inject({ method: 'GET', url: `/v1/availability?product_ids=${product.id}&perform_sync=true`, headers: bearer(org.key) });
    const state = async () => (await app.inject({ method: 'GET', url: `/v1/external_calendars?id=eq.${calendar}&select=error`, headers: bearer(org.key) })).json() as { error: string | null }[];

    server.set('/feed.ics', feed(`DTSTART;VALUE=DATE:${ical(10)}`, `DTEND;VALUE=DATE:${ical(12)}`));
    assert.equal((await sync()).statusCode, 200);
    assert.deepEqual(await state(), [{ error: null }]);

    const cases: [body: string, error: RegExp][] = [
      [feed(`DTSTART;VALUE=DATE:${year}0230`, `DTEND;VALUE=DATE:${year}0303`), /DTSTART has an invalid date/],
      [feed(`DTSTART:${year}0301T250000Z`, `DTEND:${year}0303T100000Z`), /DTSTART has an invalid date/],
      [feed(`DTSTART;VALUE=DATE:${year}0101`, `DTEND;VALUE=DATE:${year}0102`, 'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2'), /a date the rule does not allow/],
      [feed(`DTSTART;VALUE=DATE:${ical(12)}`, `DTEND;VALUE=DATE:${ical(10)}`), /before it starts/],
    ];
    for (const [body, error] of cases) {
      server.set('/feed.ics', body);
      assert.equal((await sync()).statusCode, 200);
      assert.match((await state())[0]!.error ?? '', error);
      const events = await importedEvents(ctx.db, calendar);
      assert.deepEqual(events.map((event) => [event.uid, event.start_date, event.end_date, event.status]), [['e1', day(10), day(12), 'CONFIRMED']]);
    }
  });
});
