/** Helpers of the units pages: date multiranges, currency decimals, the weekdays of stay rules, date pickers' labels. */
/** A `datemultirange` as PostgreSQL writes it (`{[2026-07-01,2026-09-01),…}`) → its `[start, end)` ranges. */
export function dateRanges(multirange: string): { start: string; end: string }[] {
  return [...multirange.matchAll(/\[(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2})\)/g)].map((match) => ({ start: match[1]!, end: match[2]! }));
}

/** Minor units ↔ the amount a person types, by the currency's decimals (EUR: 2, JPY: 0). */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** The weekdays in the order of a configuration's `check_in_days`/`checkout_days` masks: index 0 = Monday. */
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** A date's index in `WEEKDAYS`. */
export const weekdayIndex = (isoDate: string) => (new Date(`${isoDate}T00:00:00Z`).getUTCDay() + 6) % 7;

/** Names of a date picker's month buttons, which Mantine leaves unnamed (a screen reader would say "button"). */
export const PICKER_LABELS = { nextMonth: 'Next month', previousMonth: 'Previous month', nextYear: 'Next year', previousYear: 'Previous year' };
