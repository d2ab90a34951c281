-- A product id is unique per organization only (an id used by A is free in B: tenant-scoped keys, migration 0080),
-- and availability_days_of takes bare product ids: for a new product of B with an id A also uses, it computes the
-- days of both organizations' products, each from its own organization's rows. Adding them for A again broke the
-- insert of B's product (duplicate key). A's rows are the ones it already has, so they are skipped.
CREATE OR REPLACE FUNCTION staykit_internal.products_availability_days() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO staykit_internal.availability_days
    SELECT c.* FROM (SELECT array_agg(id) AS products, array_agg(current_date - 1) AS firsts,
                            array_agg(current_date + staykit_internal.availability_horizon_days()) AS untils
                     FROM new_rows) AS s
    CROSS JOIN LATERAL staykit_internal.availability_days_of(s.products, s.firsts, s.untils) AS c
    ON CONFLICT DO NOTHING;
  ELSE
    PERFORM staykit_internal.refresh_availability_days(array_agg(n.id), array_agg(NULL::date), array_agg(NULL::date))
    FROM old_rows AS o JOIN new_rows AS n ON n.id = o.id
    WHERE (o.cooldown_time, o.rent_pricing_definition) IS DISTINCT FROM (n.cooldown_time, n.rent_pricing_definition);
  END IF;
  RETURN NULL;
END
$$;
