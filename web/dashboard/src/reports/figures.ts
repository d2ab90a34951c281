/**
 * The reports page's figures, made from the rows of /v1/report_unit_months (docs/reports.md) the way that page
 * documents: occupancy and ADR of several units or months are sums of nights and rent divided, never averages of
 * the units' own figures. Money is added up only within one currency: units priced in another are left out of the
 * summed amounts (their nights still count) and shown on their own in the per-unit table. No imports but types, so
 * Node's test runner loads it too (test/dashboard/report-figures.test.ts).
 */

/** The columns of a unit's month that the page reads (queries.ts selects exactly these). */
export interface UnitMonth {
  product_id: string | null;
  month: string | null;
  currency: string | null;
  available_nights: number | null;
  booked_nights: number | null;
  revenue: number | null;
  bookings: number | null;
  bookings_api: number | null;
  bookings_dashboard: number | null;
  bookings_site: number | null;
  bookings_widget: number | null;
  bookings_import: number | null;
}

/** Nights and rent of some units and months, summed. */
export interface Totals {
  bookedNights: number;
  availableNights: number;
  bookings: number;
  /** Rent in minor units of the totals' currency, and the booked nights of the units in that currency. */
  revenue: number;
  pricedNights: number;
}

export interface Figures extends Totals {
  /** booked / available nights, 0 to 1; null when nothing was available. */
  occupancy: number | null;
  /** Rent per booked night in minor units, rounded; null without booked nights. */
  adr: number | null;
}

const NO_TOTALS: Totals = { bookedNights: 0, availableNights: 0, bookings: 0, revenue: 0, pricedNights: 0 };

function addRow(totals: Totals, row: UnitMonth, currency: string): Totals {
  const priced = row.currency === currency;
  return {
    bookedNights: totals.bookedNights + (row.booked_nights ?? 0),
    availableNights: totals.availableNights + (row.available_nights ?? 0),
    bookings: totals.bookings + (row.bookings ?? 0),
    revenue: totals.revenue + (priced ? row.revenue ?? 0 : 0),
    pricedNights: totals.pricedNights + (priced ? row.booked_nights ?? 0 : 0),
  };
}

export function figuresOf(rows: readonly UnitMonth[], currency: string): Figures {
  const totals = rows.reduce((sum, row) => addRow(sum, row, currency), NO_TOTALS);
  return {
    ...totals,
    occupancy: totals.availableNights > 0 ? totals.bookedNights / totals.availableNights : null,
    adr: totals.pricedNights > 0 ? Math.round(totals.revenue / totals.pricedNights) : null,
  };
}

/** The currency the summed amounts are in: `preferred` (the organization's) when a unit uses it, else the most used. */
export function totalsCurrency(rows: readonly UnitMonth[], preferred: string): string {
  const used = new Map<string, number>();
  for (const row of rows) if (row.currency) used.set(row.currency, (used.get(row.currency) ?? 0) + 1);
  if (used.size === 0 || used.has(preferred)) return preferred;
  return [...used.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

/** `YYYY-MM-01` twelve months earlier. */
export function yearBefore(month: string): string {
  return `${Number(month.slice(0, 4)) - 1}${month.slice(4)}`;
}

export interface MonthComparison {
  month: string;
  current: Figures;
  lastYear: Figures;
}

/** Each of `months`, its figures and those of the same month a year earlier (`lastYearRows`). */
export function compareMonths(months: readonly string[], rows: readonly UnitMonth[], lastYearRows: readonly UnitMonth[], currency: string): MonthComparison[] {
  return months.map((month) => ({
    month,
    current: figuresOf(rows.filter((row) => row.month === month), currency),
    lastYear: figuresOf(lastYearRows.filter((row) => row.month === yearBefore(month)), currency),
  }));
}

export interface UnitComparison {
  productId: string;
  /** The unit's own currency: its amounts are in it. */
  currency: string;
  current: Figures;
  lastYear: Figures;
}

/** Each unit with rows in the period, its figures over the period and over the same months a year earlier. */
export function compareUnits(rows: readonly UnitMonth[], lastYearRows: readonly UnitMonth[]): UnitComparison[] {
  const units = [...new Map(rows.map((row) => [row.product_id!, row.currency ?? ''])).entries()];
  return units.map(([productId, currency]) => ({
    productId,
    currency,
    current: figuresOf(rows.filter((row) => row.product_id === productId), currency),
    lastYear: figuresOf(lastYearRows.filter((row) => row.product_id === productId), currency),
  }));
}

/**
 * Where bookings come from (the `bookings_<source>` columns, docs/reports.md), in the order the page lists them; the
 * page names each in the reader's language (./messages.ts, `sources`).
 */
type SourceOf<Column> = Column extends `bookings_${infer Source}` ? Source : never;

export const SOURCES = ['dashboard', 'widget', 'site', 'import', 'api'] as const satisfies readonly SourceOf<keyof UnitMonth>[];

export type Source = (typeof SOURCES)[number];

export interface SourceShare {
  source: Source;
  bookings: number;
}

/** The period's arriving bookings by source. */
export function channelMix(rows: readonly UnitMonth[]): SourceShare[] {
  return SOURCES.map((source) => ({ source, bookings: rows.reduce((sum, row) => sum + (row[`bookings_${source}`] ?? 0), 0) }));
}

/** A unit's nights of a month of stay booked on one day (/v1/report_unit_pickup). */
export interface PickupRow {
  month: string | null;
  booked_on: string | null;
  booked_nights: number | null;
}

export interface PickupPoint {
  /** Days from the booking day to the month's first day (negative: booked during the month). */
  daysBefore: number;
  /** Nights booked up to and including that day over the month's available nights, 0 to 1. */
  onTheBooks: number;
}

const DAY_MS = 86_400_000;

/**
 * The pickup curve of `month`: its share of `availableNights` on the books as the bookings came in, a point per
 * booking day, and one for `today` (what is on the books now) when it is later.
 */
export function pickupCurve(rows: readonly PickupRow[], month: string, availableNights: number, today: string): PickupPoint[] {
  if (availableNights <= 0) return [];
  const byDay = new Map<string, number>();
  for (const row of rows) {
    if (row.month === month && row.booked_on) byDay.set(row.booked_on, (byDay.get(row.booked_on) ?? 0) + (row.booked_nights ?? 0));
  }
  const daysBefore = (day: string) => Math.round((Date.parse(month) - Date.parse(day)) / DAY_MS);
  let nights = 0;
  const points = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, booked]) => {
    nights += booked;
    return { daysBefore: daysBefore(day), onTheBooks: nights / availableNights };
  });
  const last = points.at(-1);
  return last && daysBefore(today) < last.daysBefore ? [...points, { daysBefore: daysBefore(today), onTheBooks: last.onTheBooks }] : points;
}
