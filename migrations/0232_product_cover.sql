-- A unit's cover photo, written once for every place that shows one (the guest page, the widget's catalogue,
-- e-mails): the image of products.images marked `cover`, else the first, with its media row's URLs, sizes, variants
-- and placeholder colour and the image's alt texts. NULL for a unit without photos. Reads as the definer, bound to
-- the given organization: callers pass the product's own organization_id (docs/media.md).
CREATE FUNCTION staykit_internal.product_cover(org uuid, images json) RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT jsonb_build_object('media_id', m.id, 'url', m.url, 'width', m.width, 'height', m.height,
                            'dominant_color', m.dominant_color, 'variants', m.variants,
                            'alt', coalesce(chosen.image -> 'alt', '{}'::json))
  FROM (SELECT image, position FROM json_array_elements(CASE WHEN json_typeof(images) = 'array' THEN images ELSE '[]' END)
          WITH ORDINALITY AS listed(image, position)
        ORDER BY (image ->> 'cover') = 'true' DESC NULLS LAST, position
        LIMIT 1) AS chosen
  JOIN api.media AS m ON m.organization_id = org AND m.id::text = lower(chosen.image ->> 'media_id')
$$;
COMMENT ON FUNCTION staykit_internal.product_cover(uuid, json) IS
  'The cover photo of a unit''s images (the one marked cover, else the first) with its media row; NULL without photos.';
REVOKE ALL ON FUNCTION staykit_internal.product_cover(uuid, json) FROM PUBLIC;
