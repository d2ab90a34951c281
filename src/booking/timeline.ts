/**
 * A product's calendar as the availability statement returns it — what covers each date, as half-open date ranges, and
 * which configuration governs each date — turned into the response: statuses under the caller's `show_*_as` options
 * (merged into intervals), and, on request, every day with its check-in/checkout flags
 * (docs/design.md#availability-and-search). Pure functions; the ranges come from one SQL statement
 * (availability-queries.ts).
 */
import { addDays, daysBetween, weekdayIndex } from '../common/dates.js';
import type { Configuration } from './model.js';
import type { ShowOptions } from './show-options.js';
// A date and a run of dates with one status, as /availability answers them.
import type { DAY_STATUSES, Day, StatusInterval as Interval } from './answer-schemas.js';

/** A date's status as /availability answers it (answer-schemas.ts). */
export type DayStatus = (typeof DAY_STATUSES)[number];

/**
 * What covers a date, before any `show_*_as` option: the past, a confirmed or tentative booking, a blocked period,
 * cooldown padding after a stay, or nothing — then the date is open (a configuration governs it) or closed.
 */
export type Category = 'past' | 'booked' | 'tentative' | 'blocked' | 'padding' | 'open' | 'closed';

/** `[start, end)` as `YYYY-MM-DD` strings. */
export type DateRange = [start: string, end: string];

/** A configuration as availability needs it, with the dates of the window it governs. */
export interface GoverningConfiguration extends Omit<Configuration, 'long_rent_adjustments' | 'early_bird_adjustments' | 'last_minute_adjustments'> {
  /** The nightly rate of a minimum-length stay for one guest; null when the configuration has no such rate. */
  rate: number | null;
  /** The dates this configuration governs (overlaps resolved by `order`). */
  dates: DateRange[];
}

export interface ProductTimeline {
  product_id: string;
  rent_period: 'nightly' | 'daily';
  /** The product's own cooldown when rent is priced by services (it replaces the configuration's). */
  product_cooldown: number | null;
  /** Today in the product's time zone. */
  today: string;
  /** Consecutive, non-overlapping ranges covering the whole window read, in date order. */
  categories: [start: string, end: string, category: Category][];
  configurations: GoverningConfiguration[];
  /** Per-date rate and minimum stay (price_calendar_entries, PriceLabs) where a date has one; closed dates are a category. */
  overrides: [date: string, rate: number | null, minDuration: number | null][];
}


export function statusOf(category: Category, show: ShowOptions): DayStatus {
  const booked = show.showBookedAs === 'booked' ? 'booked' : 'unavailable';
  switch (category) {
    case 'booked':
      return booked;
    case 'tentative':
      return show.showPendingAs === 'CONFIRMED' ? booked : 'tentative';
    case 'padding':
      return 'reserved';
    case 'open':
      return 'available';
    case 'closed':
      return show.showClosedAs === 'closed' ? 'closed' : 'unavailable';
    default: // the past, blocked periods
      return 'unavailable';
  }
}

/** The statuses of [start, end) as intervals: neighbouring ranges that show the same status become one. */
export function toIntervals(timeline: ProductTimeline, start: string, end: string, show: ShowOptions): Interval[] {
  return toStatusIntervals(timeline.categories.map(([from, to, category]) => [from, to, statusOf(category, show)]), start, end);
}

/** Ranges already labelled with their status (in date order), clipped to [start, end) and merged where they meet. */
export function toStatusIntervals(ranges: readonly [start: string, end: string, status: DayStatus][], start: string, end: string): Interval[] {
  const intervals: Interval[] = [];
  for (const [from, to, status] of ranges) {
    const clippedStart = from < start ? start : from;
    const clippedEnd = to > end ? end : to;
    if (clippedStart >= clippedEnd) continue;
    const last = intervals.at(-1);
    if (last && last.status === status && last.end === clippedStart) last.end = clippedEnd;
    else intervals.push({ start: clippedStart, end: clippedEnd, status });
  }
  return intervals;
}

const BLOCKING: ReadonlySet<Category> = new Set(['booked', 'tentative', 'blocked', 'padding']);

/**
 * Every day of [start, end) with its status and flags. The timeline must reach past `end` far enough for the
 * nights and cooldown after a check-in near the end, and start the day before `start` (the night before a checkout).
 * check_in: a stay of the minimum length may start here (weekday, advance, nights free, cooldown after it free).
 * checkout: a stay may end here (weekday of the configuration of the last night, that night free, cooldown free).
 */
export function toDays(timeline: ProductTimeline, start: string, end: string, show: ShowOptions): Day[] {
  const first = timeline.categories[0]?.[0] ?? start;
  const length = timeline.categories.length > 0 ? daysBetween(first, timeline.categories.at(-1)![1]) : 0;
  // Day i of the window is `first + i`: one array per fact, filled range by range.
  const category: Category[] = new Array<Category>(length).fill('closed');
  for (const [from, to, value] of timeline.categories) category.fill(value, daysBetween(first, from), daysBetween(first, to));
  const configuration: (GoverningConfiguration | undefined)[] = new Array(length);
  for (const governing of timeline.configurations) {
    for (const [from, to] of governing.dates) configuration.fill(governing, daysBetween(first, from), daysBetween(first, to));
  }

  const override = new Map(timeline.overrides.map(([date, rate, minDuration]) => [daysBetween(first, date), { rate, minDuration }]));
  const minDuration = (i: number): number | null => override.get(i)?.minDuration ?? configuration[i]?.min_duration ?? null;

  const free = (i: number): boolean => category[i] === 'open';
  const unblocked = (from: number, days: number): boolean => {
    for (let i = from; i < from + days && i < length; i += 1) if (BLOCKING.has(category[i]!)) return false;
    return true;
  };
  const cooldown = (i: number): number => timeline.product_cooldown ?? configuration[i]?.cooldown_time ?? 0;

  const days: Day[] = [];
  for (let i = Math.max(0, daysBetween(first, start)); i < Math.min(length, daysBetween(first, end)); i += 1) {
    const date = addDays(first, i);
    const weekday = weekdayIndex(date);
    // A date closed by its override has no configuration, as one no configuration governs.
    const governing = category[i] === 'closed' ? undefined : configuration[i];
    let checkIn = false;
    if (governing && free(i) && governing.check_in_days[weekday]) {
      const advance = daysBetween(timeline.today, date);
      const nights = Math.max(minDuration(i) ?? governing.min_duration, 1);
      checkIn = advance >= governing.min_advance && (!governing.max_advance || advance <= governing.max_advance);
      for (let night = 0; checkIn && night < nights; night += 1) checkIn = free(i + night);
      checkIn &&= unblocked(i + nights, cooldown(i));
    }
    let checkout: boolean;
    if (timeline.rent_period === 'nightly') {
      checkout = i > 0 && free(i - 1) && Boolean(configuration[i - 1]?.checkout_days[weekday]) && unblocked(i, cooldown(i - 1));
    } else {
      checkout = free(i) && Boolean(governing?.checkout_days[weekday]) && unblocked(i + 1, cooldown(i));
    }
    days.push({
      date, status: statusOf(category[i]!, show), check_in: checkIn, checkout,
      min_duration: governing ? minDuration(i) : null, max_duration: governing?.max_duration ?? null,
      rate: governing ? (override.get(i)?.rate ?? governing.rate) : null,
    });
  }
  return days;
}
