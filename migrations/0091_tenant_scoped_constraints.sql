-- Tenant-scoped constraints: no unique or exclusion constraint can be used by one organization to learn about, or
-- squat on, another organization's rows.
--
-- Before this migration a constraint that spans organizations answered differently depending on another tenant's
-- data: POST /v1/calendar_events with another organization's product_id failed with 23P01 when that product was
-- booked on those dates and with 23503 otherwise (the exclusion constraint is checked before the foreign key), a
-- payment's provider reference, an imported event's UID, a link such as (coupon_id, product_id) or a client-chosen
-- primary key already used elsewhere answered 409 23505, and whoever used such a value first kept it from its
-- owner. Now every unique and exclusion constraint of a tenant table includes organization_id:
--
-- - Primary keys are (organization_id, id). A client may send its own id on POST; an id that another organization
--   uses is simply free in this one, exactly like a fresh id. Ids stay unique within an organization, every
--   reference between tenant rows is already a composite foreign key (id, organization_id), and a Citus
--   distribution on organization_id requires exactly this shape. The indexes on organization_id alone are now
--   served by the primary key and dropped.
-- - Unique constraints and indexes get organization_id as their last column (their leading column keeps serving
--   the foreign key it starts with); the exclusion constraint calendar_events_no_overlap compares organization_id
--   too. Names are unchanged, so error messages name the same constraints.
-- - Internal tables that referred to api rows by id alone (the webhook queue, the iCal sync claims) refer to them
--   by (id, organization_id); ical_sync_claims gets the organization_id it needs for that.
-- - Functions that run as the owner (no row-level security) and looked rows up by id alone also match the
--   organization: the coupon soft delete, the coupon quota count of create_booking, and the webhook queue triggers.
--
-- Left global on purpose (not writable through the API, so no oracle): organizations and paddle_plans (not tenant
-- rows), paddle_subscriptions.paddle_subscription_id (written by the Paddle integration, which looks a subscription
-- up by its Paddle id before any organization is known), and in staykit_internal the API keys' key_id (looked up
-- before the organization is known) and the webhook queue's notification_id (ids the server generates).

-- ---------------------------------------------------------------------------------------------------------------
-- References by id alone into tables whose primary key changes: dropped here, recreated composite below.

ALTER TABLE staykit_internal.webhook_queue
  DROP CONSTRAINT webhook_queue_notification_id_fkey,
  DROP CONSTRAINT webhook_queue_webhook_id_fkey;
ALTER TABLE staykit_internal.ical_sync_claims DROP CONSTRAINT ical_sync_claims_calendar_id_fkey;

-- ---------------------------------------------------------------------------------------------------------------
-- Primary keys (organization_id, id) on every tenant table of the api schema.

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.oid::regclass AS target, c.relname, con.conname
    FROM pg_class AS c
    JOIN pg_namespace AS n ON n.oid = c.relnamespace
    JOIN pg_constraint AS con ON con.conrelid = c.oid AND con.contype = 'p'
    WHERE n.nspname = 'api' AND c.relkind = 'r'
      AND EXISTS (SELECT 1 FROM pg_attribute AS a
                  WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)
    ORDER BY c.relname
  LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', t.target, t.conname);
    EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I PRIMARY KEY (organization_id, id)', t.target, t.relname || '_pkey');
  END LOOP;

  -- Plain indexes on organization_id alone: the primary key's leading column serves them now.
  FOR t IN
    SELECT i.oid::regclass AS target
    FROM pg_index AS ix
    JOIN pg_class AS i ON i.oid = ix.indexrelid
    JOIN pg_class AS c ON c.oid = ix.indrelid
    JOIN pg_namespace AS n ON n.oid = c.relnamespace
    JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum = ix.indkey[0]
    WHERE n.nspname = 'api' AND NOT ix.indisunique AND ix.indnatts = 1 AND a.attname = 'organization_id'
      AND ix.indpred IS NULL AND ix.indexprs IS NULL
    ORDER BY 1
  LOOP
    EXECUTE format('DROP INDEX %s', t.target);
  END LOOP;
END
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Unique constraints: the same columns, then organization_id.

DO $$
DECLARE
  u record;
BEGIN
  FOR u IN
    SELECT * FROM (VALUES
      ('capacities', 'capacities_product_group_unique', 'product_id, capacity_group_id'),
      ('capacity_group_dependencies', 'capacity_group_dependencies_unique', 'accumulator_id, element_id'),
      ('contact_bookings', 'contact_bookings_unique', 'booking_id, contact_id'),
      ('coupon_products', 'coupon_products_unique', 'coupon_id, product_id'),
      ('coupon_services', 'coupon_services_unique', 'coupon_id, service_id'),
      ('coupon_uses', 'coupon_uses_unique', 'coupon_id, booking_id'),
      ('permissions', 'permissions_member_resource_unique', 'member_id, resource'),
      ('price_calendar_entries', 'price_calendar_entries_product_date_unique', 'product_id, date'),
      ('pricelabs_pricing', 'pricelabs_pricing_product_date_unique', 'product_id, date'),
      ('product_attribute_options', 'product_attribute_options_unique', 'product_id, attribute_option_id'),
      ('product_message_templates', 'product_message_templates_unique', 'product_id, message_template_id'),
      ('product_reply_to_addresses', 'product_reply_to_addresses_one_per_product', 'product_id'),
      ('product_services', 'product_services_unique', 'product_id, service_id'),
      ('product_taxes', 'product_taxes_unique', 'product_id, tax_id'),
      ('review_products', 'review_products_unique', 'review_id, product_id'),
      ('review_widget_listings', 'review_widget_listings_unique', 'review_widget_id, product_id'),
      ('site_listings', 'site_listings_unique', 'site_id, product_id'),
      ('task_assignees', 'task_assignees_unique', 'task_id, member_id'),
      ('task_template_assignees', 'task_template_assignees_unique', 'task_template_id, member_id'),
      ('widget_listings', 'widget_listings_unique', 'widget_id, product_id')
    ) AS v (table_name, constraint_name, columns)
  LOOP
    EXECUTE format('ALTER TABLE api.%I DROP CONSTRAINT %I', u.table_name, u.constraint_name);
    EXECUTE format('ALTER TABLE api.%I ADD CONSTRAINT %I UNIQUE (%s, organization_id)',
                   u.table_name, u.constraint_name, u.columns);
  END LOOP;
END
$$;

-- Unique indexes.
DROP INDEX api.calendar_events_calendar_uid_unique;
CREATE UNIQUE INDEX calendar_events_calendar_uid_unique ON api.calendar_events (calendar_id, uid, organization_id)
  WHERE calendar_id IS NOT NULL AND uid IS NOT NULL;

DROP INDEX api.payments_provider_reference_unique;
CREATE UNIQUE INDEX payments_provider_reference_unique ON api.payments (provider, provider_reference, organization_id)
  WHERE provider IS NOT NULL AND provider_reference IS NOT NULL;
COMMENT ON COLUMN api.payments.provider_reference IS
  'Identifier of the payment at the provider; unique per organization and provider.';

-- A custom domain is claimed per organization: one organization's claim neither reveals nor blocks another's. A
-- site renderer serving custom domains must prove the claim (e.g. a DNS record) before serving a domain.
DROP INDEX api.sites_domain_unique;
CREATE UNIQUE INDEX sites_domain_unique ON api.sites (domain, organization_id) WHERE domain IS NOT NULL;
COMMENT ON COLUMN api.sites.domain IS 'Custom domain (lowercase host name), unique within the organization; null = none.';

-- The no-overlap rule, per organization and unit.
ALTER TABLE api.calendar_events DROP CONSTRAINT calendar_events_no_overlap;
ALTER TABLE api.calendar_events ADD CONSTRAINT calendar_events_no_overlap EXCLUDE USING gist (
  product_id WITH =,
  organization_id WITH =,
  daterange(start_date, end_date + padding, '[)') WITH &&
) WHERE (status <> 'CANCELLED' AND type IN ('booking', 'blocked period'));

-- ---------------------------------------------------------------------------------------------------------------
-- Internal references, composite.

ALTER TABLE staykit_internal.webhook_queue
  ADD CONSTRAINT webhook_queue_notification_id_fkey FOREIGN KEY (notification_id, organization_id)
    REFERENCES api.webhook_notifications (id, organization_id) ON DELETE CASCADE,
  ADD CONSTRAINT webhook_queue_webhook_id_fkey FOREIGN KEY (webhook_id, organization_id)
    REFERENCES api.webhooks (id, organization_id) ON DELETE CASCADE;

ALTER TABLE staykit_internal.ical_sync_claims ADD COLUMN organization_id uuid;
UPDATE staykit_internal.ical_sync_claims AS l SET organization_id = c.organization_id
  FROM api.external_calendars AS c WHERE c.id = l.calendar_id;
ALTER TABLE staykit_internal.ical_sync_claims
  ALTER COLUMN organization_id SET NOT NULL,
  DROP CONSTRAINT ical_sync_claims_pkey,
  ADD CONSTRAINT ical_sync_claims_pkey PRIMARY KEY (calendar_id, organization_id),
  ADD CONSTRAINT ical_sync_claims_calendar_id_fkey FOREIGN KEY (calendar_id, organization_id)
    REFERENCES api.external_calendars (id, organization_id) ON DELETE CASCADE;

-- ---------------------------------------------------------------------------------------------------------------
-- Owner-run functions that looked rows up by id alone.

CREATE OR REPLACE FUNCTION staykit_internal.coupons_soft_delete() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
BEGIN
  UPDATE api.coupons SET deleted_at = now()
  WHERE id = OLD.id AND organization_id = OLD.organization_id AND deleted_at IS NULL;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION staykit_internal.webhook_notifications_enqueue() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.status = 'pending' AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'pending') THEN
    INSERT INTO staykit_internal.webhook_queue (notification_id, organization_id, webhook_id, run_at)
    SELECT NEW.id, NEW.organization_id, NEW.webhook_id,
           CASE WHEN w.disabled_at IS NULL THEN now() ELSE 'infinity'::timestamptz END
    FROM api.webhooks AS w WHERE w.id = NEW.webhook_id AND w.organization_id = NEW.organization_id
    ON CONFLICT (notification_id) DO NOTHING;
  ELSIF TG_OP = 'UPDATE' AND NEW.status <> 'pending' AND OLD.status = 'pending' THEN
    DELETE FROM staykit_internal.webhook_queue WHERE notification_id = NEW.id AND organization_id = NEW.organization_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION staykit_internal.webhooks_park_queue() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.disabled_at IS NOT NULL AND OLD.disabled_at IS NULL THEN
    UPDATE staykit_internal.webhook_queue SET run_at = 'infinity'
    WHERE webhook_id = NEW.id AND organization_id = NEW.organization_id AND lease_token IS NULL;
  ELSIF NEW.disabled_at IS NULL AND OLD.disabled_at IS NOT NULL THEN
    UPDATE staykit_internal.webhook_queue SET run_at = now()
    WHERE webhook_id = NEW.id AND organization_id = NEW.organization_id AND run_at = 'infinity';
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION staykit_internal.requeue_webhook_notification(notification uuid) RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  UPDATE api.webhook_notifications SET status = 'pending' WHERE id = notification AND status <> 'pending';
  INSERT INTO staykit_internal.webhook_queue (notification_id, organization_id, webhook_id, run_at)
  SELECT n.id, n.organization_id, n.webhook_id,
         CASE WHEN w.disabled_at IS NULL THEN now() ELSE 'infinity'::timestamptz END
  FROM api.webhook_notifications AS n
  JOIN api.webhooks AS w ON w.id = n.webhook_id AND w.organization_id = n.organization_id
  WHERE n.id = notification
  ON CONFLICT (notification_id) DO NOTHING;
  RETURN notification;
END
$$;

-- create_booking as in 0060, with the coupon quota counted in the request's organization only.
CREATE OR REPLACE FUNCTION staykit_internal.create_booking(payload jsonb) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  product_uuid constant uuid := (payload ->> 'product_id')::uuid;
  new_booking api.bookings;
  found_contact uuid;
  contact jsonb := payload -> 'contact';
  item jsonb;
  tax jsonb;
  detail jsonb;
  coupon jsonb;
  line_id uuid;
  coupon_quota integer;
  uses integer;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  PERFORM 1 FROM api.products WHERE id = product_uuid AND organization_id = org AND deleted_at IS NULL;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'product % not found', product_uuid USING ERRCODE = 'SKP01';
  END IF;

  -- Coupons first: lock each coupon row so concurrent bookings count its uses one after the other.
  FOR coupon IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'coupons', '[]')) LOOP
    SELECT c.quota INTO coupon_quota FROM api.coupons AS c
    WHERE c.id = (coupon ->> 'coupon_id')::uuid AND c.organization_id = org AND c.deleted_at IS NULL
    FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'coupon % not found', coupon ->> 'coupon_id' USING ERRCODE = 'SKQ02';
    END IF;
    IF coupon_quota IS NOT NULL THEN
      SELECT count(*) INTO uses FROM api.coupon_uses
      WHERE coupon_id = (coupon ->> 'coupon_id')::uuid AND organization_id = org;
      IF uses >= coupon_quota THEN
        RAISE EXCEPTION 'coupon % has no uses left', coupon ->> 'coupon_id' USING ERRCODE = 'SKQ01';
      END IF;
    END IF;
  END LOOP;

  INSERT INTO api.bookings (organization_id, currency, display_currency, exchange_rate, language, method, occupancy,
                            silent)
  VALUES (org, payload ->> 'currency', payload ->> 'display_currency', (payload ->> 'exchange_rate')::real,
          payload ->> 'language', payload ->> 'method', payload -> 'occupancy',
          coalesce((payload ->> 'silent')::boolean, false))
  RETURNING * INTO new_booking;

  -- The last word on overlaps: calendar_events_no_overlap (23P01) when the dates (+ padding) are taken.
  INSERT INTO api.calendar_events (organization_id, booking_id, product_id, start_date, end_date, padding, status,
                                   type, origin, generated_title)
  VALUES (org, new_booking.id, product_uuid, (payload ->> 'start_date')::date, (payload ->> 'end_date')::date,
          (payload ->> 'padding')::smallint, payload ->> 'status', 'booking', 'api',
          coalesce(payload ->> 'generated_title', ''));

  FOR item IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'line_items', '[]')) LOOP
    INSERT INTO api.line_items (organization_id, booking_id, service_id, amount, fee_type, item_type, name, quantity)
    VALUES (org, new_booking.id, (item ->> 'service_id')::uuid, (item ->> 'amount')::integer, item ->> 'fee_type',
            item ->> 'item_type', item -> 'name', (item ->> 'quantity')::integer)
    RETURNING id INTO line_id;
    FOR tax IN SELECT value FROM jsonb_array_elements(coalesce(item -> 'taxes', '[]')) LOOP
      INSERT INTO api.line_item_taxes (organization_id, line_item_id, tax_id, name, percentage, inclusive, amount)
      VALUES (org, line_id, (tax ->> 'tax_id')::uuid, tax ->> 'name', (tax ->> 'percentage')::numeric,
              (tax ->> 'inclusive')::boolean, (tax ->> 'amount')::integer);
    END LOOP;
  END LOOP;

  FOR detail IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'details', '[]')) LOOP
    INSERT INTO api.booking_details (organization_id, booking_id, service_id, option_id, name, description, value)
    VALUES (org, new_booking.id, (detail ->> 'service_id')::uuid, (detail ->> 'option_id')::uuid, detail -> 'name',
            coalesce(detail -> 'description', '{}'), detail ->> 'value');
  END LOOP;

  FOR coupon IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'coupons', '[]')) LOOP
    INSERT INTO api.coupon_uses (organization_id, coupon_id, booking_id, amount)
    VALUES (org, (coupon ->> 'coupon_id')::uuid, new_booking.id, (coupon ->> 'amount')::integer);
  END LOOP;

  -- The guest: reuse the organization's contact with the same e-mail (else phone), or create one.
  IF contact IS NOT NULL AND jsonb_typeof(contact) = 'object'
     AND (nullif(contact ->> 'email', '') IS NOT NULL OR nullif(contact ->> 'phone', '') IS NOT NULL
          OR nullif(contact ->> 'first_name', '') IS NOT NULL OR nullif(contact ->> 'last_name', '') IS NOT NULL) THEN
    IF nullif(contact ->> 'email', '') IS NOT NULL THEN
      SELECT id INTO found_contact FROM api.contacts
      WHERE organization_id = org AND lower(email) = lower(contact ->> 'email')
      ORDER BY created_at LIMIT 1;
    ELSIF nullif(contact ->> 'phone', '') IS NOT NULL THEN
      SELECT id INTO found_contact FROM api.contacts
      WHERE organization_id = org AND phone = contact ->> 'phone'
      ORDER BY created_at LIMIT 1;
    END IF;
    IF found_contact IS NULL THEN
      INSERT INTO api.contacts (organization_id, first_name, last_name, email, phone, language)
      VALUES (org, coalesce(contact ->> 'first_name', ''), coalesce(contact ->> 'last_name', ''),
              nullif(contact ->> 'email', ''), nullif(contact ->> 'phone', ''), payload ->> 'language')
      RETURNING id INTO found_contact;
    END IF;
    INSERT INTO api.contact_bookings (organization_id, booking_id, contact_id)
    VALUES (org, new_booking.id, found_contact);
  END IF;

  RETURN jsonb_build_object('booking_id', new_booking.id, 'reference', new_booking.reference,
                            'contact_id', found_contact);
END
$$;