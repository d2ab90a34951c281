-- The availability index (docs/booking.md#availability-index): per unit and day, what POST /v1/search needs to set
-- aside the units that cannot take a stay before it loads nights, prices and events for the others.
--
-- One row per product and date of its horizon (the day before "today" to 400 days ahead; rolled forward by
-- staykit_internal.roll_availability_days, run by the background worker):
--   governed  a configuration governs the date and no per-date entry closes it (else the unit is closed that day)
--   cooldown  the padding a stay arriving that day asks for: the governing configuration's cooldown_time, or the
--             product's when its rent is priced by services (rules.ts, paddingFor)
--   blockers  bit 1: a CONFIRMED booking, 2: a TENTATIVE booking, 4: a blocked period — its own events' or its
--             related units' (staykit_internal.unit_blocks), cooldown padding after them included
-- It is maintained in the same transaction as every write that changes it, by statement triggers (transition
-- tables: one refresh per statement, however many rows) on calendar_events, unit_blocks (related units),
-- product_configurations, price_calendar_entries and products. A read only trusts a product's rows when they
-- cover every date it needs; anything else (a date past the horizon) is computed as before.

CREATE TABLE staykit_internal.availability_days (
  organization_id uuid NOT NULL,
  product_id uuid NOT NULL,
  date date NOT NULL,
  governed boolean NOT NULL,
  cooldown integer NOT NULL,
  blockers smallint NOT NULL,
  PRIMARY KEY (product_id, date, organization_id),
  CONSTRAINT availability_days_product_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE
);
-- /search's read: every unit of the organization over a few dates, index-only.
CREATE INDEX availability_days_search_idx ON staykit_internal.availability_days (organization_id, date)
  INCLUDE (product_id, governed, cooldown, blockers);
COMMENT ON TABLE staykit_internal.availability_days IS
  'Per product and date of the horizon: governed (open), the cooldown of an arrival, the blocking events (bits '
  '1 confirmed booking, 2 tentative booking, 4 blocked period). Maintained by triggers (docs/booking.md#availability-index).';

ALTER TABLE staykit_internal.availability_days ENABLE ROW LEVEL SECURITY;
ALTER TABLE staykit_internal.availability_days FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON staykit_internal.availability_days FOR SELECT TO staykit_api
  USING (organization_id = (SELECT staykit_internal.current_organization_id()));
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_access ON staykit_internal.availability_days TO %I USING (true) WITH CHECK (true)',
                 current_user);
END
$$;
GRANT SELECT ON staykit_internal.availability_days TO staykit_api;

-- ---------------------------------------------------------------------------------------------------------------
-- The rows of [first, until) for each product, computed from the tables they summarise. Several windows of one
-- product are merged into the span that holds them all. The governing configuration of a date is the one of
-- highest "order", then latest update (the rule of governingConfigurations in src/booking/queries.ts).

CREATE FUNCTION staykit_internal.availability_days_of(products uuid[], firsts date[], untils date[])
RETURNS TABLE (organization_id uuid, product_id uuid, date date, governed boolean, cooldown integer, blockers smallint)
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
  ), blocked AS (
    SELECT b.product_id, greatest(b.start_date, t.first) + i AS date,
      bit_or(CASE WHEN b.type = 'blocked period' THEN 4 WHEN b.status = 'TENTATIVE' THEN 2 ELSE 1 END) AS bits
    FROM (SELECT e.product_id, e.start_date, e.end_date + e.padding AS until, e.type, e.status
          FROM target AS t JOIN api.calendar_events AS e
            ON e.organization_id = t.organization_id AND e.product_id = t.product_id
          WHERE e.status <> 'CANCELLED' AND e.type IN ('booking', 'blocked period') AND e.start_date < t.until
            AND e.end_date + e.padding > t.first
          UNION ALL
          SELECT u.unit_id, u.start_date, u.end_date + u.padding, u.type, u.status
          FROM target AS t JOIN staykit_internal.unit_blocks AS u
            ON u.organization_id = t.organization_id AND u.unit_id = t.product_id
          WHERE u.relation <> 'self' AND u.start_date < t.until AND u.end_date + u.padding > t.first) AS b
    JOIN target AS t ON t.product_id = b.product_id
    CROSS JOIN LATERAL generate_series(0, least(b.until, t.until) - greatest(b.start_date, t.first) - 1) AS i
    GROUP BY 1, 2
  )
  SELECT t.organization_id, t.product_id, t.first + i,
    governing.product_id IS NOT NULL AND closed.product_id IS NULL,
    coalesce(t.product_cooldown, governing.cooldown_time, 0),
    coalesce(blocked.bits, 0)::smallint
  FROM target AS t CROSS JOIN LATERAL generate_series(0, t.until - t.first - 1) AS i
  LEFT JOIN governing ON governing.product_id = t.product_id AND governing.date = t.first + i
  LEFT JOIN closed ON closed.product_id = t.product_id AND closed.date = t.first + i
  LEFT JOIN blocked ON blocked.product_id = t.product_id AND blocked.date = t.first + i
$$;
COMMENT ON FUNCTION staykit_internal.availability_days_of(uuid[], date[], date[]) IS
  'The availability_days rows of [first, until) of each product, computed from its configurations, closed dates and blocking events.';

-- The days each product has rows for, clipped to its horizon (a null bound: the whole horizon): rewritten where
-- they changed.
CREATE FUNCTION staykit_internal.refresh_availability_days(products uuid[], firsts date[], untils date[]) RETURNS void
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
COMMENT ON FUNCTION staykit_internal.refresh_availability_days(uuid[], date[], date[]) IS
  'Recomputes the stored availability_days rows of [first, until) of each product (null bounds: all of them).';

-- The horizon as of `today`: rows from the day before (a unit''s own today may be a day behind UTC's) to 400 days
-- ahead. New days are added, past ones removed; a product that has none yet gets them all.
CREATE FUNCTION staykit_internal.roll_availability_days(today date) RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  added integer;
BEGIN
  DELETE FROM staykit_internal.availability_days WHERE date < today - 1;
  INSERT INTO staykit_internal.availability_days
  SELECT c.* FROM (
    SELECT array_agg(p.id) AS products, array_agg(greatest(h.until, today - 1)) AS firsts,
           array_agg(today + 400) AS untils
    FROM api.products AS p
    CROSS JOIN LATERAL (SELECT coalesce(max(d.date) + 1, today - 1) AS until
                        FROM staykit_internal.availability_days AS d WHERE d.product_id = p.id) AS h
    WHERE h.until < today + 400
  ) AS s
  CROSS JOIN LATERAL staykit_internal.availability_days_of(s.products, s.firsts, s.untils) AS c
  ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS added = ROW_COUNT;
  RETURN added;
END
$$;
COMMENT ON FUNCTION staykit_internal.roll_availability_days(date) IS
  'Moves the availability index''s horizon to [today - 1, today + 400): adds the new days, removes the past ones.';

-- ---------------------------------------------------------------------------------------------------------------
-- The triggers: each statement's changed rows (transition tables) name the products and dates to refresh.

CREATE FUNCTION staykit_internal.calendar_events_availability_days() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM staykit_internal.refresh_availability_days(array_agg(product_id), array_agg(start_date), array_agg(end_date + padding))
    FROM new_rows WHERE status <> 'CANCELLED' AND type IN ('booking', 'blocked period');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM staykit_internal.refresh_availability_days(array_agg(product_id), array_agg(start_date), array_agg(end_date + padding))
    FROM old_rows WHERE status <> 'CANCELLED' AND type IN ('booking', 'blocked period');
  ELSE
    PERFORM staykit_internal.refresh_availability_days(array_agg(e.product_id), array_agg(e.start_date), array_agg(e.end_date + e.padding))
    FROM old_rows AS o JOIN new_rows AS n ON n.id = o.id
    CROSS JOIN LATERAL (VALUES (o.product_id, o.start_date, o.end_date, o.padding, o.status, o.type),
                               (n.product_id, n.start_date, n.end_date, n.padding, n.status, n.type))
      AS e(product_id, start_date, end_date, padding, status, type)
    WHERE (o.product_id, o.start_date, o.end_date, o.padding, o.status, o.type)
            IS DISTINCT FROM (n.product_id, n.start_date, n.end_date, n.padding, n.status, n.type)
      AND e.status <> 'CANCELLED' AND e.type IN ('booking', 'blocked period');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER availability_days_insert AFTER INSERT ON api.calendar_events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.calendar_events_availability_days();
CREATE TRIGGER availability_days_update AFTER UPDATE ON api.calendar_events
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.calendar_events_availability_days();
CREATE TRIGGER availability_days_delete AFTER DELETE ON api.calendar_events REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.calendar_events_availability_days();

-- Related units: refresh_unit_blocks deletes and inserts an event's rows (and deleting an event cascades to them).
CREATE FUNCTION staykit_internal.unit_blocks_availability_days() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM staykit_internal.refresh_availability_days(array_agg(unit_id), array_agg(start_date), array_agg(end_date + padding))
    FROM new_rows WHERE relation <> 'self';
  ELSE
    PERFORM staykit_internal.refresh_availability_days(array_agg(unit_id), array_agg(start_date), array_agg(end_date + padding))
    FROM old_rows WHERE relation <> 'self';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER availability_days_insert AFTER INSERT ON staykit_internal.unit_blocks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.unit_blocks_availability_days();
CREATE TRIGGER availability_days_delete AFTER DELETE ON staykit_internal.unit_blocks REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.unit_blocks_availability_days();

-- A configuration decides the dates of its intervals only: those of its old and new rows are refreshed (a null
-- bound of an unbounded interval means the whole horizon).
CREATE FUNCTION staykit_internal.product_configurations_availability_days() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM staykit_internal.refresh_availability_days(array_agg(product_id), array_agg(lower(intervals)), array_agg(upper(intervals)))
    FROM new_rows WHERE NOT isempty(intervals);
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM staykit_internal.refresh_availability_days(array_agg(product_id), array_agg(lower(intervals)), array_agg(upper(intervals)))
    FROM old_rows WHERE NOT isempty(intervals);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER availability_days_insert AFTER INSERT ON api.product_configurations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.product_configurations_availability_days();
CREATE TRIGGER availability_days_update AFTER UPDATE ON api.product_configurations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.product_configurations_availability_days();
CREATE TRIGGER availability_days_delete AFTER DELETE ON api.product_configurations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.product_configurations_availability_days();

-- Only a closed date matters here (per-date rates and minimum stays are read with the nights, for the units left).
CREATE FUNCTION staykit_internal.price_calendar_entries_availability_days() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM staykit_internal.refresh_availability_days(array_agg(product_id), array_agg(date), array_agg(date + 1))
    FROM new_rows;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM staykit_internal.refresh_availability_days(array_agg(product_id), array_agg(date), array_agg(date + 1))
    FROM old_rows;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER availability_days_insert AFTER INSERT ON api.price_calendar_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.price_calendar_entries_availability_days();
CREATE TRIGGER availability_days_update AFTER UPDATE ON api.price_calendar_entries
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.price_calendar_entries_availability_days();
CREATE TRIGGER availability_days_delete AFTER DELETE ON api.price_calendar_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.price_calendar_entries_availability_days();

-- A new product gets its horizon; a changed cooldown or pricing definition changes every date's cooldown.
-- (Deleting a product deletes its rows: ON DELETE CASCADE. A move under another parent rewrites unit_blocks.)
CREATE FUNCTION staykit_internal.products_availability_days() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO staykit_internal.availability_days
    SELECT c.* FROM (SELECT array_agg(id) AS products, array_agg(current_date - 1) AS firsts,
                            array_agg(current_date + 400) AS untils FROM new_rows) AS s
    CROSS JOIN LATERAL staykit_internal.availability_days_of(s.products, s.firsts, s.untils) AS c;
  ELSE
    PERFORM staykit_internal.refresh_availability_days(array_agg(n.id), array_agg(NULL::date), array_agg(NULL::date))
    FROM old_rows AS o JOIN new_rows AS n ON n.id = o.id
    WHERE (o.cooldown_time, o.rent_pricing_definition) IS DISTINCT FROM (n.cooldown_time, n.rent_pricing_definition);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER availability_days_insert AFTER INSERT ON api.products REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.products_availability_days();
CREATE TRIGGER availability_days_update AFTER UPDATE ON api.products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.products_availability_days();

REVOKE ALL ON FUNCTION staykit_internal.availability_days_of(uuid[], date[], date[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.refresh_availability_days(uuid[], date[], date[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.roll_availability_days(date) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.calendar_events_availability_days() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.unit_blocks_availability_days() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.product_configurations_availability_days() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.price_calendar_entries_availability_days() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.products_availability_days() FROM PUBLIC;

-- The products there already.
SELECT staykit_internal.roll_availability_days(current_date);
