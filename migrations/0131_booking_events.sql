-- booking.created|updated|confirmed|cancelled (docs/webhooks.md#booking-events): one event per booking and
-- transaction, carrying the whole booking as the transaction commits it — the booking row, its calendar events
-- (dates, status), the product (id, name), the contact, occupancy, totals and line items.
--
-- A booking is written as many rows (create_booking inserts the booking, then its event, lines, details and
-- contact), so the row triggers only note which bookings a transaction touched and how, in booking_event_pending;
-- a deferred constraint trigger on that table runs at commit, when every row is written, and emits the events.

CREATE TABLE staykit_internal.booking_event_pending (
  booking_id uuid NOT NULL,
  organization_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('created', 'updated', 'confirmed', 'cancelled')),
  PRIMARY KEY (booking_id, kind)
);
COMMENT ON TABLE staykit_internal.booking_event_pending IS
  'Bookings the running transaction touched and how; emptied at its commit by booking_events_emit.';

-- The booking as sent in booking.* payloads; null when it no longer exists.
CREATE FUNCTION staykit_internal.booking_event_snapshot(org uuid, booking uuid) RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT staykit_internal.webhook_row_snapshot(to_jsonb(b)) || jsonb_build_object(
    'calendar_events', coalesce((
      SELECT jsonb_agg(jsonb_build_object('id', e.id, 'product_id', e.product_id, 'start_date', e.start_date,
                                          'end_date', e.end_date, 'status', e.status, 'type', e.type)
                       ORDER BY e.start_date, e.id)
      FROM api.calendar_events AS e WHERE e.organization_id = org AND e.booking_id = b.id), '[]'::jsonb),
    'product', (
      SELECT jsonb_build_object('id', p.id, 'name', p.name)
      FROM api.calendar_events AS e JOIN api.products AS p ON p.id = e.product_id AND p.organization_id = org
      WHERE e.organization_id = org AND e.booking_id = b.id
      ORDER BY e.status = 'CANCELLED', e.start_date, e.id LIMIT 1),
    'contact', (
      SELECT staykit_internal.webhook_row_snapshot(to_jsonb(c))
      FROM api.contact_bookings AS cb JOIN api.contacts AS c ON c.id = cb.contact_id AND c.organization_id = org
      WHERE cb.organization_id = org AND cb.booking_id = b.id
      ORDER BY cb.created_at, cb.id LIMIT 1),
    'total', (SELECT coalesce(sum(l.amount), 0) FROM api.line_items AS l
              WHERE l.organization_id = org AND l.booking_id = b.id AND l.fee_type = 'fee'),
    'deposit', (SELECT coalesce(sum(l.amount), 0) FROM api.line_items AS l
                WHERE l.organization_id = org AND l.booking_id = b.id AND l.fee_type = 'deposit'),
    'line_items', coalesce((
      SELECT jsonb_agg(jsonb_build_object('id', l.id, 'item_type', l.item_type, 'fee_type', l.fee_type, 'name', l.name,
                                          'amount', l.amount, 'quantity', l.quantity, 'service_id', l.service_id)
                       ORDER BY l.created_at, l.id)
      FROM api.line_items AS l WHERE l.organization_id = org AND l.booking_id = b.id), '[]'::jsonb))
  FROM api.bookings AS b WHERE b.organization_id = org AND b.id = booking
$$;

CREATE FUNCTION staykit_internal.note_booking_event(org uuid, booking uuid, kind text) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  INSERT INTO staykit_internal.booking_event_pending (booking_id, organization_id, kind)
  SELECT booking, org, kind
  WHERE booking IS NOT NULL
    AND EXISTS (SELECT 1 FROM api.webhooks AS w WHERE w.organization_id = org AND w.disabled_at IS NULL)
  ON CONFLICT DO NOTHING
$$;

-- Row triggers: which bookings changed, and how.
CREATE FUNCTION staykit_internal.booking_events_note() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  new_row jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
  old_row jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  org uuid := coalesce(new_row, old_row) ->> 'organization_id';
BEGIN
  IF TG_OP = 'UPDATE'
     AND new_row - staykit_internal.webhook_quiet_columns() = old_row - staykit_internal.webhook_quiet_columns() THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'bookings' THEN
    PERFORM staykit_internal.note_booking_event(org, (coalesce(new_row, old_row) ->> 'id')::uuid,
                                                CASE TG_OP WHEN 'INSERT' THEN 'created' ELSE 'updated' END);
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'calendar_events' AND TG_OP = 'UPDATE' AND new_row ->> 'status' IS DISTINCT FROM old_row ->> 'status' THEN
    IF new_row ->> 'status' = 'CONFIRMED' THEN
      PERFORM staykit_internal.note_booking_event(org, (new_row ->> 'booking_id')::uuid, 'confirmed');
    ELSIF new_row ->> 'status' = 'CANCELLED' THEN
      PERFORM staykit_internal.note_booking_event(org, (new_row ->> 'booking_id')::uuid, 'cancelled');
    END IF;
  END IF;
  PERFORM staykit_internal.note_booking_event(org, (new_row ->> 'booking_id')::uuid, 'updated');
  IF old_row ->> 'booking_id' IS DISTINCT FROM new_row ->> 'booking_id' THEN
    PERFORM staykit_internal.note_booking_event(org, (old_row ->> 'booking_id')::uuid, 'updated');
  END IF;
  RETURN NULL;
END
$$;

DO $$
DECLARE
  source text;
BEGIN
  FOREACH source IN ARRAY ARRAY['bookings', 'calendar_events', 'line_items', 'contact_bookings'] LOOP
    EXECUTE format('CREATE TRIGGER booking_events_note AFTER INSERT OR UPDATE OR DELETE ON api.%I '
                   'FOR EACH ROW EXECUTE FUNCTION staykit_internal.booking_events_note()', source);
  END LOOP;
END
$$;

-- At commit: one event per noted (booking, kind). A created, confirmed or cancelled booking gets no separate
-- booking.updated for the same transaction; a booking deleted meanwhile gets none (bookings.deleted says it).
CREATE FUNCTION staykit_internal.booking_events_emit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  booking jsonb;
BEGIN
  DELETE FROM staykit_internal.booking_event_pending WHERE booking_id = NEW.booking_id AND kind = NEW.kind;
  IF NOT FOUND THEN RETURN NULL; END IF;
  IF NEW.kind <> 'updated' THEN
    DELETE FROM staykit_internal.booking_event_pending WHERE booking_id = NEW.booking_id AND kind = 'updated';
  ELSIF EXISTS (SELECT 1 FROM staykit_internal.booking_event_pending WHERE booking_id = NEW.booking_id) THEN
    RETURN NULL;
  END IF;
  booking := staykit_internal.booking_event_snapshot(NEW.organization_id, NEW.booking_id);
  IF booking IS NOT NULL THEN
    PERFORM staykit_internal.emit_webhook_event(NEW.organization_id, 'booking.' || NEW.kind,
                                                jsonb_build_object('booking', booking));
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER booking_events_emit AFTER INSERT ON staykit_internal.booking_event_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION staykit_internal.booking_events_emit();

-- The catalogue gains the four events; the list is taken from the function as earlier migrations left it.
DO $$
DECLARE
  events text[] := staykit_internal.webhook_event_catalogue()
                   || ARRAY['booking.created', 'booking.updated', 'booking.confirmed', 'booking.cancelled'];
BEGIN
  EXECUTE format('CREATE OR REPLACE FUNCTION staykit_internal.webhook_event_catalogue() RETURNS text[] '
                 'LANGUAGE sql IMMUTABLE AS %L', format('SELECT %L::text[]', events));
END
$$;

REVOKE ALL ON staykit_internal.booking_event_pending FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.booking_event_snapshot(uuid, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.note_booking_event(uuid, uuid, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.booking_events_note() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.booking_events_emit() FROM PUBLIC;
