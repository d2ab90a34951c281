/**
 * GET /v1/availability: per product, the timeline of statuses as half-open intervals, and optionally every day with
 * its check-in/checkout possibility, duration limits and rate — enough to draw a date picker from one call.
 * One SQL statement (availability-queries.ts) reads what covers each date of the window (past, booking, blocked
 * period, padding, open or closed) from the availability index, and which configuration governs it; a window the
 * index does not hold is computed from the events with date multiranges instead. Statuses and day flags are
 * derived from it by pure functions (timeline.ts).
 */
import type { Queryable } from '../db/types.js';
import { addDays, daysBetween, isDate, todayIn } from '../common/dates.js';
import { invalidInput, productNotFound } from './errors.js';
import { rejectUnknownFields } from './input.js';
import { UUID } from '../common/patterns.js';
import { availabilityQuery, CATEGORY_CODES, indexedAvailabilityQuery } from './availability-queries.js';
import { run } from './queries.js';
import { parseShowOptions, type ShowOptions } from './show-options.js';
import { toDays, toIntervals, type Category, type Day, type Interval, type ProductTimeline } from './timeline.js';

export interface AvailabilityQuery extends ShowOptions {
  productIds: string[] | null;
  start: string | null;
  end: string | null;
  includeDays: boolean;
  /** Sync the products' external calendars first (bounded wait; docs/ical.md). */
  performSync: boolean;
}

export interface ProductAvailability {
  product_id: string;
  intervals: Interval[];
  days?: Day[];
}

export const MAX_RANGE_DAYS = 1100;
/** Days read past `end` so check-in flags near the end can see the nights (and cooldown) after it. */
const LOOKAHEAD_DAYS = 62;

const QUERY_PARAMETERS = [
  'product_ids', 'product_id', 'start', 'end', 'show_booked_as', 'show_closed_as', 'show_pending_as', 'include', 'perform_sync',
];

export function parseAvailabilityQuery(query: Record<string, unknown>): AvailabilityQuery {
  rejectUnknownFields(query, QUERY_PARAMETERS);
  const single = (name: string): unknown => (Array.isArray(query[name]) ? (query[name] as unknown[]).at(-1) : query[name]);
  const ids = [single('product_ids'), single('product_id')].filter((value) => value !== undefined && value !== '');
  let productIds: string[] | null = null;
  if (ids.length > 0) {
    productIds = ids.flatMap((value) => String(value).split(',')).map((id) => id.trim()).filter(Boolean);
    for (const id of productIds) if (!UUID.test(id)) throw invalidInput('product_ids must be a comma-separated list of uuids', `got "${id}"`);
    productIds = [...new Set(productIds.map((id) => id.toLowerCase()))];
    if (productIds.length > 1000) throw invalidInput('at most 1000 product_ids');
  }
  const start = single('start');
  const end = single('end');
  if (start !== undefined && !isDate(start)) throw invalidInput('start must be a date (YYYY-MM-DD)');
  if (end !== undefined && !isDate(end)) throw invalidInput('end must be a date (YYYY-MM-DD)');
  const performSync = single('perform_sync');
  if (performSync !== undefined && performSync !== 'true' && performSync !== 'false') {
    throw invalidInput('perform_sync must be true or false');
  }
  const include = single('include');
  if (include !== undefined && include !== '' && include !== 'days') throw invalidInput('include must be days');
  return {
    productIds,
    start: (start as string | undefined) ?? null,
    end: (end as string | undefined) ?? null,
    includeDays: include === 'days',
    performSync: performSync === 'true',
    ...parseShowOptions(query),
  };
}

/** A row of the index statement: the timeline's categories as one character per date (null: none indexed). */
interface IndexedTimelineRow extends Omit<ProductTimeline, 'categories'> {
  codes: string | null;
}

/** `codes` (one character per date from `first`) as consecutive `[start, end, category]` ranges. */
function categoriesOf(codes: string, first: string): ProductTimeline['categories'] {
  const categories: ProductTimeline['categories'] = [];
  let from = 0;
  for (let i = 1; i <= codes.length; i += 1) {
    if (i < codes.length && codes[i] === codes[from]) continue;
    categories.push([addDays(first, from), addDays(first, i), CATEGORY_CODES[codes[from] as keyof typeof CATEGORY_CODES] as Category]);
    from = i;
  }
  return categories;
}

/**
 * The products' timelines of [first, last]: from the availability index when it holds every date of the window for
 * every product, else computed from the events (a window past the index's horizon); `useIndex` false computes them
 * in any case.
 */
async function timelines(
  tx: Queryable, query: AvailabilityQuery, first: string, last: string, now: Date, useIndex: boolean,
): Promise<ProductTimeline[]> {
  const includeTentative = query.showPendingAs !== 'CANCELLED';
  if (useIndex) {
    const rows = await run<IndexedTimelineRow>(tx, indexedAvailabilityQuery(query.productIds, first, last, includeTentative, query.includeDays, now));
    const days = daysBetween(first, last) + 1;
    if (rows.every((row) => row.codes?.length === days)) {
      return rows.map(({ codes, ...row }) => ({ ...row, categories: categoriesOf(codes!, first) }));
    }
  }
  return run<ProductTimeline>(tx, availabilityQuery(query.productIds, first, last, includeTentative, now));
}

/** `useIndex` false: every timeline computed from the events, the availability index left aside. */
export async function availability(tx: Queryable, query: AvailabilityQuery, now: Date, useIndex = true): Promise<ProductAvailability[]> {
  const start = query.start ?? todayIn('UTC', now);
  const end = query.end ?? addDays(start, 365);
  if (end <= start) throw invalidInput('end must be after start');
  if (daysBetween(start, end) > MAX_RANGE_DAYS) throw invalidInput(`at most ${MAX_RANGE_DAYS} days per request`);
  // Intervals end at `end`; only the days' check-in flags look past it.
  const rows = await timelines(tx, query, addDays(start, -1), query.includeDays ? addDays(end, LOOKAHEAD_DAYS) : end, now, useIndex);
  const byProduct = new Map(rows.map((row) => [row.product_id, row]));
  return (query.productIds ?? rows.map((row) => row.product_id)).map((productId) => {
    const timeline = byProduct.get(productId);
    if (!timeline) throw productNotFound(productId);
    return {
      product_id: productId,
      intervals: toIntervals(timeline, start, end, query),
      ...(query.includeDays ? { days: toDays(timeline, start, end, query) } : {}),
    };
  });
}
