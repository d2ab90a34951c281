/**
 * GET /v1/availability's one statement, as `{ text, values }`: with date multiranges, what covers each date of the
 * window and which configuration governs it, per product (availability.ts turns it into the response).
 */
import type { QueryOptions } from '../db/types.js';
import { blockingEventsOf, dateOverrides, governingConfigurations, relatedBlocksOf, type SqlQuery } from './queries.js';
import type { Category } from './timeline.js';

/** The categories of a product's window, in the order the statement takes their labels. */
export const CATEGORIES = ['past', 'booked', 'tentative', 'blocked', 'padding', 'open', 'closed'] as const satisfies readonly Category[];

/**
 * How the statement runs: its plan is made once per connection and reused (`QueryOptions.reusePlan`, a named
 * statement's generic plan) instead of made for each request's values. Planning it cost more than running it for one
 * unit (2.9 vs 0.9 ms of backend CPU), and its values cannot change the plan that matters: every unit is read by
 * lateral subqueries, one index scan per unit.
 */
export const AVAILABILITY_QUERY_OPTIONS: QueryOptions = { reusePlan: true };

/**
 * One statement: per product, the dates of [first, last] by label (`ranges`, availability-ranges.ts: disjoint, together
 * the whole window), its governing configurations and its per-date overrides (a closed date is a closed category).
 * `labels` names each of CATEGORIES: the categories themselves when the days need them, else the statuses they
 * show as, so that categories showing the same status are merged here (fewer, longer ranges to send and read).
 * `now` fixes "today" in each product's time zone. Only the days need the configurations and overrides
 * (`includeDays`); the intervals need only which dates are open.
 *
 * Why multiranges per label, written as text: the events are aggregated as they are read (one range per event,
 * no row per piece), and PostgreSQL writes each label's dates once per product instead of building JSON per range —
 * that per-range JSON was most of the statement's time (docs/booking.md#get-v1availability).
 */
export function availabilityQuery(
  productIds: string[] | null, first: string, last: string, includeTentative: boolean, now: Date, includeDays: boolean,
  labels: readonly string[],
): SqlQuery {
  return {
    // `unit`, not `p`: the lateral subqueries embed queries.ts's fragments, whose own aliases (`p` among them) would hide it.
    text: `WITH unit AS (
  SELECT id, created_at, rent_period, today,
    CASE WHEN rent_pricing_definition = 'services' THEN cooldown_time END AS product_cooldown,
    CASE WHEN today <= $3::date THEN daterange(greatest($2::date, today), $3::date, '[]') ELSE 'empty' END AS visible
  FROM api.products CROSS JOIN LATERAL (SELECT ($5::timestamptz AT TIME ZONE timezone)::date AS today) AS local
  WHERE deleted_at IS NULL AND ($1::uuid[] IS NULL OR id = ANY ($1::uuid[]))
)
SELECT unit.id AS product_id, unit.rent_period, unit.product_cooldown, unit.today::text AS today, shown.ranges,
  coalesce(cfg.configurations, '[]') AS configurations, coalesce(ov.overrides, '[]') AS overrides
FROM unit
-- Blocking events never overlap one another, padding included (calendar_events_no_overlap); related units' stays
-- (docs/booking.md#related-units) may overlap one another, never this unit's own (unit_blocks_no_overlap): 'blocked'.
-- Each range is clipped to the visible dates as it is aggregated (range * range, cheaper than on multiranges).
CROSS JOIN LATERAL (
  SELECT coalesce(range_agg(e.dates) FILTER (WHERE e.category = 'booked'), '{}') AS booked,
    coalesce(range_agg(e.dates) FILTER (WHERE e.category = 'tentative'), '{}') AS tentative,
    coalesce(range_agg(e.dates) FILTER (WHERE e.category = 'blocked'), '{}') AS blocked,
    coalesce(range_agg(e.padding), '{}') AS padding,
    datemultirange(unit.visible) - coalesce(range_agg(e.dates), '{}') - coalesce(range_agg(e.padding), '{}') AS free
  FROM (
    SELECT CASE WHEN e.type = 'blocked period' THEN 'blocked' WHEN e.status = 'CONFIRMED' THEN 'booked' ELSE 'tentative' END
        AS category, daterange(e.start_date, e.end_date) * unit.visible AS dates,
      daterange(e.end_date, e.end_date + e.padding) * unit.visible AS padding
    FROM ${blockingEventsOf('unit.id', '$2::date', '$3::date + 1')} AS e
    WHERE $4 OR e.type <> 'booking' OR e.status <> 'TENTATIVE'
    UNION ALL
    SELECT 'blocked', daterange(b.start_date, b.end_date + b.padding) * unit.visible, 'empty'
    FROM ${relatedBlocksOf('unit.id', '$2::date', '$3::date + 1')} AS b
    WHERE $4 OR b.type <> 'booking' OR b.status <> 'TENTATIVE'
  ) AS e
) AS own
CROSS JOIN LATERAL (
  SELECT range_agg(governs) AS dates,
    json_agg(json_build_object('id', id, 'check_in_days', check_in_days,
      'checkout_days', checkout_days, 'min_duration', min_duration, 'max_duration', max_duration,
      'min_advance', min_advance, 'max_advance', max_advance, 'cooldown_time', cooldown_time, 'rate', rate,
      'dates', (SELECT json_agg(json_build_array(lower(r)::text, upper(r)::text)) FROM unnest(governs) AS r)))
      FILTER (WHERE $6 AND NOT isempty(governs)) AS configurations
  FROM (${governingConfigurations('c.product_id = unit.id', '$2::date', '$3::date', `c.id,
    to_jsonb(c.check_in_days) AS check_in_days, to_jsonb(c.checkout_days) AS checkout_days,
    c.min_duration, c.max_duration, c.min_advance, c.max_advance, c.cooldown_time,
    (SELECT min((r ->> 'rate')::integer) FROM jsonb_array_elements(c.rates) AS r
     WHERE (r ->> 'duration')::integer <= greatest(c.min_duration, 1)) AS rate`)}) AS c
) AS cfg
CROSS JOIN LATERAL (
  SELECT range_agg(daterange(o.date, o.date + 1)) FILTER (WHERE o.closed) AS shut,
    json_agg(json_build_array(o.date::text, o.rate, o.min_duration) ORDER BY o.date)
      FILTER (WHERE $6 AND NOT o.closed AND (o.rate IS NOT NULL OR o.min_duration IS NOT NULL)) AS overrides
  FROM (${dateOverrides((column) => `${column} = unit.id`, '$2::date', '$3::date')}) AS o
) AS ov
CROSS JOIN LATERAL (SELECT own.free AS dates, coalesce(cfg.dates, '{}') - coalesce(ov.shut, '{}') AS governed) AS free
-- The categories (in CATEGORIES' order) under their labels; range_agg of a label's multiranges joins the dates that
-- meet, so a label has each run of dates once.
CROSS JOIN LATERAL (
  SELECT coalesce(string_agg(label || dates::text, ''), '') AS ranges
  FROM (
    SELECT label, range_agg(dates) AS dates
    FROM unnest($7::text[], ARRAY[
      CASE WHEN unit.today > $2::date THEN datemultirange(daterange($2::date, least(unit.today, $3::date + 1))) ELSE '{}' END,
      own.booked, own.tentative, own.blocked, own.padding, free.dates * free.governed, free.dates - free.governed
    ]) AS category (label, dates)
    WHERE NOT isempty(dates)
    GROUP BY label
  ) AS labelled
) AS shown
ORDER BY unit.created_at, unit.id`,
    values: [productIds, first, last, includeTentative, now.toISOString(), includeDays, labels],
  };
}
