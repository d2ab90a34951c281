-- Reservations made on other channels (docs/booking.md#imported-reservations): POST /v1/import-booking records a
-- channel's reservation with the channel's own price lines (no re-pricing), once per (channel, external_id): a
-- repeat updates the same booking (new dates, unit, guests, prices, or the channel's cancellation). The stay is still
-- held to the no-overlap constraints. The import has its own scope, booking_imports:write, because this table is
-- the resource it writes (read-only to the API otherwise).

CREATE TABLE api.booking_imports (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  channel text NOT NULL CONSTRAINT booking_imports_channel_format CHECK (channel ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
  external_id text NOT NULL CONSTRAINT booking_imports_external_id_length CHECK (length(external_id) BETWEEN 1 AND 255),
  booking_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  payload jsonb NOT NULL,
  PRIMARY KEY (organization_id, id),
  UNIQUE (id, organization_id),
  CONSTRAINT booking_imports_channel_external_id_unique UNIQUE (channel, external_id, organization_id),
  CONSTRAINT booking_imports_booking_id_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX booking_imports_booking_id_idx ON api.booking_imports (booking_id);
COMMENT ON TABLE api.booking_imports IS
  'Reservations imported from other channels by POST /v1/import-booking: one booking per channel and reservation id.';
COMMENT ON COLUMN api.booking_imports.channel IS 'The channel that sold the stay, e.g. airbnb or booking.com (lowercase).';
COMMENT ON COLUMN api.booking_imports.external_id IS 'The reservation''s id at the channel.';
COMMENT ON COLUMN api.booking_imports.booking_id IS 'The booking it is recorded as (refers to bookings.id).';
COMMENT ON COLUMN api.booking_imports.payload IS 'The last import request as received.';

ALTER TABLE api.booking_imports ENABLE ROW LEVEL SECURITY;
ALTER TABLE api.booking_imports FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON api.booking_imports TO staykit_api
  USING (organization_id = (SELECT staykit_internal.current_organization_id()))
  WITH CHECK (organization_id = (SELECT staykit_internal.current_organization_id()));
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_access ON api.booking_imports TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;
SELECT staykit_internal.enforce_read_scope('api.booking_imports');
SELECT staykit_internal.grant_api_access('api.booking_imports', '{SELECT}');
CREATE TRIGGER set_updated_at BEFORE UPDATE ON api.booking_imports
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.set_updated_at();

-- import_booking(payload): payload {channel, external_id, request (as received), booking: a create_booking payload
-- (product_id, start_date, end_date, status, currency, language, occupancy, contact, generated_title, line_items)}.
-- Returns {booking_id, reference, created, unchanged}. The channel is the actor of what it changes (cancelled_by
-- channel:<name>). Errors: 23P01 the dates are taken; the status moves of calendar_events apply.
CREATE FUNCTION staykit_internal.import_booking(body jsonb) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  channel_name constant text := body ->> 'channel';
  external constant text := body ->> 'external_id';
  stay constant jsonb := (body -> 'booking') || jsonb_build_object(
    'padding', 0, 'method', 'book', 'display_currency', body -> 'booking' -> 'currency', 'exchange_rate', 1,
    'silent', true, 'details', '[]'::jsonb, 'coupons', '[]'::jsonb);
  wanted constant text := body -> 'booking' ->> 'status';
  mapping api.booking_imports;
  event api.calendar_events;
  created jsonb;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  -- One import of a reservation at a time: the second waits and then sees the first's booking.
  PERFORM pg_advisory_xact_lock(hashtextextended('staykit-import:' || org || ':' || channel_name || ':' || external, 0));
  PERFORM set_config('staykit.actor', 'channel:' || channel_name, true);
  SELECT * INTO mapping FROM api.booking_imports
  WHERE organization_id = org AND channel = channel_name AND external_id = external;

  IF NOT FOUND THEN
    created := staykit_internal.create_booking(stay);
    UPDATE api.calendar_events SET origin = 'import', uid = channel_name || ':' || external
    WHERE organization_id = org AND booking_id = (created ->> 'booking_id')::uuid;
    INSERT INTO api.booking_imports (organization_id, channel, external_id, booking_id, payload)
    VALUES (org, channel_name, external, (created ->> 'booking_id')::uuid, body -> 'request');
    RETURN created || jsonb_build_object('created', true, 'unchanged', false);
  END IF;

  IF mapping.payload = body -> 'request' THEN
    RETURN jsonb_build_object('booking_id', mapping.booking_id, 'created', false, 'unchanged', true,
                              'reference', (SELECT reference FROM api.bookings WHERE id = mapping.booking_id AND organization_id = org));
  END IF;
  SELECT * INTO event FROM api.calendar_events
  WHERE organization_id = org AND booking_id = mapping.booking_id AND type = 'booking'
  ORDER BY (status <> 'CANCELLED') DESC, start_date LIMIT 1;
  IF wanted = 'CANCELLED' THEN
    UPDATE api.calendar_events SET status = 'CANCELLED'
    WHERE organization_id = org AND booking_id = mapping.booking_id AND type = 'booking' AND status <> 'CANCELLED';
  ELSE
    IF event.status = 'CANCELLED' THEN
      UPDATE api.calendar_events SET status = wanted WHERE organization_id = org AND id = event.id;
    END IF;
    PERFORM staykit_internal.change_booking(mapping.booking_id, stay || jsonb_build_object(
      'changes', jsonb_build_object('import', jsonb_build_object('old', mapping.payload, 'new', body -> 'request')),
      'previous_total', (SELECT coalesce(sum(amount), 0) FROM api.line_items
                         WHERE organization_id = org AND booking_id = mapping.booking_id AND fee_type = 'fee'),
      'total', (SELECT coalesce(sum((l ->> 'amount')::integer), 0) FROM jsonb_array_elements(stay -> 'line_items') AS l
                WHERE l ->> 'fee_type' = 'fee')));
    UPDATE api.calendar_events SET status = wanted
    WHERE organization_id = org AND booking_id = mapping.booking_id AND type = 'booking' AND status <> wanted;
  END IF;
  UPDATE api.booking_imports SET payload = body -> 'request' WHERE organization_id = org AND id = mapping.id;
  RETURN jsonb_build_object('booking_id', mapping.booking_id, 'created', false, 'unchanged', false,
                            'reference', (SELECT reference FROM api.bookings WHERE id = mapping.booking_id AND organization_id = org));
END
$$;
COMMENT ON FUNCTION staykit_internal.import_booking(jsonb) IS
  'POST /v1/import-booking: creates or updates the booking of a channel''s reservation (channel, external_id).';
REVOKE ALL ON FUNCTION staykit_internal.import_booking(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.import_booking(jsonb) TO staykit_api;
