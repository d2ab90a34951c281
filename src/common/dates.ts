/**
 * Calendar dates as `YYYY-MM-DD` strings, computed in UTC so no local time zone or DST can shift a day: the booking
 * flow's nights and the calendar import's all-day events. "Today" is always today in a given time zone (a product's
 * or a calendar's, docs/design.md#booking-conventions), at an instant the caller may inject.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** True for a real calendar date in `YYYY-MM-DD` form (2026-02-30 is not) in the years 1900–2199. */
export function isDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE.exec(value);
  if (!match || Number(match[1]) < 1900 || Number(match[1]) > 2199) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** Parsed dates, memoized: the booking flow does date arithmetic per product and night, on few distinct dates. */
const parsed = new Map<string, number>();
const MAX_PARSED = 100_000;

function toMs(date: string): number {
  let ms = parsed.get(date);
  if (ms === undefined) {
    ms = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(date, ms);
  }
  return ms;
}

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** `date` plus `days` (minus, when negative). */
export function addDays(date: string, days: number): string {
  const next = new Date(toMs(date) + days * DAY_MS);
  return `${String(next.getUTCFullYear()).padStart(4, '0')}-${twoDigits(next.getUTCMonth() + 1)}-${twoDigits(next.getUTCDate())}`;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toMs(to) - toMs(from)) / DAY_MS);
}

/** 0 = Monday … 6 = Sunday, the index into check_in_days / checkout_days. */
export function weekdayIndex(date: string): number {
  return (new Date(toMs(date)).getUTCDay() + 6) % 7;
}

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today's date in `timeZone` at the instant `now`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(now);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
