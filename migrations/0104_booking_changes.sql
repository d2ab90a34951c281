-- Changing a booking (docs/booking.md#changing-a-booking): POST /v1/booking-change re-checks and re-prices the stay
-- with the code of /quote, then change_booking writes it in one transaction. A booking event's dates and unit are
-- changed only that way: a direct PATCH of them (which would keep the old price and skip the rules) is refused
-- with SK644, naming the endpoint. Status moves through PATCH stay as they are.

-- The one writer allowed to move a booking event: a transaction that says so (change_booking, import_booking).
CREATE FUNCTION staykit_internal.calendar_events_guard_booking_move() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('staykit.booking_move', true), '') <> 'on' THEN
    RAISE EXCEPTION 'The dates and unit of a booking are changed with POST /v1/booking-change'
      USING ERRCODE = 'SK644', DETAIL = format('calendar event %s belongs to booking %s', OLD.id, OLD.booking_id),
            HINT = 'POST /v1/booking-change re-checks the rules and re-prices the booking';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER guard_booking_move BEFORE UPDATE OF start_date, end_date, product_id ON api.calendar_events
  FOR EACH ROW WHEN (OLD.type = 'booking' AND OLD.booking_id IS NOT NULL
                     AND (NEW.start_date, NEW.end_date, NEW.product_id) IS DISTINCT FROM (OLD.start_date, OLD.end_date, OLD.product_id))
  EXECUTE FUNCTION staykit_internal.calendar_events_guard_booking_move();

-- The priced lines of a booking: line items with their taxes, booking details, coupon uses (with the quota checked,
-- the coupon row locked, as create_booking does). payload keys as create_booking's.
CREATE FUNCTION staykit_internal.write_booking_lines(org uuid, booking uuid, payload jsonb) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  item jsonb;
  tax jsonb;
  detail jsonb;
  coupon jsonb;
  line_id uuid;
  coupon_quota integer;
  uses integer;
BEGIN
  FOR item IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'line_items', '[]')) LOOP
    INSERT INTO api.line_items (organization_id, booking_id, service_id, amount, fee_type, item_type, name, quantity)
    VALUES (org, booking, (item ->> 'service_id')::uuid, (item ->> 'amount')::integer, item ->> 'fee_type',
            item ->> 'item_type', item -> 'name', (item ->> 'quantity')::integer)
    RETURNING id INTO line_id;
    FOR tax IN SELECT value FROM jsonb_array_elements(coalesce(item -> 'taxes', '[]')) LOOP
      INSERT INTO api.line_item_taxes (organization_id, line_item_id, tax_id, name, percentage, inclusive, amount)
      VALUES (org, line_id, (tax ->> 'tax_id')::uuid, tax ->> 'name', (tax ->> 'percentage')::numeric,
              (tax ->> 'inclusive')::boolean, (tax ->> 'amount')::integer);
    END LOOP;
  END LOOP;
  FOR detail IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'details', '[]')) LOOP
    INSERT INTO api.booking_details (organization_id, booking_id, service_id, option_id, name, description, value)
    VALUES (org, booking, (detail ->> 'service_id')::uuid, (detail ->> 'option_id')::uuid, detail -> 'name',
            coalesce(detail -> 'description', '{}'), detail ->> 'value');
  END LOOP;
  FOR coupon IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'coupons', '[]')) LOOP
    SELECT c.quota INTO coupon_quota FROM api.coupons AS c
    WHERE c.id = (coupon ->> 'coupon_id')::uuid AND c.organization_id = org AND c.deleted_at IS NULL FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'coupon % not found', coupon ->> 'coupon_id' USING ERRCODE = 'SKQ02';
    END IF;
    SELECT count(*) INTO uses FROM api.coupon_uses WHERE coupon_id = (coupon ->> 'coupon_id')::uuid AND organization_id = org;
    IF coupon_quota IS NOT NULL AND uses >= coupon_quota THEN
      RAISE EXCEPTION 'coupon % has no uses left', coupon ->> 'coupon_id' USING ERRCODE = 'SKQ01';
    END IF;
    INSERT INTO api.coupon_uses (organization_id, coupon_id, booking_id, amount)
    VALUES (org, (coupon ->> 'coupon_id')::uuid, booking, (coupon ->> 'amount')::integer);
  END LOOP;
END
$$;
COMMENT ON FUNCTION staykit_internal.write_booking_lines(uuid, uuid, jsonb) IS
  'Writes a booking''s line items (+ taxes), details and coupon uses from a create_booking-shaped payload.';

-- change_booking(booking, payload): the new stay and price of a live booking, atomically. payload as
-- create_booking's (product_id, start_date, end_date, padding, occupancy, generated_title, line_items, details,
-- coupons) plus `changes` (what the client changed, for the log) and `previous_total`/`total`.
-- Errors: SKB01 unknown booking, SKB02 not changeable (cancelled, or no live booking event), 23P01 dates taken.
CREATE FUNCTION staykit_internal.change_booking(booking uuid, payload jsonb) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  old_booking api.bookings;
  new_booking api.bookings;
  event api.calendar_events;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  SELECT * INTO old_booking FROM api.bookings WHERE id = booking AND organization_id = org FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'booking % not found', booking USING ERRCODE = 'SKB01';
  END IF;
  SELECT * INTO event FROM api.calendar_events
  WHERE organization_id = org AND booking_id = booking AND type = 'booking' AND status <> 'CANCELLED'
  ORDER BY start_date LIMIT 1 FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'booking % is cancelled: it cannot be changed', booking USING ERRCODE = 'SKB02';
  END IF;

  PERFORM set_config('staykit.booking_move', 'on', true);
  UPDATE api.calendar_events
  SET product_id = (payload ->> 'product_id')::uuid, start_date = (payload ->> 'start_date')::date,
      end_date = (payload ->> 'end_date')::date, padding = (payload ->> 'padding')::smallint,
      generated_title = coalesce(payload ->> 'generated_title', generated_title)
  WHERE organization_id = org AND id = event.id;
  PERFORM set_config('staykit.booking_move', '', true);

  DELETE FROM api.line_items WHERE organization_id = org AND booking_id = booking;
  DELETE FROM api.booking_details WHERE organization_id = org AND booking_id = booking;
  DELETE FROM api.coupon_uses WHERE organization_id = org AND booking_id = booking;
  PERFORM staykit_internal.write_booking_lines(org, booking, payload);

  UPDATE api.bookings SET occupancy = payload -> 'occupancy'
  WHERE id = booking AND organization_id = org AND occupancy IS DISTINCT FROM payload -> 'occupancy';
  SELECT * INTO new_booking FROM api.bookings WHERE id = booking AND organization_id = org;
  -- The change as a log entry and a bookings.updated webhook with what changed (the row's own triggers also log
  -- and announce a changed occupancy).
  INSERT INTO api.booking_updates (organization_id, booking_id, user_id, changed_fields, changes)
  VALUES (org, booking, staykit_internal.acting_user_id(org),
          ARRAY(SELECT jsonb_object_keys(payload -> 'changes') ORDER BY 1),
          (payload -> 'changes') || jsonb_build_object('total', jsonb_build_object(
            'old', payload -> 'previous_total', 'new', payload -> 'total'), 'by', staykit_internal.current_actor()));
  PERFORM staykit_internal.emit_webhook_event(org, 'bookings.updated', jsonb_build_object(
    'new', staykit_internal.webhook_row_snapshot(to_jsonb(new_booking)),
    'old', staykit_internal.webhook_row_snapshot(to_jsonb(old_booking)),
    'change', payload -> 'changes'));
  RETURN jsonb_build_object('booking_id', booking, 'reference', new_booking.reference, 'event_id', event.id);
END
$$;
COMMENT ON FUNCTION staykit_internal.change_booking(uuid, jsonb) IS
  'POST /v1/booking-change: moves the booking''s event, replaces its lines, details and coupon uses, logs the change.';

REVOKE ALL ON FUNCTION staykit_internal.calendar_events_guard_booking_move() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.write_booking_lines(uuid, uuid, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.change_booking(uuid, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.change_booking(uuid, jsonb) TO staykit_api;
