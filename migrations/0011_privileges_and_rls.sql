-- The API role, its privileges, and row-level security.
--
-- Every request runs as staykit_api (SET LOCAL ROLE) with staykit.organization_id set for the transaction.
-- Table privileges mirror the operations of the spec exactly — the HTTP layer derives the allowed methods (405 +
-- Allow) from them — and INSERT/UPDATE are granted per column, so server-owned columns (organization_id,
-- created_at, updated_at, fts, and a few per table) can never be written by a client. Row-level security, forced
-- on every tenant table, shows and accepts only the rows of the request's organization and shows nothing when the
-- setting is missing.

-- Roles are cluster-wide and several databases may migrate at once: create it only when missing, and treat
-- losing the race as success.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'staykit_api') THEN
    BEGIN
      CREATE ROLE staykit_api NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
END
$$;

GRANT USAGE ON SCHEMA api TO staykit_api;
GRANT USAGE ON SCHEMA staykit_internal TO staykit_api;

-- Helpers are evaluated with the caller's rights (defaults, CHECKs): the API role may execute them; nobody else
-- needs to.
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA staykit_internal FROM PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA staykit_internal TO staykit_api;

-- ---------------------------------------------------------------------------------------------------------------
-- grant_api_access(table, operations, not_insertable, not_updatable): (re)computes staykit_api's privileges on one
-- table. INSERT and UPDATE go to every column except organization_id, created_at, updated_at, generated columns
-- and the listed ones; UPDATE never includes id. Re-run it after adding columns to a table.

CREATE FUNCTION staykit_internal.grant_api_access(
  target regclass,
  operations text[],
  not_insertable text[] DEFAULT '{}',
  not_updatable text[] DEFAULT '{}'
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  server_owned constant text[] := ARRAY['organization_id', 'created_at', 'updated_at'];
  columns text;
BEGIN
  IF NOT operations <@ ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE'] THEN
    RAISE EXCEPTION 'unknown operation in %', operations;
  END IF;
  EXECUTE format('REVOKE ALL ON %s FROM staykit_api', target);
  IF 'SELECT' = ANY (operations) THEN
    EXECUTE format('GRANT SELECT ON %s TO staykit_api', target);
  END IF;
  IF 'INSERT' = ANY (operations) THEN
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO columns
    FROM pg_attribute AS a
    WHERE a.attrelid = target AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      AND a.attname <> ALL (server_owned || not_insertable);
    EXECUTE format('GRANT INSERT (%s) ON %s TO staykit_api', columns, target);
  END IF;
  IF 'UPDATE' = ANY (operations) THEN
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO columns
    FROM pg_attribute AS a
    WHERE a.attrelid = target AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      AND a.attname <> ALL (server_owned || ARRAY['id'] || not_updatable);
    EXECUTE format('GRANT UPDATE (%s) ON %s TO staykit_api', columns, target);
  END IF;
  IF 'DELETE' = ANY (operations) THEN
    EXECUTE format('GRANT DELETE ON %s TO staykit_api', target);
  END IF;
END
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.grant_api_access(regclass, text[], text[], text[]) FROM staykit_api;
COMMENT ON FUNCTION staykit_internal.grant_api_access(regclass, text[], text[], text[]) IS
  'Migration helper: (re)grants staykit_api the given operations on a table, INSERT/UPDATE per column.';

-- ---------------------------------------------------------------------------------------------------------------
-- The 25 resources of the spec: exactly its operation table.

SELECT staykit_internal.grant_api_access('api.attribute_options', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.attributes', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.booking_details', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.booking_updates', '{SELECT}');
-- Bookings are created by the booking flow; reference and confirmed_at belong to the database.
SELECT staykit_internal.grant_api_access('api.bookings', '{SELECT,UPDATE,DELETE}', '{}', '{reference,confirmed_at}');
SELECT staykit_internal.grant_api_access('api.calendar_event_notes', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.email_templates', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.calendar_events', '{SELECT,INSERT,UPDATE,DELETE}',
                                         '{generated_title}', '{generated_title}');
-- The sync owns last_synced, error, tld and updated_at ("last received new events").
SELECT staykit_internal.grant_api_access('api.external_calendars', '{SELECT,INSERT,UPDATE,DELETE}',
                                         '{last_synced,error,tld}', '{last_synced,error,tld}');
SELECT staykit_internal.grant_api_access('api.line_items', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.site_pages', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.capacity_group_dependencies', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.review_products', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.service_payment_moments', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.contact_bookings', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.capacity_groups', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.review_widgets', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.coupon_services', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.product_message_templates', '{SELECT,INSERT,UPDATE,DELETE}');
-- DELETE of a coupon is a soft delete; deleted_at is set by the database only.
SELECT staykit_internal.grant_api_access('api.coupons', '{SELECT,INSERT,UPDATE,DELETE}', '{deleted_at}', '{deleted_at}');
SELECT staykit_internal.grant_api_access('api.product_configurations', '{SELECT,INSERT,UPDATE,DELETE}');
-- Products are created by POST /create-product and soft deleted by PATCHing deleted_at.
SELECT staykit_internal.grant_api_access('api.products', '{SELECT,UPDATE}');
SELECT staykit_internal.grant_api_access('api.calendar_event_tasks', '{SELECT,INSERT,UPDATE,DELETE}',
                                         '{notification_sent_at}', '{notification_sent_at}');
SELECT staykit_internal.grant_api_access('api.webhooks', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.webhook_notifications', '{SELECT}');

-- ---------------------------------------------------------------------------------------------------------------
-- Collections the spec only names (docs/design.md#resource-endpoints): GET for all, full CRUD for the organization's
-- own editable data, read-only for logs, analytics and what integrations or the booking flow write.

SELECT staykit_internal.grant_api_access('api.api_requests', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.calendar_event_updates', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.capacities', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.contacts', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.coupon_products', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.coupon_uses', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.invoices', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.line_item_taxes', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.members', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.message_events', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.message_templates', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.messages', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.organization_calendar_logs', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.paddle_plans', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.paddle_subscriptions', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.payments', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.permissions', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.price_calendar_entries', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.pricelabs_pricing', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.pricing_widgets', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.product_attribute_options', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.product_calendar_logs', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.product_reply_to_addresses', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.product_services', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.product_taxes', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.product_tasks', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.refunds', '{SELECT,INSERT,UPDATE,DELETE}');
-- verified_at is set by the verification flow.
SELECT staykit_internal.grant_api_access('api.reply_to_addresses', '{SELECT,INSERT,UPDATE,DELETE}',
                                         '{verified_at}', '{verified_at}');
SELECT staykit_internal.grant_api_access('api.review_widget_listings', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.reviews', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.seasons', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.service_options', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.services', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.site_listings', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.site_nav_items', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.site_views', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.sites', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.task_assignees', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.task_template_assignees', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.task_templates', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.tasks', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.taxes', '{SELECT,INSERT,UPDATE,DELETE}');
-- Profiles mirror the identity system: the organization may edit how a user is shown, not who they are.
SELECT staykit_internal.grant_api_access('api.user_profiles', '{SELECT,UPDATE}', '{}', '{user_id}');
SELECT staykit_internal.grant_api_access('api.widget_analytics', '{SELECT}');
SELECT staykit_internal.grant_api_access('api.widget_listings', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.widgets', '{SELECT,INSERT,UPDATE,DELETE}');
-- The organization itself: read, and rename or change its settings.
SELECT staykit_internal.grant_api_access('api.organizations', '{SELECT}');
GRANT UPDATE (name, settings) ON api.organizations TO staykit_api;

-- staykit_internal.api_keys: nothing (keys are looked up by the server before it takes the API role).
REVOKE ALL ON staykit_internal.api_keys FROM staykit_api;

-- ---------------------------------------------------------------------------------------------------------------
-- Row-level security on every tenant table: the request's organization only, fail closed when unset. The role
-- running migrations (the tables' owner) keeps full access for server-side work, also when it is not a superuser.

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.relname
    FROM pg_class AS c
    JOIN pg_namespace AS n ON n.oid = c.relnamespace
    JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped
    WHERE n.nspname = 'api' AND c.relkind = 'r'
    ORDER BY c.relname
  LOOP
    EXECUTE format('ALTER TABLE api.%I ENABLE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('ALTER TABLE api.%I FORCE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('CREATE POLICY tenant_isolation ON api.%I TO staykit_api '
                   'USING (organization_id = staykit_internal.current_organization_id()) '
                   'WITH CHECK (organization_id = staykit_internal.current_organization_id())', t.relname);
    EXECUTE format('CREATE POLICY owner_access ON api.%I TO %I USING (true) WITH CHECK (true)',
                   t.relname, current_user);
  END LOOP;
END
$$;

ALTER TABLE api.organizations ENABLE ROW LEVEL SECURITY;
ALTER TABLE api.organizations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON api.organizations TO staykit_api
  USING (id = staykit_internal.current_organization_id())
  WITH CHECK (id = staykit_internal.current_organization_id());
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_access ON api.organizations TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;
-- api.paddle_plans is a global catalogue: no organization_id, no RLS, read-only to the API role.
