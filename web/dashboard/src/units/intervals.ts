/** Helpers of the units pages: date multiranges, currency decimals, the weekday of a date in stay rules' order. */
/** A `datemultirange` as PostgreSQL writes it (`{[2026-07-01,2026-09-01),…}`) → its `[start, end)` ranges. */
export function dateRanges(multirange: string): { start: string; end: string }[] {
  return [...multirange.matchAll(/\[(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2})\)/g)].map((match) => ({ start: match[1]!, end: match[2]! }));
}

/** Minor units ↔ the amount a person types, by the currency's decimals (EUR: 2, JPY: 0). */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** A date's weekday in the order of a configuration's `check_in_days`/`checkout_days` masks: 0 = Monday. */
export const weekdayIndex = (isoDate: string) => (new Date(`${isoDate}T00:00:00Z`).getUTCDay() + 6) % 7;
