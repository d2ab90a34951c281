/**
 * Calendar-date (`YYYY-MM-DD`) arithmetic, in UTC so no daylight-saving day is 23 or 25 hours long. Imports carry
 * `.js` because Node's test runner loads this file too (test/dashboard/timeline-layout.test.ts).
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);

const day = (isoDate: string) => dayjs.utc(isoDate);

export const addDays = (isoDate: string, days: number) => day(isoDate).add(days, 'day').format('YYYY-MM-DD');
export const addMonths = (isoDate: string, months: number) => day(isoDate).add(months, 'month').format('YYYY-MM-DD');
export const daysBetween = (from: string, to: string) => day(to).diff(day(from), 'day');
export const monthStart = (isoDate: string) => day(isoDate).startOf('month').format('YYYY-MM-DD');
export const isWeekend = (isoDate: string) => [0, 6].includes(day(isoDate).day());

/** Every date of the month that `isoDate` is in. */
export function monthDays(isoDate: string): string[] {
  const first = monthStart(isoDate);
  const count = day(first).daysInMonth();
  return Array.from({ length: count }, (_, index) => addDays(first, index));
}

