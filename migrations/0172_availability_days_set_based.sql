-- availability_days_of, computed without joins between computed sets: every fact of a date (the date itself, the
-- configuration governing it, a closed entry, each event covering it) is one row, and one GROUP BY per product and
-- date folds them. A join of the days with the governing dates and the events' dates has no index to use, and
-- when the planner misjudged the sizes of those sets (it does for set-returning functions) filling the index for
-- thousands of products at once took minutes instead of seconds. Its hash aggregate gets 64 MB of work_mem (a
-- trigger's refresh of a few dates uses a sliver of it; the horizon's first fill would spill to disk). Same result.

CREATE OR REPLACE FUNCTION staykit_internal.availability_days_of(products uuid[], firsts date[], untils date[])
RETURNS TABLE (organization_id uuid, product_id uuid, date date, governed boolean, cooldown integer, blockers smallint,
               covers smallint)
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
      t.product_cooldown, NULL::integer AS cooldown, 0 AS bits, 0 AS covers
    FROM target AS t CROSS JOIN LATERAL generate_series(0, t.until - t.first - 1) AS i
    UNION ALL
    -- The dates each configuration governs: highest "order", then latest update (governingConfigurations in
    -- src/booking/queries.ts).
    SELECT g.organization_id, g.product_id, lower(r) + i, true, false, NULL, g.cooldown_time, 0, 0
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
    SELECT t.organization_id, e.product_id, e.date, false, true, NULL, NULL, 0, 0
    FROM target AS t JOIN api.price_calendar_entries AS e ON e.product_id = t.product_id
    WHERE e.closed AND e.date >= t.first AND e.date < t.until
    UNION ALL
    -- What covers each date, per event: its stay, then its padding; a related unit's stay and padding as one.
    SELECT b.organization_id, b.product_id, greatest(b.start_date, b.first) + i, false, false, NULL, NULL, b.bits, b.covers
    FROM (SELECT t.organization_id, e.product_id, t.first, t.until AS window_end, r.start_date, r.until,
            CASE WHEN e.type = 'blocked period' THEN 4 WHEN e.status = 'TENTATIVE' THEN 2 ELSE 1 END AS bits, r.covers
          FROM target AS t JOIN api.calendar_events AS e
            ON e.organization_id = t.organization_id AND e.product_id = t.product_id
          CROSS JOIN LATERAL (VALUES
            (e.start_date, e.end_date,
             CASE WHEN e.type = 'blocked period' THEN 4 WHEN e.status = 'TENTATIVE' THEN 2 ELSE 1 END),
            (e.end_date, e.end_date + e.padding,
             CASE WHEN e.type = 'booking' AND e.status = 'TENTATIVE' THEN 16 ELSE 8 END)) AS r(start_date, until, covers)
          WHERE e.status <> 'CANCELLED' AND e.type IN ('booking', 'blocked period') AND e.start_date < t.until
            AND e.end_date + e.padding > t.first AND r.until > r.start_date
          UNION ALL
          SELECT t.organization_id, u.unit_id, t.first, t.until, u.start_date, u.end_date + u.padding,
            CASE WHEN u.type = 'blocked period' THEN 4 WHEN u.status = 'TENTATIVE' THEN 2 ELSE 1 END,
            CASE WHEN u.type = 'booking' AND u.status = 'TENTATIVE' THEN 64 ELSE 32 END
          FROM target AS t JOIN staykit_internal.unit_blocks AS u
            ON u.organization_id = t.organization_id AND u.unit_id = t.product_id
          WHERE u.relation <> 'self' AND u.start_date < t.until AND u.end_date + u.padding > t.first) AS b
    CROSS JOIN LATERAL generate_series(0, least(b.until, b.window_end) - greatest(b.start_date, b.first) - 1) AS i
  )
  SELECT f.organization_id, f.product_id, f.date,
    bool_or(f.is_governed) AND NOT bool_or(f.is_closed),
    coalesce(max(f.product_cooldown), max(f.cooldown), 0),
    bit_or(f.bits)::smallint, bit_or(f.covers)::smallint
  FROM fact AS f
  GROUP BY f.organization_id, f.product_id, f.date
$$;

-- The horizon's fill inserts in index order: 3 million rows in random order (what the hash aggregate gives) cost
-- four times as long, each a random place in both indexes.
CREATE OR REPLACE FUNCTION staykit_internal.roll_availability_days(today date) RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  added integer;
  horizon_end date := today + staykit_internal.availability_horizon_days();
BEGIN
  DELETE FROM staykit_internal.availability_days WHERE date < today - 1;
  INSERT INTO staykit_internal.availability_days
  SELECT c.* FROM (
    SELECT array_agg(p.id) AS products, array_agg(greatest(h.until, today - 1)) AS firsts, array_agg(horizon_end) AS untils
    FROM api.products AS p
    CROSS JOIN LATERAL (SELECT coalesce(max(d.date) + 1, today - 1) AS until
                        FROM staykit_internal.availability_days AS d WHERE d.product_id = p.id) AS h
    WHERE h.until < horizon_end
  ) AS s
  CROSS JOIN LATERAL staykit_internal.availability_days_of(s.products, s.firsts, s.untils) AS c
  ORDER BY c.product_id, c.date
  ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS added = ROW_COUNT;
  RETURN added;
END
$$;
