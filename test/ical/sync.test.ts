import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';
import { syncCalendar } from '../../src/ical/sync.js';
import { availability } from '../../src/booking/availability.js';
import {
  airbnbBlock, airbnbFeed, airbnbReservation, bookingComFeed, calendarState, createBlock, createBooking, createCalendar,
  createProduct, crlf, day, ical, importedEvents, startFeedServer, timedFeed, vrboFeed, type FeedServer,
} from './support.js';

const allow = { allowPrivate: true, timeoutMs: 2000 };

forEachBackend('iCal import', (ctx) => {
  let server: FeedServer;
  let org: string;
  before(async () => {
    server = await startFeedServer();
    org = (await createOrganization(ctx.db, 'Import Org')).id;
  });
  after(async () => server.close());

  it('mirrors an Airbnb feed: creates, leaves unchanged ones alone, updates, cancels vanished, revives', async () => {
    const product = await createProduct(ctx.db, org);
    const calendar = await createCalendar(ctx.db, org, product.id, server.url('/airbnb.ics'), { name: 'Airbnb' });
    server.set('/airbnb.ics', airbnbFeed([airbnbReservation('r1', 5, 10), airbnbBlock('b1', 20, 27), airbnbReservation('r2', 40, 44)]));

    const first = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.equal(first.status, 'ok');
    assert.deepEqual([first.created, first.updated, first.cancelled], [3, 0, 0]);
    let events = await importedEvents(ctx.db, calendar);
    assert.deepEqual(events.map((e) => [e.uid, e.start_date, e.end_date, e.status, e.type, e.origin, e.title]), [
      ['r1@airbnb.com', day(5), day(10), 'CONFIRMED', 'blocked period', 'ical', 'Reserved'],
      ['b1@airbnb.com', day(20), day(27), 'CONFIRMED', 'blocked period', 'ical', 'Airbnb (Not available)'],
      ['r2@airbnb.com', day(40), day(44), 'CONFIRMED', 'blocked period', 'ical', 'Reserved'],
    ]);
    let state = await calendarState(ctx.db, calendar);
    assert.equal(state.error, null);
    assert.equal(state.tld, '127.0.0.1');
    assert.ok(state.last_synced && state.updated_at);
    const firstUpdatedAt = state.updated_at;
    const firstSynced = state.last_synced;

    // Same feed again: nothing changes, last_synced moves, updated_at does not.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.deepEqual([second.status, second.created, second.updated, second.cancelled], ['ok', 0, 0, 0]);
    state = await calendarState(ctx.db, calendar);
    assert.equal(state.updated_at, firstUpdatedAt);
    assert.notEqual(state.last_synced, firstSynced);

    // r1 is extended by two nights, b1 vanishes, r2 stays.
    server.set('/airbnb.ics', airbnbFeed([airbnbReservation('r1', 5, 12), airbnbReservation('r2', 40, 44)]));
    const third = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.deepEqual([third.status, third.created, third.updated, third.cancelled], ['ok', 0, 1, 1]);
    events = await importedEvents(ctx.db, calendar);
    assert.deepEqual(events.map((e) => [e.uid, e.start_date, e.end_date, e.status]), [
      ['r1@airbnb.com', day(5), day(12), 'CONFIRMED'],
      ['b1@airbnb.com', day(20), day(27), 'CANCELLED'],
      ['r2@airbnb.com', day(40), day(44), 'CONFIRMED'],
    ]);
    state = await calendarState(ctx.db, calendar);
    assert.notEqual(state.updated_at, firstUpdatedAt);

    // b1 comes back: the same row is confirmed again (never a second row for one UID).
    server.set('/airbnb.ics', airbnbFeed([airbnbReservation('r1', 5, 12), airbnbBlock('b1', 20, 27), airbnbReservation('r2', 40, 44)]));
    const fourth = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.deepEqual([fourth.created, fourth.updated, fourth.cancelled], [0, 1, 0]);
    events = await importedEvents(ctx.db, calendar);
    assert.equal(events.length, 3);
    assert.equal(events.find((e) => e.uid === 'b1@airbnb.com')!.status, 'CONFIRMED');

    // The log has one import row per sync.
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM api.product_calendar_logs WHERE external_calendar_id = $1 AND kind = 'import'`, [calendar]);
    assert.equal(rows[0]!.n, 4);
  });

  // Related units share availability (docs/booking.md): a feed of a room meets the stay of the whole villa.
  it('a feed event of a room overlapping a booking of its parent unit is a conflict, the rest synced', async () => {
    const villa = await createProduct(ctx.db, org, 'Whole Villa');
    const room = await createProduct(ctx.db, org, 'Villa Room 1', { parent_id: villa.id });
    const booking = await createBooking(ctx.db, org, villa.id, day(10), day(14));
    const calendar = await createCalendar(ctx.db, org, room.id, server.url('/room.ics'), { name: 'Booking.com' });
    server.set('/room.ics', bookingComFeed([{ uid: 'free', start: 2, end: 5 }, { uid: 'clash-parent', start: 12, end: 16 }]));

    const report = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.equal(report.status, 'conflicts');
    assert.equal(report.created, 1);
    assert.deepEqual(report.conflicts.map((c) => c.uid), ['clash-parent@booking.com']);
    const state = await calendarState(ctx.db, calendar);
    assert.match(state.error!, /clash-parent@booking\.com/);
    assert.deepEqual((await importedEvents(ctx.db, calendar)).map((e) => e.uid), ['free@booking.com']);
    const { rows } = await ctx.db.query<{ status: string }>('SELECT status FROM api.calendar_events WHERE id = $1', [booking.eventId]);
    assert.equal(rows[0]!.status, 'CONFIRMED', "the villa's booking is untouched");
  });

  it('a feed event overlapping a direct booking does not overwrite it: conflict in error, the rest synced', async () => {
    const product = await createProduct(ctx.db, org, 'Harbour Loft');
    const booking = await createBooking(ctx.db, org, product.id, day(10), day(14));
    const calendar = await createCalendar(ctx.db, org, product.id, server.url('/booking-com.ics'), { name: 'Booking.com' });
    server.set('/booking-com.ics', bookingComFeed([{ uid: 'ok1', start: 2, end: 5 }, { uid: 'clash', start: 12, end: 16 }, { uid: 'ok2', start: 20, end: 23 }]));

    const report = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.equal(report.status, 'conflicts');
    assert.equal(report.created, 2);
    assert.deepEqual(report.conflicts.map((c) => c.uid), ['clash@booking.com']);
    const state = await calendarState(ctx.db, calendar);
    assert.match(state.error!, /clash@booking\.com/);
    assert.match(state.error!, new RegExp(`booking ${booking.reference}`));
    assert.ok(state.last_synced, 'a sync with conflicts still finished');
    const events = await importedEvents(ctx.db, calendar);
    assert.deepEqual(events.map((e) => e.uid), ['ok1@booking.com', 'ok2@booking.com']);
    // The booking is untouched.
    const { rows } = await ctx.db.query<{ start_date: string; end_date: string; status: string }>(
      'SELECT start_date::text AS start_date, end_date::text AS end_date, status FROM api.calendar_events WHERE id = $1', [booking.eventId]);
    assert.deepEqual(rows[0], { start_date: day(10), end_date: day(14), status: 'CONFIRMED' });

    // An imported event that moves onto an owner block keeps its old dates; the conflict is reported.
    await createBlock(ctx.db, org, product.id, day(30), day(33));
    server.set('/booking-com.ics', bookingComFeed([{ uid: 'ok1', start: 2, end: 5 }, { uid: 'ok2', start: 29, end: 31 }]));
    const moved = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.equal(moved.status, 'conflicts');
    assert.match(moved.error!, /ok2@booking\.com.*overlaps a blocked period \(origin api\)/);
    const after = await importedEvents(ctx.db, calendar);
    assert.deepEqual(after.filter((e) => e.status !== 'CANCELLED').map((e) => [e.uid, e.start_date, e.end_date]), [
      ['ok1@booking.com', day(2), day(5)],
      ['ok2@booking.com', day(20), day(23)],
    ]);

    // Once the booking is cancelled, the clashing event comes in; a clean sync clears error.
    await ctx.db.query(`UPDATE api.calendar_events SET status = 'CANCELLED' WHERE id = $1`, [booking.eventId]);
    server.set('/booking-com.ics', bookingComFeed([{ uid: 'ok1', start: 2, end: 5 }, { uid: 'clash', start: 12, end: 16 }, { uid: 'ok2', start: 20, end: 23 }]));
    const clean = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.deepEqual([clean.status, clean.created, clean.error], ['ok', 1, null]);
    assert.equal((await calendarState(ctx.db, calendar)).error, null);
  });

  it('events of one feed may swap into each other\'s dates in one sync', async () => {
    const product = await createProduct(ctx.db, org, 'Swap Cottage');
    const calendar = await createCalendar(ctx.db, org, product.id, server.url('/swap.ics'));
    server.set('/swap.ics', vrboFeed([{ uid: 'a', start: 10, end: 12, name: 'A' }, { uid: 'b', start: 12, end: 14, name: 'B' }]));
    await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    // a moves to where b was, b moves later: in feed order a is tried first and must wait for b.
    server.set('/swap.ics', vrboFeed([{ uid: 'a', start: 12, end: 14, name: 'A' }, { uid: 'b', start: 14, end: 16, name: 'B' }]));
    const report = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.deepEqual([report.status, report.updated], ['ok', 2]);
    assert.deepEqual((await importedEvents(ctx.db, calendar)).map((e) => [e.uid, e.start_date, e.end_date]), [
      ['a', day(12), day(14)],
      ['b', day(14), day(16)],
    ]);
  });

  it('timed events with TZID and time_offset become dates of the unit; update_fields limits what is overwritten', async () => {
    const product = await createProduct(ctx.db, org, 'Timed Villa');
    const calendar = await createCalendar(ctx.db, org, product.id, server.url('/timed.ics'),
      { time_offset: -180, update_fields: '{start_date,end_date,status,title}' });
    const feed = (summary: string, description: string) => timedFeed([
      'BEGIN:VEVENT', 'UID:t1', `DTSTART:${ical(10)}T230000Z`, `DTEND:${ical(13)}T230000Z`, `SUMMARY:${summary}`, `DESCRIPTION:${description}`, 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:t2', `DTSTART;TZID=Europe/Amsterdam:${ical(20)}T150000`, `DTEND;TZID=Europe/Amsterdam:${ical(22)}T110000`, 'END:VEVENT',
    ]);
    server.set('/timed.ics', feed('Guest One', 'first'));
    await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    let events = await importedEvents(ctx.db, calendar);
    assert.deepEqual(events.map((e) => [e.uid, e.start_date, e.end_date, e.title, e.notes]), [
      ['t1', day(10), day(13), 'Guest One', 'first'],
      ['t2', day(20), day(22), '', ''],
    ]);
    server.set('/timed.ics', feed('Guest Renamed', 'second'));
    await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    events = await importedEvents(ctx.db, calendar);
    assert.deepEqual([events[0]!.title, events[0]!.notes], ['Guest Renamed', 'first'], 'notes is not in update_fields');
  });

  it('recurring events, cancelled events and webcal URLs', async () => {
    const product = await createProduct(ctx.db, org, 'Recurring Barn');
    const calendar = await createCalendar(ctx.db, org, product.id, server.url('/recurring.ics'));
    server.set('/recurring.ics', crlf([
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN',
      'BEGIN:VEVENT', 'UID:weekly@owner', `DTSTART;VALUE=DATE:${ical(3)}`, `DTEND;VALUE=DATE:${ical(4)}`, 'RRULE:FREQ=WEEKLY;COUNT=3', 'SUMMARY:Maintenance', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:cancelled@owner', `DTSTART;VALUE=DATE:${ical(30)}`, `DTEND;VALUE=DATE:${ical(32)}`, 'STATUS:CANCELLED', 'END:VEVENT',
      'END:VCALENDAR',
    ]));
    const report = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.equal(report.created, 3);
    assert.deepEqual((await importedEvents(ctx.db, calendar)).map((e) => [e.start_date, e.end_date]), [
      [day(3), day(4)], [day(10), day(11)], [day(17), day(18)],
    ]);
  });

  it('hostile feeds set error and change nothing', async () => {
    const product = await createProduct(ctx.db, org, 'Hostile House');
    const calendar = await createCalendar(ctx.db, org, product.id, server.url('/hostile.ics'));
    server.set('/hostile.ics', airbnbFeed([airbnbReservation('keep', 5, 9)]));
    await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    const before = await calendarState(ctx.db, calendar);
    const eventsBefore = await importedEvents(ctx.db, calendar);
    assert.equal(eventsBefore.length, 1);

    const cases: [string, Parameters<FeedServer['set']>[1], RegExp][] = [
      ['html', { body: '<!DOCTYPE html><html><head><title>Sign in</title></head><body>Please log in</body></html>', headers: { 'content-type': 'text/html' } }, /not an iCalendar feed/],
      ['garbage', { body: Buffer.from([0, 1, 2, 3, 255, 254]) }, /not an iCalendar feed/],
      ['truncated', { body: airbnbFeed([airbnbReservation('keep', 5, 9)]).slice(0, 150) }, /malformed|never closed/],
      ['empty-vcalendar-wrong', { body: 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART;VALUE=DATE:2026-99-99\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' }, /invalid date/],
      ['huge', { body: 'BEGIN:VCALENDAR\r\n' + 'X-PAD:'.padEnd(1000, 'x').concat('\r\n').repeat(1200) + 'END:VCALENDAR\r\n' }, /too_large|larger than/],
      ['not-found', { status: 404, body: 'no' }, /HTTP 404/],
      ['redirect', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' }, body: '' }, /HTTP 302.*redirects are not followed/],
      ['slow', { delayMs: 1500, body: airbnbFeed([]) }, /timeout/],
    ];
    for (const [name, route, expected] of cases) {
      server.set('/hostile.ics', route);
      const report = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, { allowPrivate: true, timeoutMs: 500 });
      assert.equal(report.status, 'failed', name);
      assert.match(report.error!, expected, name);
      const state = await calendarState(ctx.db, calendar);
      assert.match(state.error!, expected, name);
      assert.equal(state.last_synced, before.last_synced, `${name}: last_synced unchanged`);
      assert.equal(state.updated_at, before.updated_at, `${name}: updated_at unchanged`);
      assert.deepEqual(await importedEvents(ctx.db, calendar), eventsBefore, `${name}: events unchanged`);
    }

    // A loopback address when private targets are not allowed: refused before anything is sent.
    server.set('/hostile.ics', airbnbFeed([]));
    const hits = server.hits('/hostile.ics');
    const refused = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, { allowPrivate: false });
    assert.equal(refused.status, 'failed');
    assert.match(refused.error!, /refused/);
    assert.equal(server.hits('/hostile.ics'), hits);
    assert.deepEqual(await importedEvents(ctx.db, calendar), eventsBefore);
    // webcal:// is fetched as https://, which the plain-HTTP test server cannot answer: a network error, nothing changed.
    const webcal = await createCalendar(ctx.db, org, product.id, server.url('/hostile.ics').replace('http://', 'webcal://'));
    const viaWebcal = await syncCalendar(ctx.db, { id: webcal, organization_id: org }, { allowPrivate: true, timeoutMs: 1000 });
    assert.equal(viaWebcal.status, 'failed');
    assert.deepEqual(await importedEvents(ctx.db, calendar), eventsBefore);

    // The failures were logged and the next good sync clears error.
    server.set('/hostile.ics', airbnbFeed([airbnbReservation('keep', 5, 9)]));
    const good = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.equal(good.status, 'ok');
    assert.equal((await calendarState(ctx.db, calendar)).error, null);
  });

  it('availability after a sync: imported blocks are unavailable, the direct booking stays booked, a conflict frees nothing', async () => {
    const product = await createProduct(ctx.db, org, 'Availability Flat');
    await fixtures(ctx.db, org).configuration(product.id, { intervals: '{[2000-01-01,2200-01-01)}' });
    await createBooking(ctx.db, org, product.id, day(3), day(5));
    const calendar = await createCalendar(ctx.db, org, product.id, server.url('/availability.ics'));
    server.set('/availability.ics', airbnbFeed([airbnbReservation('av1', 7, 9), airbnbBlock('av2', 4, 6)]));
    const report = await syncCalendar(ctx.db, { id: calendar, organization_id: org }, allow);
    assert.equal(report.status, 'conflicts');
    const [result] = await availability(ctx.db, {
      productIds: [product.id], start: day(1), end: day(11), includeDays: false, performSync: false,
      showBookedAs: 'booked', showClosedAs: 'closed', showPendingAs: 'TENTATIVE',
    }, new Date());
    assert.deepEqual(result!.intervals, [
      { start: day(1), end: day(3), status: 'available' },
      { start: day(3), end: day(5), status: 'booked' },
      { start: day(5), end: day(7), status: 'available' },
      { start: day(7), end: day(9), status: 'unavailable' },
      { start: day(9), end: day(11), status: 'available' },
    ]);
  });
});
