-- Whether the guest of a booking is sent e-mail is the organization's choice, not a widget visitor's: a publishable
-- key's booking (POST /v1/book, /v1/cart-checkout with `pk_…`) is never silent. The server refuses `"silent": true`
-- from a publishable key before anything is read (403 SK646, docs/widget.md); the database refuses the same for
-- any statement a publishable key's transaction runs, so no other path of the booking flow can write it either.

CREATE FUNCTION staykit_internal.bookings_publishable_not_silent() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF (staykit_internal.current_publishable_key()).id IS NOT NULL THEN
    RAISE EXCEPTION 'A publishable key cannot make a silent booking' USING ERRCODE = 'SK646',
      HINT = 'Leave silent out; a server with a secret key can book silently';
  END IF;
  RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION staykit_internal.bookings_publishable_not_silent() FROM PUBLIC;
CREATE TRIGGER bookings_publishable_not_silent BEFORE INSERT OR UPDATE OF silent ON api.bookings
  FOR EACH ROW WHEN (NEW.silent) EXECUTE FUNCTION staykit_internal.bookings_publishable_not_silent();
