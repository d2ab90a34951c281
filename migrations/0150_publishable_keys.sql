-- Publishable keys (docs/widget.md): keys a web page may carry, for one widget or one site of an organization.
--
-- A publishable key `pk_<32 base62>` is public by design (it sits in a page's source), so it is stored as it is,
-- and shown again whenever asked; what protects the organization is what the key may do, not its secrecy. It may
-- read the public catalogue of the products listed on its widget (widget_listings) or site (site_listings) and use
-- the booking flow for those products; the server answers CORS only for the widget's or site's allowed_origins.
--
-- The server sets `staykit.key_id` to the key in the request's transaction (as it sets a secret key's public id).
-- From that setting the database itself:
--   * hides every product that is not listed on the key's widget or site from the API role (a restrictive policy),
--     so availability, search, quote and book cannot reach another widget's units whatever the statement;
--   * attributes every booking inserted in that transaction to the key's widget / site (bookings.widget_id,
--     bookings.site_id), overriding anything the request said;
--   * counts the booking in widget_analytics, in the same transaction.

CREATE TABLE staykit_internal.publishable_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES api.organizations (id) ON DELETE CASCADE,
  widget_id uuid,
  site_id uuid,
  key text NOT NULL DEFAULT 'pk_' || staykit_internal.random_token(32)
    CONSTRAINT publishable_keys_key_unique UNIQUE CHECK (key ~ '^pk_[0-9A-Za-z]{32}$'),
  name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  CONSTRAINT publishable_keys_one_target CHECK ((widget_id IS NULL) <> (site_id IS NULL)),
  CONSTRAINT publishable_keys_widget_id_fkey FOREIGN KEY (widget_id, organization_id)
    REFERENCES api.widgets (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT publishable_keys_site_id_fkey FOREIGN KEY (site_id, organization_id)
    REFERENCES api.sites (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX publishable_keys_organization_id_idx ON staykit_internal.publishable_keys (organization_id);
CREATE INDEX publishable_keys_widget_id_idx ON staykit_internal.publishable_keys (widget_id);
CREATE INDEX publishable_keys_site_id_idx ON staykit_internal.publishable_keys (site_id);
REVOKE ALL ON staykit_internal.publishable_keys FROM staykit_api;
COMMENT ON TABLE staykit_internal.publishable_keys IS
  'Publishable keys pk_…: public, for one widget or site; never visible to the staykit_api role.';

-- ---------------------------------------------------------------------------------------------------------------
-- Allowed origins: the web pages (scheme://host[:port], lowercase, no path) that may call the API with the widget's
-- or site's publishable keys.

CREATE FUNCTION staykit_internal.is_origin_list(value text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT coalesce(bool_and(origin ~ '^https?://[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?$'), true)
  FROM unnest(value) AS origin
$$;
GRANT EXECUTE ON FUNCTION staykit_internal.is_origin_list(text[]) TO staykit_api;
COMMENT ON FUNCTION staykit_internal.is_origin_list(text[]) IS
  'Every element is a web origin: http(s)://host[:port], lowercase, without path or trailing slash.';

ALTER TABLE api.widgets
  ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}' CHECK (staykit_internal.is_origin_list(allowed_origins));
COMMENT ON COLUMN api.widgets.allowed_origins IS
  'Web origins (https://example.com) whose pages may use the widget''s publishable keys (CORS).';
ALTER TABLE api.sites
  ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}' CHECK (staykit_internal.is_origin_list(allowed_origins));
COMMENT ON COLUMN api.sites.allowed_origins IS
  'Web origins (https://example.com) whose pages may use the site''s publishable keys (CORS).';
-- CORS preflights ask whether any widget or site allows an origin.
CREATE INDEX widgets_allowed_origins_idx ON api.widgets USING gin (allowed_origins);
CREATE INDEX sites_allowed_origins_idx ON api.sites USING gin (allowed_origins);
-- Per-column grants are computed from the columns present: recompute them with the new column.
SELECT staykit_internal.grant_api_access('api.widgets', '{SELECT,INSERT,UPDATE,DELETE}');
SELECT staykit_internal.grant_api_access('api.sites', '{SELECT,INSERT,UPDATE,DELETE}');

-- ---------------------------------------------------------------------------------------------------------------
-- The publishable key of the current transaction, if any.

CREATE FUNCTION staykit_internal.current_publishable_key() RETURNS staykit_internal.publishable_keys
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT k.* FROM staykit_internal.publishable_keys AS k
  WHERE current_setting('staykit.key_id', true) LIKE 'pk\_%'
    AND k.key = current_setting('staykit.key_id', true)
    AND k.organization_id = staykit_internal.current_organization_id()
    AND k.revoked_at IS NULL
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.current_publishable_key() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.current_publishable_key() TO staykit_api;
COMMENT ON FUNCTION staykit_internal.current_publishable_key() IS
  'The active publishable key named by staykit.key_id in the current organization, or a row of NULLs.';

-- NULL outside a publishable key's transaction (no restriction); else the products listed on its widget or site
-- (an empty array when none, or when the key is unknown or revoked: fail closed).
CREATE FUNCTION staykit_internal.publishable_product_ids() RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  k staykit_internal.publishable_keys;
BEGIN
  IF coalesce(current_setting('staykit.key_id', true), '') NOT LIKE 'pk\_%' THEN
    RETURN NULL;
  END IF;
  k := staykit_internal.current_publishable_key();
  IF k.id IS NULL THEN
    RETURN '{}';
  END IF;
  RETURN coalesce((
    SELECT array_agg(l.product_id) FROM api.widget_listings AS l
    WHERE l.widget_id = k.widget_id AND l.organization_id = k.organization_id
  ), '{}') || coalesce((
    SELECT array_agg(l.product_id) FROM api.site_listings AS l
    WHERE l.site_id = k.site_id AND l.organization_id = k.organization_id
  ), '{}');
END
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.publishable_product_ids() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.publishable_product_ids() TO staykit_api;
COMMENT ON FUNCTION staykit_internal.publishable_product_ids() IS
  'Products a publishable key may see (NULL: not a publishable key''s transaction, no restriction).';

-- An InitPlan, evaluated once per statement; for secret keys it is one current_setting.
CREATE POLICY publishable_listing ON api.products AS RESTRICTIVE FOR SELECT TO staykit_api
  USING ((SELECT staykit_internal.publishable_product_ids()) IS NULL
         OR id = ANY ((SELECT staykit_internal.publishable_product_ids())::uuid[]));

-- ---------------------------------------------------------------------------------------------------------------
-- Attribution and analytics of bookings made with a publishable key.

CREATE FUNCTION staykit_internal.bookings_publishable_attribution() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  k staykit_internal.publishable_keys := staykit_internal.current_publishable_key();
BEGIN
  IF k.id IS NOT NULL THEN
    NEW.widget_id := k.widget_id;
    NEW.site_id := k.site_id;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER bookings_publishable_attribution BEFORE INSERT ON api.bookings
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.bookings_publishable_attribution();

-- On the booking's calendar event, which names the product.
CREATE FUNCTION staykit_internal.calendar_events_widget_booking() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  k staykit_internal.publishable_keys := staykit_internal.current_publishable_key();
BEGIN
  IF k.widget_id IS NOT NULL AND NEW.booking_id IS NOT NULL THEN
    INSERT INTO api.widget_analytics (organization_id, widget_id, product_id, booking_id, event)
    VALUES (NEW.organization_id, k.widget_id, NEW.product_id, NEW.booking_id, 'booking');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER calendar_events_widget_booking AFTER INSERT ON api.calendar_events
  FOR EACH ROW WHEN (NEW.booking_id IS NOT NULL)
  EXECUTE FUNCTION staykit_internal.calendar_events_widget_booking();

-- ---------------------------------------------------------------------------------------------------------------
-- The guest's booking page finds a booking by its secret (docs/widget.md#guest-page).
CREATE INDEX bookings_secret_idx ON api.bookings (secret);
