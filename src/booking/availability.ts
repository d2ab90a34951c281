/**
 * GET /v1/availability: per product, the timeline of statuses as half-open intervals, and optionally every day with
 * its check-in/checkout possibility, duration limits and rate — enough to draw a date picker from one call.
 * One SQL statement computes, with date multiranges, what covers each date of the window (past, booking, blocked
 * period, padding, open or closed) and which configuration governs it: its size follows the number of events and
 * configurations, not products × days. Statuses and day flags are derived from it by pure functions (timeline.ts).
 */
import type { Queryable } from '../db/types.js';
import { addDays, daysBetween, isDate, todayIn } from './dates.js';
import { invalidInput, productNotFound } from './errors.js';
import { UUID } from './input.js';
import { blockingEventsOf, governingConfigurations } from './queries.js';
import { parseShowOptions, type ShowOptions } from './show-options.js';
import { toDays, toIntervals, type Day, type Interval, type ProductTimeline } from './timeline.js';

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

export function parseAvailabilityQuery(query: Record<string, unknown>): AvailabilityQuery {
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

/**
 * One statement: per product, the categories of [first, last] as consecutive ranges and its governing
 * configurations. `now` fixes "today" in each product's time zone.
 */
export function availabilityQuery(productIds: string[] | null, first: string, last: string, includeTentative: boolean, now: Date) {
  return {
    text: `WITH p AS (
  SELECT id, created_at, rent_period, today,
    CASE WHEN rent_pricing_definition = 'services' THEN cooldown_time END AS product_cooldown,
    CASE WHEN today <= $3::date THEN daterange(greatest($2::date, today), $3::date, '[]') ELSE 'empty' END AS visible
  FROM api.products CROSS JOIN LATERAL (SELECT ($5::timestamptz AT TIME ZONE timezone)::date AS today) AS local
  WHERE deleted_at IS NULL AND ($1::uuid[] IS NULL OR id = ANY ($1::uuid[]))
), cfg AS (
  ${governingConfigurations('c.product_id IN (SELECT id FROM p)', '$2::date', '$3::date', `c.id,
    to_jsonb(c.check_in_days) AS check_in_days, to_jsonb(c.checkout_days) AS checkout_days,
    c.min_duration, c.max_duration, c.min_advance, c.max_advance, c.cooldown_time,
    (SELECT min((r ->> 'rate')::integer) FROM jsonb_array_elements(c.rates) AS r
     WHERE (r ->> 'duration')::integer <= greatest(c.min_duration, 1)) AS rate`)}
), ev AS (
  -- Blocking events never overlap one another, padding included (calendar_events_no_overlap).
  SELECT e.product_id, piece.category, piece.dates
  FROM p CROSS JOIN LATERAL ${blockingEventsOf('p.id', '$2::date', '$3::date + 1')} AS e
  CROSS JOIN LATERAL (VALUES
    (CASE WHEN e.type = 'blocked period' THEN 'blocked' WHEN e.status = 'CONFIRMED' THEN 'booked' ELSE 'tentative' END,
     daterange(e.start_date, e.end_date)),
    ('padding', daterange(e.end_date, e.end_date + e.padding))
  ) AS piece(category, dates)
  WHERE ($4 OR e.type <> 'booking' OR e.status <> 'TENTATIVE') AND NOT isempty(piece.dates)
), free AS MATERIALIZED (
  SELECT p.id AS product_id, datemultirange(p.visible) - coalesce(blocked.dates, '{}') AS dates,
    coalesce(coverage.dates, '{}') AS open
  FROM p
  LEFT JOIN (SELECT product_id, range_agg(dates) AS dates FROM ev GROUP BY product_id) AS blocked ON blocked.product_id = p.id
  LEFT JOIN (SELECT product_id, range_agg(governs) AS dates FROM cfg GROUP BY product_id) AS coverage ON coverage.product_id = p.id
), pieces AS (
  SELECT ev.product_id, ev.category, ev.dates * p.visible AS dates
  FROM ev JOIN p ON p.id = ev.product_id WHERE ev.dates && p.visible
  UNION ALL
  SELECT id, 'past', daterange($2::date, least(today, $3::date + 1)) FROM p WHERE today > $2::date
  UNION ALL
  SELECT free.product_id, f.category, r
  FROM free CROSS JOIN LATERAL (VALUES ('open', free.dates * free.open), ('closed', free.dates - free.open)) AS f(category, dates)
  CROSS JOIN LATERAL unnest(f.dates) AS r
), timeline AS (
  SELECT product_id, json_agg(json_build_array(lower(dates)::text, upper(dates)::text, category) ORDER BY lower(dates)) AS categories
  FROM pieces GROUP BY product_id
), governing AS (
  SELECT product_id, json_agg(json_build_object('id', id, 'check_in_days', check_in_days,
     'checkout_days', checkout_days, 'min_duration', min_duration, 'max_duration', max_duration,
     'min_advance', min_advance, 'max_advance', max_advance, 'cooldown_time', cooldown_time, 'rate', rate,
     'dates', (SELECT json_agg(json_build_array(lower(r)::text, upper(r)::text)) FROM unnest(governs) AS r))) AS configurations
  FROM cfg WHERE NOT isempty(governs)
  GROUP BY product_id
)
SELECT p.id AS product_id, p.rent_period, p.product_cooldown, p.today::text AS today, timeline.categories,
  coalesce(governing.configurations, '[]') AS configurations
FROM p JOIN timeline ON timeline.product_id = p.id LEFT JOIN governing ON governing.product_id = p.id
ORDER BY p.created_at, p.id`,
    values: [productIds, first, last, includeTentative, now.toISOString()],
  };
}

export async function availability(tx: Queryable, query: AvailabilityQuery, now: Date): Promise<ProductAvailability[]> {
  const start = query.start ?? todayIn('UTC', now);
  const end = query.end ?? addDays(start, 365);
  if (end <= start) throw invalidInput('end must be after start');
  if (daysBetween(start, end) > MAX_RANGE_DAYS) throw invalidInput(`at most ${MAX_RANGE_DAYS} days per request`);
  const q = availabilityQuery(query.productIds, addDays(start, -1), addDays(end, LOOKAHEAD_DAYS), query.showPendingAs !== 'CANCELLED', now);
  const { rows } = await tx.query<ProductTimeline>(q.text, q.values);
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
