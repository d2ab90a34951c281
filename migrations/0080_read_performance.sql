-- Read performance of tenant-scoped reads and of the booking flow's availability.

-- The tenant predicate of reads as an InitPlan: `(SELECT current_organization_id())` is evaluated once per statement,
-- where the inlined function was evaluated (current_setting and a uuid cast) for every row a scan looked at. Writes
-- keep the WITH CHECK of 0011: it is evaluated once per written row either way.
DO $$
DECLARE
  p record;
BEGIN
  FOR p IN
    SELECT n.nspname, c.relname, CASE WHEN c.oid = 'api.organizations'::regclass THEN 'id' ELSE 'organization_id' END AS col
    FROM pg_policy AS pol
    JOIN pg_class AS c ON c.oid = pol.polrelid
    JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE pol.polname = 'tenant_isolation'
    ORDER BY n.nspname, c.relname
  LOOP
    EXECUTE format(
      'ALTER POLICY tenant_isolation ON %1$I.%2$I USING (%3$I = (SELECT staykit_internal.current_organization_id()))',
      p.nspname, p.relname, p.col);
  END LOOP;
END
$$;

-- The booking flow reads the events that block a product from a date on (availability, search, quote, book): by
-- product and start date, for exactly the rows the no-overlap constraint covers, without visiting the table.
-- organization_id leads so the tenant predicate is part of the same index scan: on its own, the organization index
-- would otherwise be ANDed in and read every event of a large tenant for each product.
CREATE INDEX calendar_events_blocking_idx ON api.calendar_events (organization_id, product_id, start_date)
  INCLUDE (id, end_date, padding, status, type)
  WHERE status <> 'CANCELLED' AND type IN ('booking', 'blocked period');

-- A tenant's calendar by date (the calendar views, `order=start_date` lists): walked in date order and stopped at
-- the page size instead of reading and sorting all of a large tenant's events. It also serves every lookup by
-- organization alone, so it replaces that index.
CREATE INDEX calendar_events_organization_start_idx ON api.calendar_events (organization_id, start_date);
DROP INDEX api.calendar_events_organization_id_idx;
