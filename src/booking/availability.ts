/**
 * GET /v1/availability: per product, the timeline of statuses as half-open intervals, and optionally every day with
 * its check-in/checkout possibility, duration limits and rate — enough to draw a date picker from one call.
 * One SQL statement (availability-queries.ts) computes, with date multiranges, what covers each date of the window
 * (past, booking, blocked period, padding, open or closed) and which configuration governs it: its size follows the
 * number of events and configurations, not products × days. Without the days it answers with the statuses
 * themselves; the day flags are derived from it by pure functions (timeline.ts).
 */
import type { Transaction } from '../db/types.js';
import { addDays, daysBetween, isDate, todayIn } from '../common/dates.js';
import { invalidInput, productNotFound } from './errors.js';
import { rejectUnknownFields } from './input.js';
import { UUID } from '../common/patterns.js';
import { AVAILABILITY_QUERY_OPTIONS, availabilityQuery, CATEGORIES } from './availability-queries.js';
import { toLabelledRanges, type AvailabilityRow } from './availability-ranges.js';
import { parseShowOptions, type ShowOptions } from './show-options.js';
import {
  statusOf, toDays, toIntervals, toStatusIntervals, type Category, type Day, type DayStatus, type Interval, type ProductTimeline,
} from './timeline.js';

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

/** A query parameter's value: the last one when it is given more than once. */
const lastValue = (query: Record<string, unknown>, name: string): unknown =>
  (Array.isArray(query[name]) ? (query[name] as unknown[]).at(-1) : query[name]);

/**
 * Whether the request asks to sync the units' calendars first (`perform_sync=true`): a GET that writes (it imports
 * feeds), so a dashboard session needs its CSRF token for it as for any write. Read before the query is checked.
 */
export function syncRequested(query: Record<string, unknown>): boolean {
  return lastValue(query, 'perform_sync') === 'true';
}

export function parseAvailabilityQuery(query: Record<string, unknown>): AvailabilityQuery {
  rejectUnknownFields(query, QUERY_PARAMETERS);
  const single = (name: string): unknown => lastValue(query, name);
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
    performSync: syncRequested(query),
    ...parseShowOptions(query),
  };
}

export async function availability(tx: Transaction, query: AvailabilityQuery, now: Date): Promise<ProductAvailability[]> {
  const start = query.start ?? todayIn('UTC', now);
  const end = query.end ?? addDays(start, 365);
  if (end <= start) throw invalidInput('end must be after start');
  if (daysBetween(start, end) > MAX_RANGE_DAYS) throw invalidInput(`at most ${MAX_RANGE_DAYS} days per request`);
  // The days need each date's category and the dates around the window; the intervals only the window's statuses,
  // which the statement then merges itself.
  const [first, last, labels] = query.includeDays
    ? [addDays(start, -1), addDays(end, LOOKAHEAD_DAYS), CATEGORIES]
    : [start, addDays(end, -1), CATEGORIES.map((category) => statusOf(category, query))];
  const statement = availabilityQuery(
    query.productIds, first, last, query.showPendingAs !== 'CANCELLED', now, query.includeDays, labels);
  const { rows } = await tx.query<AvailabilityRow>(statement.text, statement.values, AVAILABILITY_QUERY_OPTIONS);
  const byProduct = new Map(rows.map((row) => [row.product_id, row]));
  return (query.productIds ?? rows.map((row) => row.product_id)).map((productId) => {
    const row = byProduct.get(productId);
    if (!row) throw productNotFound(productId);
    if (!query.includeDays) {
      return { product_id: productId, intervals: toStatusIntervals(toLabelledRanges<DayStatus>(row.ranges), start, end) };
    }
    const timeline: ProductTimeline = { ...row, categories: toLabelledRanges<Category>(row.ranges) };
    return { product_id: productId, intervals: toIntervals(timeline, start, end, query), days: toDays(timeline, start, end, query) };
  });
}
