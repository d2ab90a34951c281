-- A unit's iCal export secrets are credentials (docs/ical.md#who-may-read-the-secrets). Whoever holds
-- ical_export_secret reads the unit's calendar with every guest's name and booking reference; whoever holds
-- ical_export_secret_no_details reads its booked and blocked dates. So a secret is readable only by a principal that
-- may read that content and manage the unit:
--
--   ical_export_secret_no_details  products:write and calendar_events:read
--   ical_export_secret             products:write and calendar_events, bookings, contacts, contact_bookings :read
--
-- The database holds this with column privileges, where every route of the API goes through (select=*, a named
-- column, embeds at any depth, filters and orders on the column, returned rows): the API role staykit_api may no
-- longer read either column (as webhooks.signing_secret, migration 0052), and two roles that inherit everything of
-- staykit_api may read one or both. An API transaction takes the role its principal's scopes allow
-- (src/transaction/api-role.ts); nothing else changes between the three roles.

-- Roles are cluster-wide and several databases may migrate at once: create each only when missing, and treat
-- losing the race as success (as migration 0011 does for staykit_api).
DO $$
DECLARE
  role_name text;
BEGIN
  FOREACH role_name IN ARRAY ARRAY['staykit_api_ical', 'staykit_api_ical_details'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role_name) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I NOLOGIN', role_name);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL;
      END;
    END IF;
  END LOOP;
END
$$;

-- member → role: each secret role inherits the API role (its privileges and, through has_privs_of_role, every
-- policy written TO staykit_api); and the server's own user takes them as it takes staykit_api (SET LOCAL ROLE),
-- so it must be a member (docs/deployment.md#postgresql).
DO $$
DECLARE
  membership record;
BEGIN
  FOR membership IN
    SELECT * FROM (VALUES ('staykit_api', 'staykit_api_ical'), ('staykit_api_ical', 'staykit_api_ical_details'),
                          ('staykit_api_ical', current_user::text), ('staykit_api_ical_details', current_user::text))
      AS m (granted, member)
  LOOP
    IF NOT pg_has_role(membership.member, membership.granted, 'MEMBER') THEN
      BEGIN
        EXECUTE format('GRANT %I TO %I', membership.granted, membership.member);
      EXCEPTION WHEN unique_violation THEN
        NULL;
      END;
    END IF;
  END LOOP;
END
$$;

-- staykit_api reads every column of products but the two secrets; each secret role adds its column(s).
REVOKE SELECT ON api.products FROM staykit_api;
DO $$
BEGIN
  EXECUTE (
    SELECT format('GRANT SELECT (%s) ON api.products TO staykit_api', string_agg(quote_ident(attname), ', ' ORDER BY attnum))
    FROM pg_attribute
    WHERE attrelid = 'api.products'::regclass AND attnum > 0 AND NOT attisdropped
      AND attname NOT IN ('ical_export_secret', 'ical_export_secret_no_details')
  );
END
$$;
GRANT SELECT (ical_export_secret_no_details) ON api.products TO staykit_api_ical;
GRANT SELECT (ical_export_secret) ON api.products TO staykit_api_ical_details;

-- Rotating or choosing a secret (PATCH to null issues a new one, migration 0003) takes the right to read it: whoever
-- sets a value of their own knows it, and a rotation answers with the new one. The API role keeps UPDATE on both
-- columns (so the API offers them), and this trigger, running as the request's role, refuses the change of a secret
-- that role may not read. Transactions that never take an API role (the CLI, migrations) are the owner: allowed.
CREATE FUNCTION staykit_internal.products_guard_ical_secrets() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  secret text;
BEGIN
  FOREACH secret IN ARRAY ARRAY['ical_export_secret', 'ical_export_secret_no_details'] LOOP
    IF (to_jsonb(NEW) -> secret) IS DISTINCT FROM (to_jsonb(OLD) -> secret)
       AND NOT has_column_privilege(current_user, 'api.products'::regclass, secret, 'SELECT') THEN
      RAISE EXCEPTION 'permission denied to change products.%, a secret this request may not read', secret
        USING ERRCODE = '42501',
              HINT = 'Rotating an iCal export secret takes the scopes that may read it (docs/ical.md#who-may-read-the-secrets)';
    END IF;
  END LOOP;
  RETURN NEW;
END
$$;
CREATE TRIGGER products_guard_ical_secrets BEFORE UPDATE OF ical_export_secret, ical_export_secret_no_details
  ON api.products FOR EACH ROW EXECUTE FUNCTION staykit_internal.products_guard_ical_secrets();
REVOKE EXECUTE ON FUNCTION staykit_internal.products_guard_ical_secrets() FROM PUBLIC;

-- The columns of a table a role may not read, to leave out of rows that SECURITY DEFINER functions hand to it (they
-- read as the owner). role_name is the request's role (current_setting('role') inside such a function: SECURITY
-- DEFINER changes the current user, not that setting); 'none' or '' is the owner's own session: nothing is hidden.
CREATE FUNCTION staykit_internal.columns_hidden_from(role_name text, target regclass) RETURNS text[]
LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(a.attname::text ORDER BY a.attnum), '{}')
  FROM pg_attribute AS a
  WHERE role_name NOT IN ('none', '') AND a.attrelid = target AND a.attnum > 0 AND NOT a.attisdropped
    AND NOT has_column_privilege(role_name, target, a.attnum, 'SELECT')
$$;
COMMENT ON FUNCTION staykit_internal.columns_hidden_from(text, regclass) IS
  'The columns of target that role_name may not SELECT (none for the owner''s session, role none).';
REVOKE EXECUTE ON FUNCTION staykit_internal.columns_hidden_from(text, regclass) FROM PUBLIC;

-- POST /v1/create-product answers with the new row: without the columns the request's role may not read.
CREATE OR REPLACE FUNCTION staykit_internal.create_product(fields jsonb) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  settable constant text[] := ARRAY[
    'id', 'ac_id', 'parent_id', 'approximate_address', 'approximate_coordinates',
    'cancel_after_initial_payment_error', 'confirm_after_initial_payment', 'confirmation_message', 'cooldown_time',
    'cta', 'currency', 'description', 'exact_address', 'exact_coordinates', 'hide_exact_address', 'images',
    'interaction', 'latest_arrival_time', 'name', 'price_breakdown_specificity', 'rent_period',
    'rent_pricing_definition', 'request_status', 'timezone'];
  columns text;
  result jsonb;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  SELECT string_agg(quote_ident(k), ', ' ORDER BY k) INTO columns
  FROM jsonb_object_keys(fields) AS k WHERE k = ANY (settable);
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

COMMENT ON COLUMN api.products.ical_export_secret IS
  'Secret of the iCal feed with guest names and booking references (GET /v1/ical/<secret>.ics); generated when '
  'absent, regenerated when set to null. Readable and changeable with products:write and read access to '
  'calendar_events, bookings, contacts and contact_bookings.';
COMMENT ON COLUMN api.products.ical_export_secret_no_details IS
  'Secret of the iCal feed without booking details (booked and blocked dates); generated when absent, regenerated '
  'when set to null. Readable and changeable with products:write and calendar_events read access.';
