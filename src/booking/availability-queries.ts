/**
 * GET /v1/availability's one statement, as `{ text, values }`: with date multiranges, what covers each date of the
 * window and which configuration governs it, per product (availability.ts turns it into the response).
 */
import { blockingEventsOf, dateOverrides, governingConfigurations, relatedBlocksOf, type SqlQuery } from './queries.js';
import type { Category } from './timeline.js';

/** The categories of a product's window, each a column of the statement: a date multirange as PostgreSQL writes it. */
export const CATEGORY_COLUMNS = ['past', 'booked', 'tentative', 'blocked', 'padding', 'open', 'closed'] as const satisfies readonly Category[];

/**
 * One statement: per product, the categories of [first, last] as date multiranges (one column each, disjoint, together
 * the whole window), its governing configurations and its per-date overrides (a closed date is a closed category).
 * `now` fixes "today" in each product's time zone. Only the days need the configurations and overrides
 * (`includeDays`); the intervals need only which dates are open.
 *
 * Why multiranges per category, written as text: the events are aggregated as they are read (one range per event,
 * no row per piece), and PostgreSQL writes each category once per product instead of building JSON per range —
 * that per-range JSON was most of the statement's time (docs/booking.md#get-v1availability).
 */
export function availabilityQuery(
  productIds: string[] | null, first: string, last: string, includeTentative: boolean, now: Date, includeDays: boolean,
): SqlQuery {
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
), ov AS (
  ${dateOverrides((column) => `${column} IN (SELECT id FROM p)`, '$2::date', '$3::date')}
), own AS (
  -- Blocking events never overlap one another, padding included (calendar_events_no_overlap).
  SELECT p.id AS product_id,
    range_agg(daterange(e.start_date, e.end_date)) FILTER (WHERE e.type = 'blocked period') AS blocked,
    range_agg(daterange(e.start_date, e.end_date)) FILTER (WHERE e.type = 'booking' AND e.status = 'CONFIRMED') AS booked,
    range_agg(daterange(e.start_date, e.end_date)) FILTER (WHERE e.type = 'booking' AND e.status <> 'CONFIRMED') AS tentative,
    range_agg(daterange(e.end_date, e.end_date + e.padding)) AS padding
  FROM p CROSS JOIN LATERAL ${blockingEventsOf('p.id', '$2::date', '$3::date + 1')} AS e
  WHERE $4 OR e.type <> 'booking' OR e.status <> 'TENTATIVE'
  GROUP BY p.id
), related AS (
  -- Related units' stays (docs/booking.md#related-units) may overlap one another, never this unit's own (unit_blocks_no_overlap): 'blocked'.
  SELECT p.id AS product_id, range_agg(daterange(b.start_date, b.end_date + b.padding)) AS dates
  FROM p CROSS JOIN LATERAL ${relatedBlocksOf('p.id', '$2::date', '$3::date + 1')} AS b
  WHERE $4 OR b.type <> 'booking' OR b.status <> 'TENTATIVE'
  GROUP BY p.id
), covered AS (
  SELECT p.id AS product_id, datemultirange(p.visible) AS visible,
    coalesce(own.booked, '{}') AS booked, coalesce(own.tentative, '{}') AS tentative,
    coalesce(own.blocked, '{}') + coalesce(related.dates, '{}') AS blocked, coalesce(own.padding, '{}') AS padding,
    coalesce(coverage.dates, '{}') - coalesce(shut.dates, '{}') AS governed
  FROM p
  LEFT JOIN own ON own.product_id = p.id
  LEFT JOIN related ON related.product_id = p.id
  LEFT JOIN (SELECT product_id, range_agg(daterange(date, date + 1)) AS dates FROM ov WHERE closed GROUP BY product_id) AS shut
    ON shut.product_id = p.id
  LEFT JOIN (SELECT product_id, range_agg(governs) AS dates FROM cfg GROUP BY product_id) AS coverage ON coverage.product_id = p.id
), free AS (
  SELECT covered.*, visible - booked - tentative - blocked - padding AS dates FROM covered
), governing AS (
  SELECT product_id, json_agg(json_build_object('id', id, 'check_in_days', check_in_days,
     'checkout_days', checkout_days, 'min_duration', min_duration, 'max_duration', max_duration,
     'min_advance', min_advance, 'max_advance', max_advance, 'cooldown_time', cooldown_time, 'rate', rate,
     'dates', (SELECT json_agg(json_build_array(lower(r)::text, upper(r)::text)) FROM unnest(governs) AS r))) AS configurations
  FROM cfg WHERE $6 AND NOT isempty(governs)
  GROUP BY product_id
), overrides AS (
  SELECT product_id, json_agg(json_build_array(date::text, rate, min_duration) ORDER BY date) AS overrides
  FROM ov WHERE $6 AND NOT closed AND (rate IS NOT NULL OR min_duration IS NOT NULL)
  GROUP BY product_id
)
SELECT p.id AS product_id, p.rent_period, p.product_cooldown, p.today::text AS today,
  CASE WHEN p.today > $2::date THEN datemultirange(daterange($2::date, least(p.today, $3::date + 1))) ELSE '{}' END::text AS past,
  (free.booked * free.visible)::text AS booked, (free.tentative * free.visible)::text AS tentative,
  (free.blocked * free.visible)::text AS blocked, (free.padding * free.visible)::text AS padding,
  (free.dates * free.governed)::text AS open, (free.dates - free.governed)::text AS closed,
  coalesce(governing.configurations, '[]') AS configurations, coalesce(overrides.overrides, '[]') AS overrides
FROM p JOIN free ON free.product_id = p.id LEFT JOIN governing ON governing.product_id = p.id
  LEFT JOIN overrides ON overrides.product_id = p.id
ORDER BY p.created_at, p.id`,
    values: [productIds, first, last, includeTentative, now.toISOString(), includeDays],
  };
}
