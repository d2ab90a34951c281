-- POST /v1/create-product takes the columns of api.products the rules of 0221 make insertable — written once, in
-- staykit_internal.api_access — instead of a list of its own that src/booking/create-product.ts repeated (0060's
-- list had missed pricelabs_enabled and cancellation_policy, added later). A column a later migration adds to products
-- is settable here at once; one not to be given on create gets a rule (insertable false), as deleted_at and the iCal
-- secrets have. A field outside the list is refused here, 400 SK601 naming it, with the list in DETAIL: the server
-- keeps no copy.

CREATE OR REPLACE FUNCTION staykit_internal.create_product(fields jsonb) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  settable constant text[] := ARRAY(SELECT x.column_name FROM staykit_internal.api_column_access('api.products') AS x
                                    WHERE x.insertable ORDER BY x.column_name);
  refused text[];
  columns text;
  result jsonb;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  refused := ARRAY(SELECT k FROM jsonb_object_keys(fields) AS k WHERE k <> ALL (settable) ORDER BY k);
  IF cardinality(refused) > 0 THEN
    RAISE EXCEPTION 'Unknown or server-owned field%: %', CASE WHEN cardinality(refused) > 1 THEN 's' ELSE '' END,
      array_to_string(refused, ', ')
      USING ERRCODE = 'SK601', DETAIL = 'create-product takes: ' || array_to_string(settable, ', ');
  END IF;
  SELECT string_agg(quote_ident(k), ', ' ORDER BY k) INTO columns FROM jsonb_object_keys(fields) AS k;
  IF columns IS NULL THEN
    columns := 'name';
  END IF;
  EXECUTE format(
    'INSERT INTO api.products (organization_id, %1$s) SELECT $2, %1$s FROM jsonb_populate_record(NULL::api.products, $1) '
    'RETURNING to_jsonb(products.*) - ''fts''', columns)
  INTO result USING fields, org;
  RETURN result - staykit_internal.columns_hidden_from(current_setting('role'), 'api.products');
END
$$;
