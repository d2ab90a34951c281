/**
 * GET /v1/availability: per product, the timeline of statuses as half-open intervals, and optionally every day with
 * its check-in/checkout possibility, duration limits and rate — enough to draw a date picker from one call.
 * One SQL statement (availability-queries.ts) computes, with date multiranges, what covers each date of the window
 * (past, booking, blocked period, padding, open or closed) and which configuration governs it: its size follows the
 * number of events and configurations, not products × days. Without the days it answers with the statuses
 * themselves; the day flags are derived from it by pure functions (timeline.ts).
 */
import type { Transaction } from '../db/types.js';
import { addDays, daysBetween, todayIn } from '../common/dates.js';
import { invalidInput, productNotFound } from './errors.js';
import type { AvailabilityParameters } from './request-schemas.js';
import { AVAILABILITY_QUERY_OPTIONS, availabilityQuery, CATEGORIES } from './availability-queries.js';
import { toLabelledRanges, type AvailabilityRow } from './availability-ranges.js';
import type { ProductAvailability } from './answer-schemas.js';
import { toShowOptions, type ShowOptions } from './show-options.js';
import {
  statusOf, toDays, toIntervals, toStatusIntervals, type Category, type DayStatus, type ProductTimeline,
} from './timeline.js';

export interface AvailabilityQuery extends ShowOptions {
  productIds: string[] | null;
  start: string | null;
  end: string | null;
  includeDays: boolean;
  /** Sync the products' external calendars first (bounded wait; docs/ical.md). */
  performSync: boolean;
}

export const MAX_RANGE_DAYS = 1100;
/** At most this many products per request. */
const MAX_PRODUCTS = 1000;
/** Days read past `end` so check-in flags near the end can see the nights (and cooldown) after it. */
const LOOKAHEAD_DAYS = 62;

/** The validated query parameters → the query (the schema checked each parameter's form). */
export function parseAvailabilityQuery(parameters: AvailabilityParameters): AvailabilityQuery {
  const lists = [parameters.product_ids, parameters.product_id].filter((value): value is string => value !== undefined && value !== '');
  let productIds: string[] | null = null;
  if (lists.length > 0) {
    const ids = lists.flatMap((value) => value.split(',')).map((id) => id.trim().toLowerCase()).filter(Boolean);
    productIds = [...new Set(ids)];
    if (productIds.length > MAX_PRODUCTS) throw invalidInput(`at most ${MAX_PRODUCTS} product_ids`);
  }
  return {
    productIds,
    start: parameters.start ?? null,
    end: parameters.end ?? null,
    includeDays: parameters.include === 'days',
    performSync: parameters.perform_sync === true,
    ...toShowOptions(parameters),
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
