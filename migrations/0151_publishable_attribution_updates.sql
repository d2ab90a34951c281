-- A publishable key's bookings stay attributed to its widget or site (migration 0150) also when the booking flow
-- records a source named in the request body right after the insert (record_booking_source, migration 0101): in a
-- publishable key's transaction, any write of bookings.widget_id or site_id is set back to the key's. The body of a
-- request made with a key anyone can read says nothing trustworthy about where the booking came from.

DROP TRIGGER bookings_publishable_attribution ON api.bookings;
CREATE TRIGGER bookings_publishable_attribution BEFORE INSERT OR UPDATE OF widget_id, site_id ON api.bookings
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.bookings_publishable_attribution();
