-- The availability index also answers GET /v1/availability (docs/booking.md#availability-index): a `covers` column
-- says what covers each date as the availability statement's categories do — bits 1 a CONFIRMED booking, 2 a
-- TENTATIVE booking, 4 a blocked period (the unit's own stays), 8 the cooldown padding after one of its events,
-- 16 the padding after a TENTATIVE booking, 32 a related unit's stay or padding, 64 a related unit's TENTATIVE
-- booking (show_pending_as=CANCELLED drops 2, 16 and 64). The horizon grows to 500 days, so a year's window with
-- the 62 days /availability reads past its end (check-in flags) is inside it.

ALTER TABLE staykit_internal.availability_days ADD COLUMN covers smallint NOT NULL DEFAULT 0;
ALTER TABLE staykit_internal.availability_days ALTER COLUMN covers DROP DEFAULT;
COMMENT ON COLUMN staykit_internal.availability_days.covers IS
  'What covers the date: 1 confirmed booking, 2 tentative booking, 4 blocked period, 8 padding, 16 padding after a '
  'tentative booking, 32 a related unit''s stay, 64 a related unit''s tentative booking.';

-- The functions' bodies do not depend on the row type (SQL and PL/pgSQL are resolved when run): the one whose
-- result gains a column is dropped and created again, the others replaced.
DROP FUNCTION staykit_internal.availability_days_of(uuid[], date[], date[]);

CREATE FUNCTION staykit_internal.availability_days_of(products uuid[], firsts date[], untils date[])
RETURNS TABLE (organization_id uuid, product_id uuid, date date, governed boolean, cooldown integer, blockers smallint,
               covers smallint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH target AS MATERIALIZED (
    SELECT p.organization_id, p.id AS product_id, t.first, t.until,
      CASE WHEN p.rent_pricing_definition = 'services' THEN p.cooldown_time END AS product_cooldown
    FROM (SELECT t.product_id, min(t.first) AS first, max(t.until) AS until
          FROM unnest(products, firsts, untils) AS t(product_id, first, until)
          WHERE t.until > t.first GROUP BY t.product_id) AS t
    JOIN api.products AS p ON p.id = t.product_id
  ), governing AS (
    SELECT g.product_id, g.cooldown_time, lower(r) + i AS date
    FROM (SELECT c.product_id, c.cooldown_time,
            c.intervals * datemultirange(daterange(t.first, t.until)) - coalesce(range_agg(c.intervals) OVER (
              PARTITION BY c.product_id ORDER BY c."order" DESC, c.updated_at DESC, c.id DESC
              ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), '{}') AS governs
          FROM target AS t JOIN api.product_configurations AS c
            ON c.organization_id = t.organization_id AND c.product_id = t.product_id
          WHERE c.intervals && daterange(t.first, t.until)) AS g
    CROSS JOIN LATERAL unnest(g.governs) AS r
    CROSS JOIN LATERAL generate_series(0, upper(r) - lower(r) - 1) AS i
  ), closed AS (
    SELECT DISTINCT e.product_id, e.date
    FROM target AS t JOIN api.price_calendar_entries AS e ON e.product_id = t.product_id
    WHERE e.closed AND e.date >= t.first AND e.date < t.until
  ), piece AS (
    -- What covers each date, per event: its stay, then its padding; a related unit's stay and padding as one.
    SELECT e.product_id, r.start_date, r.until, e.type, e.status, r.covers
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
    SELECT u.unit_id, u.start_date, u.end_date + u.padding, u.type, u.status,
      CASE WHEN u.type = 'booking' AND u.status = 'TENTATIVE' THEN 64 ELSE 32 END
    FROM target AS t JOIN staykit_internal.unit_blocks AS u
      ON u.organization_id = t.organization_id AND u.unit_id = t.product_id
    WHERE u.relation <> 'self' AND u.start_date < t.until AND u.end_date + u.padding > t.first
  ), blocked AS (
    SELECT b.product_id, greatest(b.start_date, t.first) + i AS date,
      bit_or(CASE WHEN b.type = 'blocked period' THEN 4 WHEN b.status = 'TENTATIVE' THEN 2 ELSE 1 END) AS bits,
      bit_or(b.covers) AS covers
    FROM piece AS b JOIN target AS t ON t.product_id = b.product_id
    CROSS JOIN LATERAL generate_series(0, least(b.until, t.until) - greatest(b.start_date, t.first) - 1) AS i
    GROUP BY 1, 2
  )
  SELECT t.organization_id, t.product_id, t.first + i,
    governing.product_id IS NOT NULL AND closed.product_id IS NULL,
    coalesce(t.product_cooldown, governing.cooldown_time, 0),
    coalesce(blocked.bits, 0)::smallint, coalesce(blocked.covers, 0)::smallint
  FROM target AS t CROSS JOIN LATERAL generate_series(0, t.until - t.first - 1) AS i
  LEFT JOIN governing ON governing.product_id = t.product_id AND governing.date = t.first + i
  LEFT JOIN closed ON closed.product_id = t.product_id AND closed.date = t.first + i
  LEFT JOIN blocked ON blocked.product_id = t.product_id AND blocked.date = t.first + i
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
  SET governed = c.governed, cooldown = c.cooldown, blockers = c.blockers, covers = c.covers
  FROM computed AS c
  WHERE d.product_id = c.product_id AND d.date = c.date AND d.organization_id = c.organization_id
    AND (d.governed, d.cooldown, d.blockers, d.covers) IS DISTINCT FROM (c.governed, c.cooldown, c.blockers, c.covers)
$$;

-- The horizon's length, in one place.
CREATE FUNCTION staykit_internal.availability_horizon_days() RETURNS integer
LANGUAGE sql IMMUTABLE AS $$ SELECT 500 $$;
COMMENT ON FUNCTION staykit_internal.availability_horizon_days() IS
  'Days after today the availability index holds rows for (from the day before today).';

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
  ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS added = ROW_COUNT;
  RETURN added;
END
$$;
COMMENT ON FUNCTION staykit_internal.roll_availability_days(date) IS
  'Moves the availability index''s horizon to [today - 1, today + availability_horizon_days()): adds the new days, removes the past ones.';

CREATE OR REPLACE FUNCTION staykit_internal.products_availability_days() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO staykit_internal.availability_days
    SELECT c.* FROM (SELECT array_agg(id) AS products, array_agg(current_date - 1) AS firsts,
                            array_agg(current_date + staykit_internal.availability_horizon_days()) AS untils
                     FROM new_rows) AS s
    CROSS JOIN LATERAL staykit_internal.availability_days_of(s.products, s.firsts, s.untils) AS c;
  ELSE
    PERFORM staykit_internal.refresh_availability_days(array_agg(n.id), array_agg(NULL::date), array_agg(NULL::date))
    FROM old_rows AS o JOIN new_rows AS n ON n.id = o.id
    WHERE (o.cooldown_time, o.rent_pricing_definition) IS DISTINCT FROM (n.cooldown_time, n.rent_pricing_definition);
  END IF;
  RETURN NULL;
END
$$;

-- The rows there already: `covers` filled in, and the days up to the longer horizon added.
SELECT staykit_internal.refresh_availability_days(array_agg(id), array_agg(NULL::date), array_agg(NULL::date))
FROM api.products;
SELECT staykit_internal.roll_availability_days(current_date);
