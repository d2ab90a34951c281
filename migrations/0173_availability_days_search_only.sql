-- The availability index does not answer GET /v1/availability after all: read per day, a year of 100 units is
-- 43,000 rows where the statement computing it from the events reads about 40 events per unit, and measured
-- it was no faster (and five times slower for 1,000 units). The `covers` column 0171 added for it goes, and the
-- functions return to what /search needs. (0171's longer horizon, 500 days, stays.)

DROP FUNCTION staykit_internal.availability_days_of(uuid[], date[], date[]);
ALTER TABLE staykit_internal.availability_days DROP COLUMN covers;

CREATE FUNCTION staykit_internal.availability_days_of(products uuid[], firsts date[], untils date[])
RETURNS TABLE (organization_id uuid, product_id uuid, date date, governed boolean, cooldown integer, blockers smallint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET work_mem = '64MB' AS $$
  WITH target AS MATERIALIZED (
    SELECT p.organization_id, p.id AS product_id, t.first, t.until,
      CASE WHEN p.rent_pricing_definition = 'services' THEN p.cooldown_time END AS product_cooldown
    FROM (SELECT t.product_id, min(t.first) AS first, max(t.until) AS until
          FROM unnest(products, firsts, untils) AS t(product_id, first, until)
          WHERE t.until > t.first GROUP BY t.product_id) AS t
    JOIN api.products AS p ON p.id = t.product_id
  ), fact AS (
    -- Every date of the window.
    SELECT t.organization_id, t.product_id, t.first + i AS date, false AS is_governed, false AS is_closed,
      t.product_cooldown, NULL::integer AS cooldown, 0 AS bits
    FROM target AS t CROSS JOIN LATERAL generate_series(0, t.until - t.first - 1) AS i
    UNION ALL
    -- The dates each configuration governs: highest "order", then latest update (governingConfigurations in
    -- src/booking/queries.ts).
    SELECT g.organization_id, g.product_id, lower(r) + i, true, false, NULL, g.cooldown_time, 0
    FROM (SELECT c.organization_id, c.product_id, c.cooldown_time,
            c.intervals * datemultirange(daterange(t.first, t.until)) - coalesce(range_agg(c.intervals) OVER (
              PARTITION BY c.product_id ORDER BY c."order" DESC, c.updated_at DESC, c.id DESC
              ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), '{}') AS governs
          FROM target AS t JOIN api.product_configurations AS c
            ON c.organization_id = t.organization_id AND c.product_id = t.product_id
          WHERE c.intervals && daterange(t.first, t.until)) AS g
    CROSS JOIN LATERAL unnest(g.governs) AS r
    CROSS JOIN LATERAL generate_series(0, upper(r) - lower(r) - 1) AS i
    UNION ALL
    SELECT t.organization_id, e.product_id, e.date, false, true, NULL, NULL, 0
    FROM target AS t JOIN api.price_calendar_entries AS e ON e.product_id = t.product_id
    WHERE e.closed AND e.date >= t.first AND e.date < t.until
    UNION ALL
    -- The dates each event blocks, cooldown padding included; a related unit's likewise.
    SELECT b.organization_id, b.product_id, greatest(b.start_date, b.first) + i, false, false, NULL, NULL, b.bits
    FROM (SELECT t.organization_id, e.product_id, t.first, t.until AS window_end, e.start_date, e.end_date + e.padding AS until,
            CASE WHEN e.type = 'blocked period' THEN 4 WHEN e.status = 'TENTATIVE' THEN 2 ELSE 1 END AS bits
          FROM target AS t JOIN api.calendar_events AS e
            ON e.organization_id = t.organization_id AND e.product_id = t.product_id
          WHERE e.status <> 'CANCELLED' AND e.type IN ('booking', 'blocked period') AND e.start_date < t.until
            AND e.end_date + e.padding > t.first
          UNION ALL
          SELECT t.organization_id, u.unit_id, t.first, t.until, u.start_date, u.end_date + u.padding,
            CASE WHEN u.type = 'blocked period' THEN 4 WHEN u.status = 'TENTATIVE' THEN 2 ELSE 1 END
          FROM target AS t JOIN staykit_internal.unit_blocks AS u
            ON u.organization_id = t.organization_id AND u.unit_id = t.product_id
          WHERE u.relation <> 'self' AND u.start_date < t.until AND u.end_date + u.padding > t.first) AS b
    CROSS JOIN LATERAL generate_series(0, least(b.until, b.window_end) - greatest(b.start_date, b.first) - 1) AS i
  )
  SELECT f.organization_id, f.product_id, f.date,
    bool_or(f.is_governed) AND NOT bool_or(f.is_closed),
    coalesce(max(f.product_cooldown), max(f.cooldown), 0),
    bit_or(f.bits)::smallint
  FROM fact AS f
  GROUP BY f.organization_id, f.product_id, f.date
$$;

COMMENT ON FUNCTION staykit_internal.availability_days_of(uuid[], date[], date[]) IS
  'The availability_days rows of [first, until) of each product, computed from its configurations, closed dates and blocking events.';
REVOKE ALL ON FUNCTION staykit_internal.availability_days_of(uuid[], date[], date[]) FROM PUBLIC;

CREATE OR REPLACE FUNCTION staykit_internal.refresh_availability_days(products uuid[], firsts date[], untils date[]) RETURNS void
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH stored AS (
    SELECT t.product_id, greatest(t.first, h.first) AS first, least(t.until, h.until) AS until
    FROM unnest(products, firsts, untils) AS t(product_id, first, until)
    CROSS JOIN LATERAL (SELECT min(d.date) AS first, max(d.date) + 1 AS until
                        FROM staykit_internal.availability_days AS d WHERE d.product_id = t.product_id) AS h
    WHERE h.first IS NOT NULL
  ), computed AS (
    SELECT c.* FROM (SELECT array_agg(product_id) AS products, array_agg(first) AS firsts, array_agg(until) AS untils
                     FROM stored) AS s
    CROSS JOIN LATERAL staykit_internal.availability_days_of(s.products, s.firsts, s.untils) AS c
  )
  UPDATE staykit_internal.availability_days AS d
  SET governed = c.governed, cooldown = c.cooldown, blockers = c.blockers
  FROM computed AS c
  WHERE d.product_id = c.product_id AND d.date = c.date AND d.organization_id = c.organization_id
    AND (d.governed, d.cooldown, d.blockers) IS DISTINCT FROM (c.governed, c.cooldown, c.blockers)
$$;
