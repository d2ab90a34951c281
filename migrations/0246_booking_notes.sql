-- Private notes on a stay are written by the team (the dashboard's booking page, issue 36): the API role may now
-- create them (POST /v1/calendar_event_notes with calendar_event_id and note). The author is the acting user, set by
-- the database as booking_updates.user_id is (a client cannot write someone else's name on a note; an API key has
-- no user: no author). A note is not edited or deleted through the API: it is part of the booking's history.

UPDATE staykit_internal.api_access
SET operations = '{SELECT,INSERT}', why = 'the team adds notes; a note stays as written (part of the booking''s history)'
WHERE table_name = 'calendar_event_notes' AND column_name = '*';

INSERT INTO staykit_internal.api_access (table_name, column_name, operations, readable, insertable, updatable, why) VALUES
  ('calendar_event_notes', 'author_id', NULL, NULL, false, false, 'the acting user, set by the database');

CREATE FUNCTION staykit_internal.calendar_event_notes_author() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
BEGIN
  -- The API role cannot name an author (the column is not insertable); the owner (a script, the seed) may.
  NEW.author_id := coalesce(NEW.author_id, staykit_internal.acting_user_id(NEW.organization_id));
  RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION staykit_internal.calendar_event_notes_author() FROM PUBLIC;
CREATE TRIGGER author BEFORE INSERT ON api.calendar_event_notes
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.calendar_event_notes_author();
