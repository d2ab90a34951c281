/**
 * The availability statement's row (availability-queries.ts) as the timeline timeline.ts reads: each category comes
 * as a date multirange in PostgreSQL's text form, `{[2027-03-01,2027-03-05),[2027-03-09,2027-03-10)}`, and the
 * timeline wants one list of `[start, end, category]` in date order.
 */
import { CATEGORY_COLUMNS } from './availability-queries.js';
import type { DateRange, ProductTimeline } from './timeline.js';

export type AvailabilityRow = Omit<ProductTimeline, 'categories'> & Record<(typeof CATEGORY_COLUMNS)[number], string>;

const RANGE = /\[([^,]+),([^)]+)\)/g;

/** A date multirange's text as its ranges (daterange is canonical: `[start, end)`, never unbounded here). */
export function parseDateMultirange(text: string): DateRange[] {
  return Array.from(text.matchAll(RANGE), (match) => [match[1]!, match[2]!] as DateRange);
}

export function toTimeline(row: AvailabilityRow): ProductTimeline {
  const categories: ProductTimeline['categories'] = [];
  for (const category of CATEGORY_COLUMNS) {
    for (const [start, end] of parseDateMultirange(row[category])) categories.push([start, end, category]);
  }
  // The categories are disjoint: ordering by start orders them by date.
  categories.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    product_id: row.product_id, rent_period: row.rent_period, product_cooldown: row.product_cooldown, today: row.today,
    categories, configurations: row.configurations, overrides: row.overrides,
  };
}
