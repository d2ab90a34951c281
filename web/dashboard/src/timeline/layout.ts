/** Where an event's bar sits in a month: pure arithmetic on calendar dates, so it is easy to reason about. */
import { addDays, daysBetween } from '../common/dates.js';

export interface BarPlacement {
  /** Index of the first visible day in the month. */
  offset: number;
  /** Visible days. */
  length: number;
  /** The stay goes on before / after the month. */
  continuesBefore: boolean;
  continuesAfter: boolean;
}

/** An event of `[start, end)` in the month `[first, first + days)`, or null when it is not in the month. */
export function placeBar(start: string, end: string, first: string, days: number): BarPlacement | null {
  const monthEnd = addDays(first, days);
  if (end <= first || start >= monthEnd) return null;
  const visibleStart = start < first ? first : start;
  const visibleEnd = end > monthEnd ? monthEnd : end;
  return {
    offset: daysBetween(first, visibleStart),
    length: daysBetween(visibleStart, visibleEnd),
    continuesBefore: start < first,
    continuesAfter: end > monthEnd,
  };
}

/** The free days a selection spans, `[start, end)`, whichever end was picked first. */
export function selectionRange(a: string, b: string): { start: string; end: string } {
  const [from, to] = a <= b ? [a, b] : [b, a];
  return { start: from, end: addDays(to, 1) };
}
