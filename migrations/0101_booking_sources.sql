-- Where a booking came from: the site or widget of /book and /cart-checkout (bookings.site_id, widget_id).
--
-- create_booking (0060) writes the booking; this function records its source right after, in the same statement
-- and transaction (`SELECT record_booking_source(create_booking(payload), payload)`), so the booking write path
-- stays one function and is not copied here. The site and widget must be the request's organization's: a foreign
-- id or a deleted one is SKS01 / SKW01 (404 for the client), never a silent null.

CREATE FUNCTION staykit_internal.record_booking_source(created jsonb, payload jsonb) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  site uuid := (payload ->> 'site_id')::uuid;
  widget uuid := (payload ->> 'widget_id')::uuid;
BEGIN
  IF site IS NULL AND widget IS NULL THEN
    RETURN created;
  END IF;
  IF site IS NOT NULL AND NOT EXISTS (SELECT 1 FROM api.sites WHERE id = site AND organization_id = org) THEN
    RAISE EXCEPTION 'site % not found', site USING ERRCODE = 'SKS01';
  END IF;
  IF widget IS NOT NULL AND NOT EXISTS (SELECT 1 FROM api.widgets WHERE id = widget AND organization_id = org) THEN
    RAISE EXCEPTION 'widget % not found', widget USING ERRCODE = 'SKW01';
  END IF;
  -- A source named in the body wins over none; in a publishable key's transaction the key's own is set back by
  -- the bookings_publishable_attribution trigger (migration 0151).
  UPDATE api.bookings SET site_id = coalesce(site, site_id), widget_id = coalesce(widget, widget_id)
  WHERE id = (created ->> 'booking_id')::uuid AND organization_id = org;
  RETURN created;
END
$$;
COMMENT ON FUNCTION staykit_internal.record_booking_source(jsonb, jsonb) IS
  'Booking flow: sets site_id / widget_id of the booking create_booking just wrote (payload keys site_id, '
  'widget_id), after checking they are the organization''s (SKS01 / SKW01). Returns create_booking''s result.';
REVOKE EXECUTE ON FUNCTION staykit_internal.record_booking_source(jsonb, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.record_booking_source(jsonb, jsonb) TO staykit_api;
