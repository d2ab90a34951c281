/**
 * A season's dates as the Seasons page edits them: `seasons.intervals` is a `datemultirange` of `[first, end)` ranges
 * (end: the day after the last), while a person picks the first and the last day.
 */
import { dateRanges } from '../units/intervals';
import { addDays } from '../common/dates';

export interface Period {
  first: string;
  last: string;
}

export const periodsOf = (intervals: string): Period[] =>
  dateRanges(intervals).map(({ start, end }) => ({ first: start, last: addDays(end, -1) }));

/** The multirange literal of `periods`; PostgreSQL merges the ones that touch or overlap. */
export const intervalsOf = (periods: readonly Period[]): string =>
  `{${periods.map(({ first, last }) => `[${first},${addDays(last, 1)})`).join(',')}}`;
