/** A `datemultirange` as PostgreSQL writes it (`{[2026-07-01,2026-09-01),…}`) → its `[start, end)` ranges. */
export function dateRanges(multirange: string): { start: string; end: string }[] {
  return [...multirange.matchAll(/\[(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2})\)/g)].map((match) => ({ start: match[1]!, end: match[2]! }));
}

/** Minor units ↔ the amount a person types, by the currency's decimals (EUR: 2, JPY: 0). */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}
