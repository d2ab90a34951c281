-- Booking terms and their acceptance (docs/widget.md#booking-terms-and-the-cancellation-policy, docs/booking.md):
-- a guest who books through the widget or the booking site sees the unit's cancellation policy and, when the
-- organization has them, its booking terms, and accepts both before booking.
--
-- - organizations.settings.booking_terms: text, or a MultiLanguageString ({"default": …, "nl": …, "de": …}, read in
--   the guest's language by the shared rule of src/common/languages.ts); every text holds something other than
--   white space and is at most 20 000 characters. Absent or null: the organization has no booking terms. A CHECK
--   holds the shape, so a wrong setting is refused when written, never found by a guest.
-- - A booking made with a publishable key, while the organization has booking terms, must say `"accept_terms":
--   true` (422 SK649). The server refuses before pricing; the trigger below holds the same line for any statement
--   of a publishable key's transaction, as 0212 does for silent bookings.
-- - bookings.terms_accepted_at: when the guest accepted (the booking's transaction time). The database sets it when
--   the booking flow's transaction says the guest accepted (the setting staykit.booking_terms_accepted, which the
--   server sets for `"accept_terms": true`); nothing else writes it. The API reads it with the bookings' read scope
--   (bookings' SELECT is granted on the table) and may not change it: bookings' UPDATE is granted per column (0102)
--   and this column is not among them — a later grant_api_access('api.bookings', …) must list it as not updatable.
-- - staykit_internal.current_booking_terms(): the request organization's terms, for the widget's public catalogue
--   and the server's check, without making organizations readable to a publishable key's transaction.

CREATE FUNCTION staykit_internal.is_booking_terms(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
    RETURN true;
  END IF;
  IF jsonb_typeof(value) = 'string' THEN
    RETURN (value #>> '{}') ~ '\S' AND length(value #>> '{}') <= 20000;
  END IF;
  IF NOT staykit_internal.is_multi_language_string(value) OR NOT ((value ->> 'default') ~ '\S') THEN
    RETURN false;
  END IF;
  RETURN NOT EXISTS (SELECT 1 FROM jsonb_each_text(value) AS t WHERE length(t.value) > 20000);
END
$$;
COMMENT ON FUNCTION staykit_internal.is_booking_terms(jsonb) IS
  'organizations.settings.booking_terms: absent/null, or non-blank text or a MultiLanguageString with a non-blank default, '
  'each text at most 20000 characters.';

ALTER TABLE api.organizations
  ADD CONSTRAINT organizations_booking_terms CHECK (staykit_internal.is_booking_terms(settings -> 'booking_terms'));

-- The request organization's booking terms (text or MultiLanguageString), or NULL when it has none.
CREATE FUNCTION staykit_internal.current_booking_terms() RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT nullif(o.settings -> 'booking_terms', 'null'::jsonb)
  FROM api.organizations AS o WHERE o.id = staykit_internal.current_organization_id()
$$;
REVOKE ALL ON FUNCTION staykit_internal.current_booking_terms() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.current_booking_terms() TO staykit_api;
COMMENT ON FUNCTION staykit_internal.current_booking_terms() IS
  'The booking terms of the request''s organization (settings.booking_terms), NULL without: public, shown to guests.';

ALTER TABLE api.bookings ADD COLUMN terms_accepted_at timestamptz;
COMMENT ON COLUMN api.bookings.terms_accepted_at IS
  'When the guest accepted the booking terms and the cancellation policy (a booking request with accept_terms: true); '
  'null when not. Set by the database.';

CREATE FUNCTION staykit_internal.bookings_terms_acceptance() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF current_setting('staykit.booking_terms_accepted', true) = 'true' THEN
    NEW.terms_accepted_at := now();
  ELSIF NEW.terms_accepted_at IS NULL AND (staykit_internal.current_publishable_key()).id IS NOT NULL
        AND EXISTS (SELECT 1 FROM api.organizations AS o
                    WHERE o.id = NEW.organization_id AND jsonb_typeof(o.settings -> 'booking_terms') IN ('string', 'object')) THEN
    RAISE EXCEPTION 'The guest must accept the booking terms and the cancellation policy to book' USING ERRCODE = 'SK649',
      HINT = 'Show the booking terms (GET /v1/widget: booking_terms) and send "accept_terms": true once the guest accepted them';
  END IF;
  RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION staykit_internal.bookings_terms_acceptance() FROM PUBLIC;
CREATE TRIGGER bookings_terms_acceptance BEFORE INSERT ON api.bookings
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.bookings_terms_acceptance();
