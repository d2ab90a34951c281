/**
 * The availability statement's row (availability-queries.ts) as the timeline timeline.ts reads: each category comes
 * as a date multirange in PostgreSQL's text form, `{[2027-03-01,2027-03-05),[2027-03-09,2027-03-10)}`, and the
 * timeline wants one list of `[start, end, category]` in date order.
 */
import { CATEGORY_COLUMNS } from './availability-queries.js';
import type { Category, ProductTimeline } from './timeline.js';

export type AvailabilityRow = Omit<ProductTimeline, 'categories'> & Record<(typeof CATEGORY_COLUMNS)[number], string>;

/**
 * Appends the ranges of a date multirange's text to `categories` under `category`. daterange is canonical (`[start,
 * end)`) and never unbounded here; read by position, as this runs for every range of every unit (no match objects).
 */
function appendRanges(text: string, category: Category, categories: ProductTimeline['categories']): void {
  let open = text.indexOf('[');
  while (open !== -1) {
    const comma = text.indexOf(',', open);
    const close = text.indexOf(')', comma);
    categories.push([text.slice(open + 1, comma), text.slice(comma + 1, close), category]);
    open = text.indexOf('[', close);
  }
}

export function toTimeline(row: AvailabilityRow): ProductTimeline {
  const categories: ProductTimeline['categories'] = [];
  for (const category of CATEGORY_COLUMNS) appendRanges(row[category], category, categories);
  // The categories are disjoint: ordering by start orders them by date.
  categories.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    product_id: row.product_id, rent_period: row.rent_period, product_cooldown: row.product_cooldown, today: row.today,
    categories, configurations: row.configurations, overrides: row.overrides,
  };
}
