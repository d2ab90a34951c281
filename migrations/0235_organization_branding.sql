-- The organization's logo and colour in its e-mails (docs/automations.md#html-e-mails, docs/dashboard.md):
--
-- - organizations.settings.brand_color: "#rrggbb" (either case), or absent/null. A CHECK holds the shape, so a
--   colour that is not one is refused when written (400), never found broken in a guest's e-mail.
-- - organizations.settings.logo_media_id: the id of one of the organization's media rows (POST /v1/media, the same
--   store and resized copies as unit photos), or absent/null. Media rows belong to the organization, not to a unit,
--   so no new table: the setting refers to a row as products.images does, and the rules of unit photos apply —
--   another organization's id is refused as a missing one (404 SK766); the logo cannot be deleted while it is the
--   logo (409 SK764); a logo that is replaced or removed is deleted when no unit shows it (its files follow through
--   the media sweep); a unit photo that is also the logo is not deleted when the unit drops it.
-- - staykit_internal.organization_logo(org): the logo's media row for e-mails, read as the definer (the template job
--   runs as the owner; a preview only asks when its caller may read media), as product_cover does for unit photos.

CREATE FUNCTION staykit_internal.is_brand_color(value jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT value IS NULL OR jsonb_typeof(value) = 'null'
      OR (jsonb_typeof(value) = 'string' AND (value #>> '{}') ~ '^#[0-9a-fA-F]{6}$')
$$;
COMMENT ON FUNCTION staykit_internal.is_brand_color(jsonb) IS
  'organizations.settings.brand_color: absent/null, or a colour written #rrggbb.';

CREATE FUNCTION staykit_internal.is_media_reference(value jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT value IS NULL OR jsonb_typeof(value) = 'null'
      OR (jsonb_typeof(value) = 'string'
          AND (value #>> '{}') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
$$;
COMMENT ON FUNCTION staykit_internal.is_media_reference(jsonb) IS
  'organizations.settings.logo_media_id: absent/null, or the id of a media row (its existence is checked by a trigger).';

ALTER TABLE api.organizations
  ADD CONSTRAINT organizations_brand_color CHECK (staykit_internal.is_brand_color(settings -> 'brand_color')),
  ADD CONSTRAINT organizations_logo_media_id CHECK (staykit_internal.is_media_reference(settings -> 'logo_media_id'));

-- The logo's id names one of the organization's media rows (checked when it changes).
CREATE FUNCTION staykit_internal.check_organization_logo() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  logo constant text := lower(NEW.settings ->> 'logo_media_id');
BEGIN
  IF logo IS NULL OR (TG_OP = 'UPDATE' AND logo IS NOT DISTINCT FROM lower(OLD.settings ->> 'logo_media_id')) THEN
    RETURN NEW;
  END IF;
  -- Not an id at all: organizations_logo_media_id answers that.
  IF logo !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    RETURN NEW;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM api.media AS m WHERE m.organization_id = NEW.id AND m.id = logo::uuid) THEN
    RAISE EXCEPTION 'Media % not found', logo USING ERRCODE = 'SK766', DETAIL = format('media %s', logo),
      HINT = 'Upload the logo with POST /v1/media first and give the id it answers';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER check_organization_logo BEFORE INSERT OR UPDATE OF settings ON api.organizations
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.check_organization_logo();

-- A replaced or removed logo is deleted when no unit shows it, in the transaction that replaced it.
CREATE FUNCTION staykit_internal.delete_replaced_logo() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  previous constant text := lower(OLD.settings ->> 'logo_media_id');
BEGIN
  IF previous IS NULL OR previous IS NOT DISTINCT FROM lower(NEW.settings ->> 'logo_media_id') THEN
    RETURN NULL;
  END IF;
  DELETE FROM api.media AS m
  WHERE m.organization_id = OLD.id AND m.id::text = previous
    AND NOT EXISTS (
      SELECT 1 FROM api.products AS p
      WHERE p.organization_id = m.organization_id
        AND EXISTS (SELECT 1 FROM json_array_elements(p.images) AS image WHERE lower(image ->> 'media_id') = m.id::text));
  RETURN NULL;
END
$$;
CREATE TRIGGER delete_replaced_logo AFTER UPDATE OF settings ON api.organizations
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.delete_replaced_logo();

-- 0231's rule, and the logo: an image that is the organization's logo cannot be deleted either.
CREATE OR REPLACE FUNCTION staykit_internal.refuse_deleting_used_media() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  user_product uuid;
BEGIN
  SELECT p.id INTO user_product FROM api.products AS p
  WHERE p.organization_id = OLD.organization_id
    AND EXISTS (SELECT 1 FROM json_array_elements(p.images) AS image WHERE image ->> 'media_id' = OLD.id::text)
  LIMIT 1;
  IF user_product IS NOT NULL THEN
    RAISE EXCEPTION 'Media % is shown by product %', OLD.id, user_product USING ERRCODE = 'SK764',
      DETAIL = format('media %s, product %s', OLD.id, user_product);
  END IF;
  IF EXISTS (SELECT 1 FROM api.organizations AS o
             WHERE o.id = OLD.organization_id AND lower(o.settings ->> 'logo_media_id') = OLD.id::text) THEN
    RAISE EXCEPTION 'Media % is the organization''s logo', OLD.id USING ERRCODE = 'SK764',
      DETAIL = format('media %s, organization logo', OLD.id),
      HINT = 'Remove or replace the logo (settings.logo_media_id) instead: the old one is deleted with it';
  END IF;
  RETURN OLD;
END
$$;

-- 0231's rule, and the logo: a photo a unit drops is kept while it is the organization's logo.
CREATE OR REPLACE FUNCTION staykit_internal.delete_unshown_media() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF json_typeof(OLD.images) <> 'array' THEN
    RETURN NULL;
  END IF;
  DELETE FROM api.media AS m
  WHERE m.organization_id = OLD.organization_id
    AND m.id::text IN (SELECT lower(value ->> 'media_id') FROM json_array_elements(OLD.images))
    AND m.id::text NOT IN (SELECT lower(value ->> 'media_id') FROM json_array_elements(CASE WHEN TG_OP = 'UPDATE' THEN NEW.images ELSE '[]'::json END))
    AND NOT EXISTS (
      SELECT 1 FROM api.products AS p
      WHERE p.organization_id = m.organization_id AND p.id <> OLD.id
        AND EXISTS (SELECT 1 FROM json_array_elements(p.images) AS image WHERE lower(image ->> 'media_id') = m.id::text))
    AND NOT EXISTS (
      SELECT 1 FROM api.organizations AS o
      WHERE o.id = m.organization_id AND lower(o.settings ->> 'logo_media_id') = m.id::text);
  RETURN NULL;
END
$$;

-- The logo as e-mails show it: the media row's URLs, size and variants; NULL without a logo.
CREATE FUNCTION staykit_internal.organization_logo(org uuid) RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT jsonb_build_object('media_id', m.id, 'url', m.url, 'width', m.width, 'height', m.height, 'variants', m.variants)
  FROM api.organizations AS o
  JOIN api.media AS m ON m.organization_id = o.id AND m.id::text = lower(o.settings ->> 'logo_media_id')
  WHERE o.id = org
$$;
COMMENT ON FUNCTION staykit_internal.organization_logo(uuid) IS
  'The organization''s logo (settings.logo_media_id) with its media row, for e-mails; NULL without one.';
REVOKE ALL ON FUNCTION staykit_internal.organization_logo(uuid) FROM PUBLIC;

COMMENT ON COLUMN api.organizations.settings IS
  'Organization settings (JSON object): booking_terms (0225), brand_color "#rrggbb" and logo_media_id, a media id (0235); other keys free-form.';
