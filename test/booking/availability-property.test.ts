/**
 * /v1/availability against a day-by-day reference: random configurations (overlapping, by order), random events
 * (bookings confirmed or tentative, blocked periods, padding, cancelled events and notes), random show options and
 * windows around "today". The API computes with date ranges in SQL; the reference walks every date, so a wrong
 * boundary, precedence or flag shows up as a differing day.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { fuzzParameters } from '../fuzz/arbitraries.js';
import { createOrganization } from '../support/app.js';
import { addDays, daysBetween, weekdayIndex } from '../../src/common/dates.js';
import { client, startBookingApp, NOW } from './support.js';
import { fixtures } from '../support/fixtures.js';

const TODAY = '2027-03-01'; // NOW in Europe/Amsterdam
const BASE = '2027-02-10';

interface ConfigurationCase {
  ranges: [number, number][]; // day offsets from BASE, [from, to)
  order: number;
  checkIn: boolean[];
  checkout: boolean[];
  minDuration: number;
  maxDuration: number;
  minAdvance: number;
  maxAdvance: number;
  cooldown: number;
  rate: number;
}

interface EventCase {
  start: number;
  nights: number;
  padding: number;
  type: 'booking' | 'blocked period' | 'note';
  status: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';
}

interface Case {
  configurations: ConfigurationCase[];
  events: EventCase[];
  start: number;
  days: number;
  showBookedAs: 'booked' | 'unavailable';
  showClosedAs: 'closed' | 'unavailable';
  showPendingAs: 'CANCELLED' | 'TENTATIVE' | 'CONFIRMED';
}

const week = fc.array(fc.boolean(), { minLength: 7, maxLength: 7 });
const configuration = fc.record({
  ranges: fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 40 })).map(([from, length]) => [from, from + length] as [number, number]), { minLength: 1, maxLength: 2 }),
  order: fc.integer({ min: 0, max: 1000 }),
  checkIn: week,
  checkout: week,
  minDuration: fc.integer({ min: 1, max: 4 }),
  maxDuration: fc.constantFrom(0, 6, 10),
  minAdvance: fc.integer({ min: 0, max: 5 }),
  maxAdvance: fc.constantFrom(0, 20, 40),
  cooldown: fc.integer({ min: 0, max: 3 }),
  rate: fc.integer({ min: 1000, max: 50_000 }),
});
/** Blocking events laid out one after another (the no-overlap constraint counts padding); notes and cancelled anywhere. */
const events = fc.array(fc.record({
  gap: fc.integer({ min: 0, max: 6 }),
  nights: fc.integer({ min: 1, max: 5 }),
  padding: fc.integer({ min: 0, max: 2 }),
  kind: fc.constantFrom('confirmed', 'tentative', 'blocked', 'cancelled', 'note'),
}), { maxLength: 14 }).map((list) => {
  let cursor = 0;
  return list.map(({ gap, nights, padding, kind }): EventCase => {
    const start = cursor + gap;
    const blocking = kind === 'confirmed' || kind === 'tentative' || kind === 'blocked';
    if (blocking) cursor = start + nights + padding;
    return {
      start, nights, padding: blocking ? padding : 0,
      type: kind === 'blocked' ? 'blocked period' : kind === 'note' ? 'note' : 'booking',
      status: kind === 'tentative' ? 'TENTATIVE' : kind === 'cancelled' ? 'CANCELLED' : 'CONFIRMED',
    };
  });
});
const testCase: fc.Arbitrary<Case> = fc.record({
  configurations: fc.uniqueArray(configuration, { maxLength: 3, selector: (c) => c.order }),
  events,
  start: fc.integer({ min: 0, max: 40 }),
  days: fc.integer({ min: 1, max: 50 }),
  showBookedAs: fc.constantFrom('booked', 'unavailable'),
  showClosedAs: fc.constantFrom('closed', 'unavailable'),
  showPendingAs: fc.constantFrom('CANCELLED', 'TENTATIVE', 'CONFIRMED'),
});

/** The day-by-day reading of the stay rules and show options (docs/design.md#stay-rules) for one date. */
function reference(c: Case) {
  const date = (offset: number) => addDays(BASE, offset);
  const governing = (d: string) => [...c.configurations].sort((a, b) => b.order - a.order)
    .find((cfg) => cfg.ranges.some(([from, to]) => d >= date(from) && d < date(to)));
  const blocking = c.events.filter((e) => e.type !== 'note' && e.status !== 'CANCELLED'
    && !(c.showPendingAs === 'CANCELLED' && e.type === 'booking' && e.status === 'TENTATIVE'));
  const blockOf = (d: string) => {
    for (const e of blocking) {
      if (d >= date(e.start) && d < date(e.start + e.nights)) return e.type === 'blocked period' ? 'blocked' : e.status === 'TENTATIVE' ? 'tentative' : 'booked';
      if (d >= date(e.start + e.nights) && d < date(e.start + e.nights + e.padding)) return 'padding';
    }
    return null;
  };
  const booked = c.showBookedAs === 'booked' ? 'booked' : 'unavailable';
  const statusOf = (d: string): string => {
    if (d < TODAY) return 'unavailable';
    switch (blockOf(d)) {
      case 'booked': return booked;
      case 'tentative': return c.showPendingAs === 'CONFIRMED' ? booked : 'tentative';
      case 'blocked': return 'unavailable';
      case 'padding': return 'reserved';
      default: return governing(d) ? 'available' : c.showClosedAs === 'closed' ? 'closed' : 'unavailable';
    }
  };
  const free = (d: string) => d >= TODAY && governing(d) !== undefined && blockOf(d) === null;
  const unblocked = (from: string, days: number) => Array.from({ length: days }, (_, i) => addDays(from, i)).every((d) => blockOf(d) === null);
  const day = (d: string) => {
    const cfg = governing(d);
    const weekday = weekdayIndex(d);
    let checkIn = false;
    if (cfg && free(d) && cfg.checkIn[weekday]) {
      const advance = daysBetween(TODAY, d);
      const nights = cfg.minDuration;
      checkIn = advance >= cfg.minAdvance && (!cfg.maxAdvance || advance <= cfg.maxAdvance)
        && Array.from({ length: nights }, (_, i) => addDays(d, i)).every(free) && unblocked(addDays(d, nights), cfg.cooldown);
    }
    const last = addDays(d, -1);
    const lastCfg = governing(last);
    const checkout = free(last) && Boolean(lastCfg?.checkout[weekday]) && unblocked(d, lastCfg?.cooldown ?? 0);
    return {
      date: d, status: statusOf(d), check_in: checkIn, checkout,
      min_duration: cfg?.minDuration ?? null, max_duration: cfg?.maxDuration ?? null, rate: cfg?.rate ?? null,
    };
  };
  const days = Array.from({ length: c.days }, (_, i) => day(date(c.start + i)));
  const intervals: { start: string; end: string; status: string }[] = [];
  for (const d of days) {
    const lastInterval = intervals.at(-1);
    if (lastInterval?.status === d.status) lastInterval.end = addDays(d.date, 1);
    else intervals.push({ start: d.date, end: addDays(d.date, 1), status: d.status });
  }
  return { intervals, days };
}

forEachBackend('GET /v1/availability matches a day-by-day reference', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let f: ReturnType<typeof fixtures>;

  before(async () => {
    app = await startBookingApp(ctx.db);
    const org = await createOrganization(ctx.db, 'Availability property');
    api = client(app, org.key);
    f = fixtures(ctx.db, org.id);
  });
  after(() => app.close());

  it('for random calendars, windows and show options (intervals and days)', async () => {
    assert.equal(NOW.toISOString().slice(0, 10), TODAY);
    await fc.assert(fc.asyncProperty(testCase, async (c) => {
      const product = await f.product();
      for (const cfg of c.configurations) {
        await f.configuration(product, {
          intervals: `{${cfg.ranges.map(([from, to]) => `[${addDays(BASE, from)},${addDays(BASE, to)})`).join(',')}}`,
          order: cfg.order, check_in_days: cfg.checkIn, checkout_days: cfg.checkout, min_duration: cfg.minDuration,
          max_duration: cfg.maxDuration, min_advance: cfg.minAdvance, max_advance: cfg.maxAdvance, cooldown_time: cfg.cooldown,
          rates: [{ duration: 1, occupancy: 1, rate: cfg.rate }],
        });
      }
      for (const e of c.events) {
        await f.event(product, {
          start_date: addDays(BASE, e.start), end_date: addDays(BASE, e.start + e.nights), padding: e.padding, type: e.type, status: e.status,
        });
      }
      const start = addDays(BASE, c.start);
      const response = await api.get(`/v1/availability?product_ids=${product}&start=${start}&end=${addDays(start, c.days)}`
        + `&include=days&show_booked_as=${c.showBookedAs}&show_closed_as=${c.showClosedAs}&show_pending_as=${c.showPendingAs}`);
      assert.equal(response.statusCode, 200, response.body);
      const [result] = response.json() as { intervals: unknown[]; days: unknown[] }[];
      assert.deepEqual(result, { product_id: product, ...reference(c) });
    }), fuzzParameters(40));
  });
});
