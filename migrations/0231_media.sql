-- Media (docs/media.md): images uploaded with POST /v1/media, checked and resized off the event loop
-- (src/media), their files in the media store (DATA_DIR/media or an S3 bucket) under a key made of a content hash, and
-- one row here per upload. `products.images` is the ordered list of a unit's photos that refers to them. The rows are
-- written only by add_media (the upload route; the organization's limit is checked under a lock there) and read and
-- deleted through /v1/media like every resource (scopes media:read, media:write).
--
-- Files outlive nothing that refers to them: deleting a media row (by the API, or because it was removed from the
-- last unit that showed it) records its hash in staykit_internal.media_deletions in the same transaction, and the
-- media sweep (src/media/sweep.ts) deletes the files of every recorded hash no row uses any more.

CREATE TABLE api.media (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  hash text NOT NULL CONSTRAINT media_hash_format CHECK (hash ~ '^[0-9a-f]{32}$'),
  content_type text NOT NULL
    CONSTRAINT media_content_type_check CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/heic')),
  filename text CONSTRAINT media_filename_length CHECK (length(filename) BETWEEN 1 AND 255),
  bytes integer NOT NULL CONSTRAINT media_bytes_positive CHECK (bytes > 0),
  width integer NOT NULL CONSTRAINT media_width_positive CHECK (width > 0),
  height integer NOT NULL CONSTRAINT media_height_positive CHECK (height > 0),
  url text NOT NULL CONSTRAINT media_url_path CHECK (url ~ '^/media/[0-9a-f]{32}/[0-9]+\.(jpeg|webp|avif)$'),
  variants jsonb NOT NULL CONSTRAINT media_variants_list CHECK (jsonb_typeof(variants) = 'array' AND jsonb_array_length(variants) > 0),
  dominant_color text NOT NULL CONSTRAINT media_dominant_color_format CHECK (dominant_color ~ '^#[0-9a-f]{6}$'),
  PRIMARY KEY (organization_id, id),
  UNIQUE (id, organization_id)
);
CREATE INDEX media_hash_idx ON api.media (organization_id, hash);
COMMENT ON TABLE api.media IS
  'Images uploaded with POST /v1/media: the checked original''s size and its resized variants; products.images refers to them.';
COMMENT ON COLUMN api.media.hash IS 'Content hash of the upload (per organization): the folder of its files in the media store.';
COMMENT ON COLUMN api.media.content_type IS 'The format of the upload (JPEG, PNG, WebP, AVIF or HEIC).';
COMMENT ON COLUMN api.media.filename IS 'The uploaded file''s name, when the upload gave one.';
COMMENT ON COLUMN api.media.bytes IS 'Size of the upload in bytes.';
COMMENT ON COLUMN api.media.width IS 'Width in pixels of the largest variant (upright: the EXIF orientation applied).';
COMMENT ON COLUMN api.media.height IS 'Height in pixels of the largest variant.';
COMMENT ON COLUMN api.media.url IS 'Path of the largest JPEG variant, below the server''s public URL (the fallback every client shows).';
COMMENT ON COLUMN api.media.variants IS 'The resized files: [{width, height, format (webp, avif, jpeg), bytes, url}], url a path below the public URL.';
COMMENT ON COLUMN api.media.dominant_color IS 'The image''s dominant colour (#rrggbb): a placeholder while the picture loads.';

ALTER TABLE api.media ENABLE ROW LEVEL SECURITY;
ALTER TABLE api.media FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON api.media TO staykit_api
  USING (organization_id = (SELECT staykit_internal.current_organization_id()))
  WITH CHECK (organization_id = (SELECT staykit_internal.current_organization_id()));
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_access ON api.media TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;
SELECT staykit_internal.enforce_read_scope('api.media');
SELECT staykit_internal.enforce_write_scope('api.media');
INSERT INTO staykit_internal.api_access (table_name, column_name, operations, why)
VALUES ('media', '*', '{SELECT,DELETE}', 'rows are written by POST /v1/media only (add_media), from the checked upload');

-- Hashes whose files may have no row left: the media sweep's work list (an outbox written with the deletion).
CREATE TABLE staykit_internal.media_deletions (
  organization_id uuid NOT NULL REFERENCES api.organizations (id) ON DELETE CASCADE,
  hash text NOT NULL,
  deleted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, hash)
);
COMMENT ON TABLE staykit_internal.media_deletions IS
  'Media hashes whose last row may be gone: src/media/sweep.ts deletes their files when no api.media row uses them.';

CREATE FUNCTION staykit_internal.record_media_deletion() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO staykit_internal.media_deletions (organization_id, hash) VALUES (OLD.organization_id, OLD.hash)
  ON CONFLICT (organization_id, hash) DO UPDATE SET deleted_at = now();
  RETURN OLD;
END
$$;
CREATE TRIGGER record_media_deletion AFTER DELETE ON api.media
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.record_media_deletion();

-- A photo a unit still shows cannot be deleted: remove it from the unit's images first (which deletes it).
CREATE FUNCTION staykit_internal.refuse_deleting_used_media() RETURNS trigger
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
  RETURN OLD;
END
$$;
CREATE TRIGGER refuse_deleting_used_media BEFORE DELETE ON api.media
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.refuse_deleting_used_media();

-- products.images: [{media_id, alt: {language: text}, cover: boolean}], each media one of the organization's (another
-- organization's id is refused as a missing one), each at most once, at most one cover.
CREATE FUNCTION staykit_internal.check_product_images() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  image json;
  position integer := 0;
  media_text text;
  seen text[] := '{}';
  covers integer := 0;
BEGIN
  -- Not a list at all: products_images_check answers that.
  IF json_typeof(NEW.images) <> 'array' OR (TG_OP = 'UPDATE' AND NEW.images::text = OLD.images::text) THEN
    RETURN NEW;
  END IF;
  FOR image IN SELECT value FROM json_array_elements(NEW.images) LOOP
    IF json_typeof(image) <> 'object' THEN
      RAISE EXCEPTION 'images[%] must be an object {media_id, alt, cover}', position USING ERRCODE = 'SK765';
    END IF;
    IF EXISTS (SELECT 1 FROM json_object_keys(image) AS key WHERE key NOT IN ('media_id', 'alt', 'cover')) THEN
      RAISE EXCEPTION 'images[%] has a field other than media_id, alt and cover', position USING ERRCODE = 'SK765';
    END IF;
    media_text := image ->> 'media_id';
    IF media_text IS NULL OR media_text !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
      RAISE EXCEPTION 'images[%].media_id must be the id of a media row', position USING ERRCODE = 'SK765';
    END IF;
    media_text := lower(media_text);
    IF media_text = ANY (seen) THEN
      RAISE EXCEPTION 'images[%] repeats media %', position, media_text USING ERRCODE = 'SK765';
    END IF;
    seen := seen || media_text;
    IF NOT EXISTS (SELECT 1 FROM api.media AS m WHERE m.organization_id = NEW.organization_id AND m.id = media_text::uuid) THEN
      RAISE EXCEPTION 'Media % not found', media_text USING ERRCODE = 'SK766', DETAIL = format('media %s', media_text);
    END IF;
    IF image -> 'alt' IS NOT NULL AND json_typeof(image -> 'alt') <> 'null' AND (
         json_typeof(image -> 'alt') <> 'object'
         OR EXISTS (SELECT 1 FROM json_each(image -> 'alt') AS alt WHERE json_typeof(alt.value) <> 'string' OR length(alt.value #>> '{}') > 500)) THEN
      RAISE EXCEPTION 'images[%].alt must map languages to texts of at most 500 characters', position USING ERRCODE = 'SK765';
    END IF;
    IF image -> 'cover' IS NOT NULL AND json_typeof(image -> 'cover') NOT IN ('boolean', 'null') THEN
      RAISE EXCEPTION 'images[%].cover must be true or false', position USING ERRCODE = 'SK765';
    END IF;
    IF (image ->> 'cover') = 'true' THEN
      covers := covers + 1;
    END IF;
    position := position + 1;
  END LOOP;
  IF covers > 1 THEN
    RAISE EXCEPTION 'At most one image is the cover' USING ERRCODE = 'SK765';
  END IF;
  RETURN NEW;
END
$$;
COMMENT ON COLUMN api.products.images IS
  'The unit''s photos in order: [{media_id, alt: {language: text}, cover: boolean}], each one of the organization''s media (POST /v1/media); at most one cover (else the first is).';
CREATE TRIGGER check_product_images BEFORE INSERT OR UPDATE OF images ON api.products
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.check_product_images();

-- A photo removed from a unit (or a deleted unit's photos) is deleted when no other unit shows it.
CREATE FUNCTION staykit_internal.delete_unshown_media() RETURNS trigger
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
        AND EXISTS (SELECT 1 FROM json_array_elements(p.images) AS image WHERE lower(image ->> 'media_id') = m.id::text));
  RETURN NULL;
END
$$;
CREATE TRIGGER delete_unshown_media AFTER UPDATE OF images OR DELETE ON api.products
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.delete_unshown_media();

-- add_media(row, limit): the upload route's one write. Refuses (SK763) when the organization already has `limit`
-- media rows; uploads of one organization take turns on an advisory lock so two cannot both pass the count.
CREATE FUNCTION staykit_internal.add_media(body jsonb, max_per_organization integer) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  added api.media;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('staykit-media:' || org, 0));
  IF (SELECT count(*) FROM api.media WHERE organization_id = org) >= max_per_organization THEN
    RAISE EXCEPTION 'The organization has % images, the most it may keep', max_per_organization USING ERRCODE = 'SK763',
      DETAIL = format('limit %s', max_per_organization);
  END IF;
  INSERT INTO api.media (organization_id, hash, content_type, filename, bytes, width, height, url, variants, dominant_color)
  VALUES (org, body ->> 'hash', body ->> 'content_type', body ->> 'filename', (body ->> 'bytes')::integer,
          (body ->> 'width')::integer, (body ->> 'height')::integer, body ->> 'url', body -> 'variants', body ->> 'dominant_color')
  RETURNING * INTO added;
  -- The same picture uploaded again after its files were swept away is written again: it is no deletion any more.
  DELETE FROM staykit_internal.media_deletions WHERE organization_id = org AND hash = added.hash;
  RETURN to_jsonb(added);
END
$$;
COMMENT ON FUNCTION staykit_internal.add_media(jsonb, integer) IS
  'POST /v1/media: records an upload whose files are stored; SK763 when the organization is at its media limit.';
REVOKE ALL ON FUNCTION staykit_internal.add_media(jsonb, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.add_media(jsonb, integer) TO staykit_api;
