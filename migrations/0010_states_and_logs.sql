-- States, logs and soft deletes in the database (docs/design.md#states-and-soft-deletes and #logs), plus updated_at
-- on every mutable table.
--
-- The log writers are SECURITY DEFINER with a fixed search_path: clients (role staykit_api) may read the logs but
-- never write them, and may not write bookings.confirmed_at themselves.

-- ---------------------------------------------------------------------------------------------------------------
-- updated_at = now() on every UPDATE, for every api table that has the column. external_calendars.updated_at is
-- different ("when the calendar last received new events", set by the sync) and is left alone.

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.table_name
    FROM information_schema.columns AS c
    JOIN information_schema.tables AS tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
    WHERE c.table_schema = 'api' AND c.column_name = 'updated_at' AND tb.table_type = 'BASE TABLE'
      AND c.table_name <> 'external_calendars'
    ORDER BY c.table_name
  LOOP
    EXECUTE format('CREATE TRIGGER set_updated_at BEFORE UPDATE ON api.%I '
                   'FOR EACH ROW EXECUTE FUNCTION staykit_internal.set_updated_at()', t.table_name);
  END LOOP;
END
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- calendar_events.status moves: TENTATIVE → CONFIRMED | CANCELLED; CONFIRMED → CANCELLED;
-- CANCELLED → TENTATIVE | CONFIRMED (only if the dates are still free: the exclusion constraint decides).

CREATE FUNCTION staykit_internal.is_allowed_status_move(from_status text, to_status text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT from_status = to_status
      OR (from_status, to_status) IN (('TENTATIVE', 'CONFIRMED'), ('TENTATIVE', 'CANCELLED'),
                                      ('CONFIRMED', 'CANCELLED'),
                                      ('CANCELLED', 'TENTATIVE'), ('CANCELLED', 'CONFIRMED'))
$$;
COMMENT ON FUNCTION staykit_internal.is_allowed_status_move(text, text) IS
  'Allowed calendar event status moves (docs/design.md#states-and-soft-deletes); staying in the same status is always allowed.';

CREATE FUNCTION staykit_internal.calendar_events_check_status_move() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT staykit_internal.is_allowed_status_move(OLD.status, NEW.status) THEN
    RAISE EXCEPTION 'calendar event status cannot move from % to %', OLD.status, NEW.status
      USING ERRCODE = 'check_violation',
            CONSTRAINT = 'calendar_events_status_transition',
            TABLE = 'calendar_events',
            SCHEMA = 'api',
            COLUMN = 'status',
            HINT = 'Allowed moves: TENTATIVE to CONFIRMED or CANCELLED; CONFIRMED to CANCELLED; '
                   'CANCELLED to TENTATIVE or CONFIRMED.';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER check_status_move BEFORE UPDATE OF status ON api.calendar_events
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.calendar_events_check_status_move();

-- A booking is confirmed when its calendar event becomes CONFIRMED (by insert or update): confirmed_at = now(),
-- unless it was confirmed before.
CREATE FUNCTION staykit_internal.calendar_events_confirm_booking() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
BEGIN
  IF NEW.booking_id IS NOT NULL AND NEW.status = 'CONFIRMED'
     AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'CONFIRMED' OR OLD.booking_id IS DISTINCT FROM NEW.booking_id)
  THEN
    UPDATE api.bookings SET confirmed_at = now()
    WHERE id = NEW.booking_id AND organization_id = NEW.organization_id AND confirmed_at IS NULL;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER confirm_booking AFTER INSERT OR UPDATE OF status, booking_id ON api.calendar_events
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.calendar_events_confirm_booking();

-- ---------------------------------------------------------------------------------------------------------------
-- Coupons are soft deleted: DELETE sets deleted_at (once) and removes nothing. The partial unique index
-- coupons_code_unique then lets a new coupon reuse the code.

CREATE FUNCTION staykit_internal.coupons_soft_delete() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
BEGIN
  UPDATE api.coupons SET deleted_at = now() WHERE id = OLD.id AND deleted_at IS NULL;
  RETURN NULL;
END
$$;
CREATE TRIGGER soft_delete BEFORE DELETE ON api.coupons
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.coupons_soft_delete();

-- ---------------------------------------------------------------------------------------------------------------
-- Logs.

-- The acting user (setting staykit.user_id) when they have a profile in the organization, else NULL.
CREATE FUNCTION staykit_internal.acting_user_id(organization uuid) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
  SELECT p.user_id FROM api.user_profiles AS p
  WHERE p.user_id = staykit_internal.current_user_id() AND p.organization_id = organization
$$;

-- Column names whose values differ between two row images (ignoring bookkeeping columns).
CREATE FUNCTION staykit_internal.changed_columns(old_row jsonb, new_row jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(k ORDER BY k), '{}')
  FROM (SELECT jsonb_object_keys(coalesce(old_row, '{}') || coalesce(new_row, '{}')) AS k) AS keys
  WHERE k NOT IN ('updated_at', 'fts') AND (old_row -> k) IS DISTINCT FROM (new_row -> k)
$$;

CREATE FUNCTION staykit_internal.bookings_log_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  old_row jsonb := to_jsonb(OLD) - 'fts';
  new_row jsonb := to_jsonb(NEW) - 'fts';
  fields text[] := staykit_internal.changed_columns(to_jsonb(OLD), to_jsonb(NEW));
BEGIN
  INSERT INTO api.booking_updates (organization_id, booking_id, user_id, changed_fields, changes)
  VALUES (NEW.organization_id, NEW.id, staykit_internal.acting_user_id(NEW.organization_id), fields,
          coalesce((SELECT jsonb_object_agg(f, jsonb_build_object('old', old_row -> f, 'new', new_row -> f))
                    FROM unnest(fields) AS f), '{}'));
  RETURN NULL;
END
$$;
CREATE TRIGGER log_update AFTER UPDATE ON api.bookings
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.bookings_log_update();

CREATE FUNCTION staykit_internal.calendar_events_log_change() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  event api.calendar_events;
BEGIN
  IF TG_OP = 'DELETE' THEN
    event := OLD;
  ELSE
    event := NEW;
  END IF;
  INSERT INTO api.calendar_event_updates
    (organization_id, calendar_event_id, booking_id, user_id, kind, status, previous_status, changed_fields, snapshot)
  VALUES (
    event.organization_id, event.id, event.booking_id, staykit_internal.acting_user_id(event.organization_id),
    CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'updated' ELSE 'deleted' END,
    event.status,
    CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.status END,
    CASE WHEN TG_OP = 'UPDATE' THEN staykit_internal.changed_columns(to_jsonb(OLD), to_jsonb(NEW)) ELSE '{}' END,
    to_jsonb(event) - 'fts');
  RETURN NULL;
END
$$;
CREATE TRIGGER log_change AFTER INSERT OR UPDATE OR DELETE ON api.calendar_events
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.calendar_events_log_change();
