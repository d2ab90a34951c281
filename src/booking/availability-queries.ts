/**
 * GET /v1/availability's one statement, as `{ text, values }`: with date multiranges, what covers each date of the
 * window and which configuration governs it, per product (availability.ts turns it into the response).
 */
import { blockingEventsOf, dateOverrides, governingConfigurations, relatedBlocksOf, type SqlQuery } from './queries.js';

/**
 * One statement: per product, the categories of [first, last] as consecutive ranges, its governing
 * configurations and its per-date overrides (a closed date is a closed category). `now` fixes "today" in each product's time zone.
 */
export function availabilityQuery(productIds: string[] | null, first: string, last: string, includeTentative: boolean, now: Date): SqlQuery {
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
  UNION ALL
  -- Related units' stays (docs/booking.md#related-units) may overlap one another: merged into 'blocked' ranges.
  SELECT related.product_id, 'blocked', piece
  FROM (SELECT p.id AS product_id, range_agg(daterange(b.start_date, b.end_date + b.padding)) AS dates
        FROM p CROSS JOIN LATERAL ${relatedBlocksOf('p.id', '$2::date', '$3::date + 1')} AS b
        WHERE $4 OR b.type <> 'booking' OR b.status <> 'TENTATIVE'
        GROUP BY p.id) AS related
  CROSS JOIN LATERAL unnest(related.dates) AS piece
), free AS MATERIALIZED (
  SELECT p.id AS product_id, datemultirange(p.visible) - coalesce(blocked.dates, '{}') AS dates,
    coalesce(coverage.dates, '{}') - coalesce(shut.dates, '{}') AS open
  FROM p
  LEFT JOIN (SELECT product_id, range_agg(daterange(date, date + 1)) AS dates FROM ov WHERE closed GROUP BY product_id) AS shut
    ON shut.product_id = p.id
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
), overrides AS (
  SELECT product_id, json_agg(json_build_array(date::text, rate, min_duration) ORDER BY date) AS overrides
  FROM ov WHERE NOT closed AND (rate IS NOT NULL OR min_duration IS NOT NULL)
  GROUP BY product_id
)
SELECT p.id AS product_id, p.rent_period, p.product_cooldown, p.today::text AS today, timeline.categories,
  coalesce(governing.configurations, '[]') AS configurations, coalesce(overrides.overrides, '[]') AS overrides
FROM p JOIN timeline ON timeline.product_id = p.id LEFT JOIN governing ON governing.product_id = p.id
  LEFT JOIN overrides ON overrides.product_id = p.id
ORDER BY p.created_at, p.id`,
    values: [productIds, first, last, includeTentative, now.toISOString()],
  };
}
