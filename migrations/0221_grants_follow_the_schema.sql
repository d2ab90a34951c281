-- The API role's privileges follow the schema (docs/schema.md#who-may-read-and-write-what). Until now a migration
-- that added a column or a table had to re-run staykit_internal.grant_api_access (0011) or grant the column by hand,
-- and forgetting it failed silently: the column could not be written (or, on a column-granted table such as products,
-- not even read). Now the privileges of staykit_api on every table of schema `api` are computed from the catalog and
-- one rule table, by one function that the migration runner (src/db/migrate.ts) calls after every run of migrations.
-- A migration adds its table or column and nothing else; only an exception to the defaults is written, once, as a
-- row of staykit_internal.api_access.
--
-- The defaults: on a table, SELECT, INSERT, UPDATE and DELETE; every column readable, insertable and updatable —
-- except that organization_id, created_at and updated_at are never written, id is never updated (the rows with
-- table '*' below) and generated columns are never written (a fact of the catalog). A table that would get any
-- privilege must have row-level security enabled, else the run fails (granting would show every organization's rows).
--
-- The rules (staykit_internal.api_access), most specific first — (table, column), ('*', column), (table, '*'):
--   - a row (table, '*') with `operations`: the table's operations, e.g. '{SELECT}' for a log; leave INSERT out for a
--     table whose rows are created by a function (products: create_product, which takes the insertable columns);
--   - readable / insertable / updatable false on a row (table, column): that column is not read / not given on
--     create / not changed by the API role; on a row (table, '*'): the default for the table's other columns;
--   - `why` says why, for the next reader.
-- A rule naming a table or column that does not exist fails the run (a renamed or dropped column takes its rule).
-- Roles that inherit staykit_api and add a privilege of their own (the iCal secret roles, 0205) keep their grants.
--
-- Why the runner and not an event trigger on ddl_command_end: creating an event trigger takes a superuser on
-- PostgreSQL 15, and Staykit's database user needs only to own its schemas (docs/deployment.md#postgresql).

CREATE TABLE staykit_internal.api_access (
  table_name text NOT NULL,
  column_name text NOT NULL,
  operations text[] CONSTRAINT api_access_operations
    CHECK (operations IS NULL OR (operations <@ ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE'] AND column_name = '*'
                                  AND table_name <> '*')),
  readable boolean,
  insertable boolean,
  updatable boolean,
  why text NOT NULL CONSTRAINT api_access_why CHECK (btrim(why) <> ''),
  PRIMARY KEY (table_name, column_name),
  CONSTRAINT api_access_not_everything CHECK (NOT (table_name = '*' AND column_name = '*'))
);
COMMENT ON TABLE staykit_internal.api_access IS
  'Exceptions to the API role''s default privileges on schema api (migration 0221): a table''s operations, a column '
  'not readable, insertable or updatable. ''*'' as table: every table; as column: the table''s default.';
REVOKE ALL ON staykit_internal.api_access FROM PUBLIC;

-- What the API role may do with each column of `target`, by the rules above (for the grants, and for functions that
-- create rows instead of the API role, such as create_product).
CREATE FUNCTION staykit_internal.api_column_access(target regclass)
RETURNS TABLE (column_name text, readable boolean, insertable boolean, updatable boolean)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT a.attname::text,
         coalesce(exact.readable, every_table.readable, table_default.readable, true),
         a.attgenerated = '' AND coalesce(exact.insertable, every_table.insertable, table_default.insertable, true),
         a.attgenerated = '' AND coalesce(exact.updatable, every_table.updatable, table_default.updatable, true)
  FROM pg_attribute AS a
  JOIN pg_class AS c ON c.oid = a.attrelid
  LEFT JOIN staykit_internal.api_access AS exact ON exact.table_name = c.relname::text AND exact.column_name = a.attname::text
  LEFT JOIN staykit_internal.api_access AS every_table ON every_table.table_name = '*' AND every_table.column_name = a.attname::text
  LEFT JOIN staykit_internal.api_access AS table_default ON table_default.table_name = c.relname::text AND table_default.column_name = '*'
  WHERE a.attrelid = target AND a.attnum > 0 AND NOT a.attisdropped
  ORDER BY a.attnum
$$;
COMMENT ON FUNCTION staykit_internal.api_column_access(regclass) IS
  'Per column of an api table: whether the API role may read, insert and update it (staykit_internal.api_access).';
REVOKE EXECUTE ON FUNCTION staykit_internal.api_column_access(regclass) FROM PUBLIC;

-- (Re)computes staykit_api's privileges on every table of schema api from api_access and the catalog.
CREATE FUNCTION staykit_internal.apply_api_grants() RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  all_operations constant text[] := ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE'];
  dangling text;
  t record;
  operations text[];
  readable text;
  unreadable boolean;
  insertable text;
  updatable text;
BEGIN
  SELECT string_agg(format('(%s, %s)', r.table_name, r.column_name), ', ' ORDER BY r.table_name, r.column_name)
  INTO dangling
  FROM staykit_internal.api_access AS r
  WHERE (r.table_name <> '*' AND to_regclass(format('api.%I', r.table_name)) IS NULL)
     OR (r.column_name <> '*' AND NOT EXISTS (
           SELECT 1 FROM pg_attribute AS a JOIN pg_class AS c ON c.oid = a.attrelid
           WHERE c.relnamespace = 'api'::regnamespace AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
             AND a.attname::text = r.column_name AND (r.table_name = '*' OR c.relname::text = r.table_name)));
  IF dangling IS NOT NULL THEN
    RAISE EXCEPTION 'staykit_internal.api_access has rules for tables or columns that do not exist: %', dangling
      USING HINT = 'Delete or rename the rule in the migration that drops or renames the table or column';
  END IF;

  FOR t IN
    SELECT c.oid, c.oid::regclass AS target, c.relname::text AS name, c.relrowsecurity
    FROM pg_class AS c
    WHERE c.relnamespace = 'api'::regnamespace AND c.relkind IN ('r', 'p')
    ORDER BY c.relname
  LOOP
    operations := coalesce((SELECT r.operations FROM staykit_internal.api_access AS r
                            WHERE r.table_name = t.name AND r.column_name = '*'), all_operations);
    EXECUTE format('REVOKE ALL ON %s FROM staykit_api', t.target);
    CONTINUE WHEN cardinality(operations) = 0;
    IF NOT t.relrowsecurity THEN
      RAISE EXCEPTION 'api.% has no row-level security: the API role would see every organization''s rows', t.name
        USING HINT = 'ALTER TABLE … ENABLE ROW LEVEL SECURITY with its policies (docs/schema.md#who-may-read-and-write-what), '
                     'or give it no operations in staykit_internal.api_access';
    END IF;
    SELECT string_agg(quote_ident(x.column_name), ', ') FILTER (WHERE x.readable),
           bool_or(NOT x.readable),
           string_agg(quote_ident(x.column_name), ', ') FILTER (WHERE x.insertable),
           string_agg(quote_ident(x.column_name), ', ') FILTER (WHERE x.updatable)
    INTO readable, unreadable, insertable, updatable
    FROM staykit_internal.api_column_access(t.target) AS x;
    IF 'SELECT' = ANY (operations) AND NOT coalesce(unreadable, false) THEN
      EXECUTE format('GRANT SELECT ON %s TO staykit_api', t.target);
    ELSIF 'SELECT' = ANY (operations) AND readable IS NOT NULL THEN
      EXECUTE format('GRANT SELECT (%s) ON %s TO staykit_api', readable, t.target);
    END IF;
    IF 'INSERT' = ANY (operations) AND insertable IS NOT NULL THEN
      EXECUTE format('GRANT INSERT (%s) ON %s TO staykit_api', insertable, t.target);
    END IF;
    IF 'UPDATE' = ANY (operations) AND updatable IS NOT NULL THEN
      EXECUTE format('GRANT UPDATE (%s) ON %s TO staykit_api', updatable, t.target);
    END IF;
    IF 'DELETE' = ANY (operations) THEN
      EXECUTE format('GRANT DELETE ON %s TO staykit_api', t.target);
    END IF;
  END LOOP;
END
$$;
COMMENT ON FUNCTION staykit_internal.apply_api_grants() IS
  'Migration runner: (re)grants staykit_api its privileges on every api table from staykit_internal.api_access.';
REVOKE EXECUTE ON FUNCTION staykit_internal.apply_api_grants() FROM PUBLIC;

-- The rules: what 0011 and later migrations granted by hand, written once. ------------------------------------------
INSERT INTO staykit_internal.api_access (table_name, column_name, operations, readable, insertable, updatable, why) VALUES
  -- Every table.
  ('*', 'organization_id', NULL, NULL, false, false, 'the request''s organization, set by the database'),
  ('*', 'created_at', NULL, NULL, false, false, 'set by the database'),
  ('*', 'updated_at', NULL, NULL, false, false, 'set by the database (external_calendars: by the iCal sync)'),
  ('*', 'id', NULL, NULL, NULL, false, 'a row keeps its id; a client may choose it on create'),
  -- Read-only: logs, analytics, and what the booking flow or integrations write.
  ('api_requests', '*', '{SELECT}', NULL, NULL, NULL, 'the request log'),
  ('booking_imports', '*', '{SELECT}', NULL, NULL, NULL, 'written by POST /v1/import-booking only (0105)'),
  ('booking_updates', '*', '{SELECT}', NULL, NULL, NULL, 'the history of a booking'),
  ('calendar_event_notes', '*', '{SELECT}', NULL, NULL, NULL, 'read-only in the spec'),
  ('calendar_event_updates', '*', '{SELECT}', NULL, NULL, NULL, 'the history of a calendar event'),
  ('coupon_uses', '*', '{SELECT}', NULL, NULL, NULL, 'written by the booking flow'),
  ('message_events', '*', '{SELECT}', NULL, NULL, NULL, 'delivery events of messages'),
  ('organization_calendar_logs', '*', '{SELECT}', NULL, NULL, NULL, 'a log'),
  ('paddle_plans', '*', '{SELECT}', NULL, NULL, NULL, 'a global catalogue'),
  ('paddle_subscriptions', '*', '{SELECT}', NULL, NULL, NULL, 'written by the Paddle integration'),
  ('product_calendar_logs', '*', '{SELECT}', NULL, NULL, NULL, 'a log'),
  ('site_views', '*', '{SELECT}', NULL, NULL, NULL, 'analytics, written by the site renderer'),
  ('webhook_notifications', '*', '{SELECT}', NULL, NULL, NULL, 'moved by the delivery worker'),
  ('widget_analytics', '*', '{SELECT}', NULL, NULL, NULL, 'analytics, written by widgets'),
  -- Bookings are created by the booking flow; what the database records about them is its own.
  ('bookings', '*', '{SELECT,UPDATE,DELETE}', NULL, NULL, NULL, 'created by the booking flow (create_booking)'),
  ('bookings', 'reference', NULL, NULL, false, false, 'generated'),
  ('bookings', 'confirmed_at', NULL, NULL, false, false, 'set when the booking''s event is confirmed'),
  ('bookings', 'cancelled_at', NULL, NULL, false, false, 'set when the booking''s event is cancelled (0102)'),
  ('bookings', 'cancelled_by', NULL, NULL, false, false, 'set when the booking''s event is cancelled (0102)'),
  ('bookings', 'terms_accepted_at', NULL, NULL, false, false,
   'set by the database when the guest accepted the booking terms (0225, which adds the column)'),
  -- Products are created by POST /v1/create-product (create_product takes the insertable columns) and soft deleted
  -- by PATCHing deleted_at.
  ('products', '*', '{SELECT,UPDATE}', NULL, NULL, NULL, 'created by POST /v1/create-product'),
  ('products', 'deleted_at', NULL, NULL, false, NULL, 'a unit is created live; PATCH deleted_at deletes it'),
  ('products', 'ical_export_secret', NULL, false, false, NULL,
   'a credential: read by the iCal secret roles only (0205); generated on create, rotated or chosen by PATCH'),
  ('products', 'ical_export_secret_no_details', NULL, false, false, NULL,
   'a credential: read by the iCal secret roles only (0205); generated on create, rotated or chosen by PATCH'),
  -- The organization itself: read, and rename or change its settings.
  ('organizations', '*', '{SELECT,UPDATE}', NULL, NULL, false, 'the organization''s own row: only what is listed may change'),
  ('organizations', 'name', NULL, NULL, NULL, true, 'the organization may rename itself'),
  ('organizations', 'settings', NULL, NULL, NULL, true, 'the organization''s settings'),
  -- Profiles mirror the identity system: the organization may edit how a user is shown, not who they are.
  ('user_profiles', '*', '{SELECT,UPDATE}', NULL, NULL, NULL, 'made when a user joins the organization'),
  ('user_profiles', 'user_id', NULL, NULL, NULL, false, 'the identity of the user'),
  -- Columns the server writes.
  ('calendar_events', 'generated_title', NULL, NULL, false, false, 'written by the booking flow from the unit and guest names'),
  ('calendar_event_tasks', 'notification_sent_at', NULL, NULL, false, false, 'written by the notifier'),
  ('coupons', 'deleted_at', NULL, NULL, false, false, 'set by DELETE (a soft delete)'),
  ('external_calendars', 'last_synced', NULL, NULL, false, false, 'written by the iCal sync'),
  ('external_calendars', 'error', NULL, NULL, false, false, 'written by the iCal sync'),
  ('external_calendars', 'tld', NULL, NULL, false, false, 'written by the iCal sync'),
  ('invoices', 'number', NULL, NULL, false, false, 'numbered by the database when issued (0121)'),
  ('invoices', 'total', NULL, NULL, false, false, 'the sum of the invoice''s lines (0121)'),
  ('invoices', 'issued_at', NULL, NULL, false, false, 'set by the status move to issued (0121)'),
  ('invoices', 'paid_at', NULL, NULL, false, false, 'set by the status move to paid (0121)'),
  ('invoices', 'credit_for_id', NULL, NULL, NULL, false, 'a credit invoice stays the credit of the invoice it was made for'),
  ('payments', 'paid_at', NULL, NULL, false, false, 'set by the status move to paid (0120)'),
  ('refunds', 'refunded_at', NULL, NULL, false, false, 'set by the status move to refunded (0120)'),
  ('reply_to_addresses', 'verified_at', NULL, NULL, false, false, 'written by the address verification'),
  -- Secrets a client may set (and rotate by setting null) but never read back (0052).
  ('webhooks', 'signing_secret', NULL, false, NULL, NULL, 'a credential: shown once, when created or rotated');

-- grant_api_access(table, …) computed one table's privileges from arguments each caller repeated; the rules above
-- replace it, and the runner applies them.
DROP FUNCTION staykit_internal.grant_api_access(regclass, text[], text[], text[]);
