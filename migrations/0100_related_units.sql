-- Related units share availability (docs/booking.md#related-units).
--
-- A unit with a parent (products.parent_id: "room 1" of "the whole villa") cannot be rented on the same night as its
-- parent, and a parent not on the same night as any of its descendants; siblings ("room 1", "room 2") can. The rule
-- holds for every writer (the booking flow, carts, the iCal import, POST/PATCH /calendar_events, psql) because it
-- is an exclusion constraint, and an exclusion constraint also settles concurrent writers: the second insert waits
-- for the first transaction and then fails with 23P01.
--
-- calendar_events_no_overlap compares the events of one unit only, so each blocking event of a unit that has
-- relatives is materialised, by triggers, as one row per unit it blocks in staykit_internal.unit_blocks: its own
-- unit (relation 'self'), every ancestor ('descendant': the event is on a descendant of that unit) and every
-- descendant ('ancestor'). Two rows of one unit conflict when their blocked ranges meet and their relations differ:
-- self/descendant is a parent's stay against a child's, self/ancestor the other way round, ancestor/descendant a
-- grandparent's stay against a grandchild's. Rows with the same relation never conflict: 'descendant' rows of one
-- parent are its children's stays, which may overlap each other; two 'self' rows are the unit's own events, which
-- calendar_events_no_overlap already keeps apart. Units without relatives get no rows at all.
--
-- Moving a unit (UPDATE of parent_id) recomputes the rows of every event in the trees it leaves and joins, in the
-- same statement: overlapping stays refuse the move with 23P01 (409). A parent chain that loops is refused (23514).

CREATE TABLE staykit_internal.unit_blocks (
  organization_id uuid NOT NULL,
  event_id uuid NOT NULL,
  unit_id uuid NOT NULL,
  relation text NOT NULL CHECK (relation IN ('self', 'ancestor', 'descendant')),
  product_id uuid NOT NULL,
  start_date date NOT NULL,
  end_date date NOT NULL,
  padding smallint NOT NULL,
  status text NOT NULL,
  type text NOT NULL,
  PRIMARY KEY (event_id, organization_id, unit_id),
  CONSTRAINT unit_blocks_event_fkey FOREIGN KEY (event_id, organization_id)
    REFERENCES api.calendar_events (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT unit_blocks_no_overlap EXCLUDE USING gist (
    organization_id WITH =,
    unit_id WITH =,
    daterange(start_date, end_date + padding, '[)') WITH &&,
    relation WITH <>
  )
);
-- The booking flow's reads: a unit's blocks from its relatives, by date.
CREATE INDEX unit_blocks_unit_idx ON staykit_internal.unit_blocks (organization_id, unit_id, start_date)
  INCLUDE (event_id, product_id, end_date, padding, status, type) WHERE relation <> 'self';
COMMENT ON TABLE staykit_internal.unit_blocks IS
  'Each blocking calendar event of a unit with a parent or children, once per unit it blocks (its own, its '
  'ancestors, its descendants); unit_blocks_no_overlap keeps related units'' stays apart. Maintained by triggers.';

ALTER TABLE staykit_internal.unit_blocks ENABLE ROW LEVEL SECURITY;
ALTER TABLE staykit_internal.unit_blocks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON staykit_internal.unit_blocks FOR SELECT TO staykit_api
  USING (organization_id = (SELECT staykit_internal.current_organization_id()));
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_access ON staykit_internal.unit_blocks TO %I USING (true) WITH CHECK (true)',
                 current_user);
END
$$;
GRANT SELECT ON staykit_internal.unit_blocks TO staykit_api;

-- ---------------------------------------------------------------------------------------------------------------
-- The units related to one unit: ancestors and descendants, with the relation of `unit` to each of them. A loop
-- in parent_id cannot exist (refused below), the depth bound is a second guard.

CREATE FUNCTION staykit_internal.related_units(organization uuid, unit uuid)
RETURNS TABLE (related_id uuid, relation text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH RECURSIVE up AS (
    SELECT p.parent_id AS id, 1 AS depth FROM api.products AS p
    WHERE p.organization_id = organization AND p.id = unit AND p.parent_id IS NOT NULL
    UNION ALL
    SELECT p.parent_id, up.depth + 1 FROM up JOIN api.products AS p ON p.organization_id = organization AND p.id = up.id
    WHERE p.parent_id IS NOT NULL AND up.depth < 64
  ), down AS (
    SELECT p.id, 1 AS depth FROM api.products AS p WHERE p.organization_id = organization AND p.parent_id = unit
    UNION ALL
    SELECT p.id, down.depth + 1 FROM down JOIN api.products AS p ON p.organization_id = organization AND p.parent_id = down.id
    WHERE down.depth < 64
  )
  SELECT id, 'descendant' FROM up
  UNION
  SELECT id, 'ancestor' FROM down
$$;
COMMENT ON FUNCTION staykit_internal.related_units(uuid, uuid) IS
  'Ancestors (relation descendant: the unit is their descendant) and descendants (relation ancestor) of a unit.';

-- Rewrites the unit_blocks rows of one event. An overlap with a related unit's stay is 23P01 with a message that
-- names the stay it meets (the bare constraint error would only show index values).
CREATE FUNCTION staykit_internal.refresh_unit_blocks(event api.calendar_events) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  conflict record;
BEGIN
  DELETE FROM staykit_internal.unit_blocks WHERE organization_id = event.organization_id AND event_id = event.id;
  IF event.status = 'CANCELLED' OR event.type NOT IN ('booking', 'blocked period') THEN
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM staykit_internal.related_units(event.organization_id, event.product_id)) THEN
    RETURN;
  END IF;
  BEGIN
    INSERT INTO staykit_internal.unit_blocks
      (organization_id, event_id, unit_id, relation, product_id, start_date, end_date, padding, status, type)
    SELECT event.organization_id, event.id, r.related_id, r.relation, event.product_id, event.start_date,
           event.end_date, event.padding, event.status, event.type
    FROM (SELECT event.product_id AS related_id, 'self' AS relation
          UNION ALL
          SELECT related_id, relation FROM staykit_internal.related_units(event.organization_id, event.product_id)) AS r;
  EXCEPTION WHEN exclusion_violation THEN
    SELECT b.product_id, b.start_date, b.end_date, b.padding INTO conflict
    FROM staykit_internal.unit_blocks AS b
    JOIN staykit_internal.related_units(event.organization_id, event.product_id) AS r ON r.related_id = b.product_id
    WHERE b.organization_id = event.organization_id AND b.relation = 'self' AND b.event_id <> event.id
      AND daterange(b.start_date, b.end_date + b.padding) && daterange(event.start_date, event.end_date + event.padding)
    ORDER BY b.start_date LIMIT 1;
    RAISE EXCEPTION 'the dates overlap a stay on a related unit (parent or child)'
      USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'unit_blocks_no_overlap',
            DETAIL = CASE WHEN conflict IS NULL THEN NULL ELSE format(
              'product %s is taken from %s to %s%s', conflict.product_id, conflict.start_date, conflict.end_date,
              CASE WHEN conflict.padding > 0 THEN format(' (+%s days cooldown)', conflict.padding) ELSE '' END) END;
  END;
END
$$;
COMMENT ON FUNCTION staykit_internal.refresh_unit_blocks(api.calendar_events) IS
  'Rewrites the unit_blocks rows of one calendar event; 23P01 when it meets a related unit''s stay.';

CREATE FUNCTION staykit_internal.calendar_events_unit_blocks() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM staykit_internal.refresh_unit_blocks(NEW);
  RETURN NULL;
END
$$;
-- Deletions: the rows go with their event (ON DELETE CASCADE).
CREATE TRIGGER unit_blocks AFTER INSERT OR UPDATE OF product_id, start_date, end_date, padding, status, type
  ON api.calendar_events FOR EACH ROW EXECUTE FUNCTION staykit_internal.calendar_events_unit_blocks();

-- ---------------------------------------------------------------------------------------------------------------
-- Moving a unit: no loops, and the stays of the trees it leaves and joins are re-checked.

CREATE FUNCTION staykit_internal.products_check_parent() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.parent_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM staykit_internal.related_units(NEW.organization_id, NEW.parent_id) AS r
    WHERE r.related_id = NEW.id AND r.relation = 'descendant'
  ) THEN
    RAISE EXCEPTION 'product % cannot be placed under %: that unit is already one of its descendants', NEW.id, NEW.parent_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'products_parent_no_cycle';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER check_parent BEFORE UPDATE OF parent_id ON api.products
  FOR EACH ROW WHEN (NEW.parent_id IS DISTINCT FROM OLD.parent_id)
  EXECUTE FUNCTION staykit_internal.products_check_parent();

CREATE FUNCTION staykit_internal.products_refresh_unit_blocks() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  old_parent uuid;
  family uuid[];
  event api.calendar_events;
  met text;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    old_parent := OLD.parent_id;
  END IF;
  -- Every unit whose relatives may have changed: the unit, its relatives now, its old parent and that parent's
  -- relatives. Their rows go first, so only the stays that meet in the new family can conflict.
  SELECT array_agg(DISTINCT unit) INTO family FROM (
    SELECT NEW.id AS unit
    UNION ALL SELECT related_id FROM staykit_internal.related_units(NEW.organization_id, NEW.id)
    UNION ALL SELECT old_parent WHERE old_parent IS NOT NULL
    UNION ALL SELECT related_id FROM staykit_internal.related_units(NEW.organization_id, old_parent)
    WHERE old_parent IS NOT NULL
  ) AS units;
  DELETE FROM staykit_internal.unit_blocks AS b
  WHERE b.organization_id = NEW.organization_id AND b.product_id = ANY (family);
  FOR event IN
    SELECT e.* FROM api.calendar_events AS e
    WHERE e.organization_id = NEW.organization_id AND e.product_id = ANY (family)
      AND e.status <> 'CANCELLED' AND e.type IN ('booking', 'blocked period')
    ORDER BY e.start_date, e.id
  LOOP
    BEGIN
      PERFORM staykit_internal.refresh_unit_blocks(event);
    EXCEPTION WHEN exclusion_violation THEN
      GET STACKED DIAGNOSTICS met = PG_EXCEPTION_DETAIL;
      RAISE EXCEPTION 'product % cannot be placed under %: stays of related units would overlap', NEW.id, NEW.parent_id
        USING ERRCODE = 'exclusion_violation', CONSTRAINT = 'unit_blocks_no_overlap',
              DETAIL = format('the stay of product %s from %s to %s meets another: %s', event.product_id,
                              event.start_date, event.end_date, coalesce(met, 'a stay of a related unit')),
              HINT = 'Cancel or move one of the overlapping stays first.';
    END;
  END LOOP;
  RETURN NULL;
END
$$;
CREATE TRIGGER refresh_unit_blocks AFTER UPDATE OF parent_id ON api.products
  FOR EACH ROW WHEN (NEW.parent_id IS DISTINCT FROM OLD.parent_id)
  EXECUTE FUNCTION staykit_internal.products_refresh_unit_blocks();
CREATE TRIGGER refresh_unit_blocks_on_insert AFTER INSERT ON api.products
  FOR EACH ROW WHEN (NEW.parent_id IS NOT NULL)
  EXECUTE FUNCTION staykit_internal.products_refresh_unit_blocks();

REVOKE ALL ON FUNCTION staykit_internal.related_units(uuid, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.refresh_unit_blocks(api.calendar_events) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.calendar_events_unit_blocks() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.products_check_parent() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.products_refresh_unit_blocks() FROM PUBLIC;

-- Units that already have relatives: their current events.
DO $$
DECLARE
  event api.calendar_events;
BEGIN
  FOR event IN
    SELECT e.* FROM api.calendar_events AS e
    WHERE e.status <> 'CANCELLED' AND e.type IN ('booking', 'blocked period')
      AND EXISTS (SELECT 1 FROM staykit_internal.related_units(e.organization_id, e.product_id))
    ORDER BY e.organization_id, e.start_date, e.id
  LOOP
    PERFORM staykit_internal.refresh_unit_blocks(event);
  END LOOP;
END
$$;
