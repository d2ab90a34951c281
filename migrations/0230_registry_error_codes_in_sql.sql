-- One error convention in SQL: a function refuses with a code of the registry (src/errors/registry.ts) as its
-- SQLSTATE, the message the client reads, and the ids it names in DETAIL. The API answers it as it answers every
-- Staykit code the database raises (src/errors/database-error.ts): the registry's status with the database's message,
-- detail and hint, no mapping of its own. The booking write path raised private SQLSTATEs instead (SKP01, SKQ01/02,
-- SKS01, SKW01, SKB01/02), which src/booking/errors.ts turned into SK602, SK615, SK605, SK640, SK641, SK642 and SK643
-- by hand, reading ids back out of the message. Each function below is its definition in effect (migrations 0091,
-- 0101, 0104, 0210) with only its RAISEs changed, to the codes and messages that mapping answered.
-- test/errors/registry.test.ts fails when a function in effect raises a code the registry does not declare.

-- cancel_booking as in 0210: an unknown booking is SK642.
CREATE OR REPLACE FUNCTION staykit_internal.cancel_booking(booking uuid, reason text) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  result jsonb;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  PERFORM staykit_internal.lock_booking_payments(org, booking);
  PERFORM 1 FROM api.bookings WHERE id = booking AND organization_id = org FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Booking % not found', booking USING ERRCODE = 'SK642', DETAIL = format('booking %s', booking);
  END IF;
  PERFORM set_config('staykit.cancellation_reason', coalesce(reason, ''), true);
  UPDATE api.calendar_events SET status = 'CANCELLED'
  WHERE organization_id = org AND booking_id = booking AND type = 'booking' AND status <> 'CANCELLED';
  PERFORM set_config('staykit.cancellation_reason', '', true);
  SELECT jsonb_build_object('booking_id', b.id, 'reference', b.reference, 'cancelled_at', b.cancelled_at,
           'cancelled_by', b.cancelled_by, 'cancellation_reason', b.cancellation_reason,
           'released_coupon_uses', (SELECT count(*) FROM staykit_internal.released_coupon_uses AS r
                                    WHERE r.organization_id = org AND r.booking_id = b.id))
  INTO result FROM api.bookings AS b WHERE b.id = booking AND b.organization_id = org;
  RETURN result;
END
$$;
COMMENT ON FUNCTION staykit_internal.cancel_booking(uuid, text) IS
  'POST /v1/booking-cancel: moves the booking''s events to CANCELLED with the given reason; SK642 when unknown.';

-- change_booking as in 0210: an unknown booking is SK642, a cancelled one SK643.
CREATE OR REPLACE FUNCTION staykit_internal.change_booking(booking uuid, payload jsonb) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  old_booking api.bookings;
  new_booking api.bookings;
  event api.calendar_events;
  payments jsonb;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  PERFORM staykit_internal.lock_booking_payments(org, booking);
  SELECT * INTO old_booking FROM api.bookings WHERE id = booking AND organization_id = org FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Booking % not found', booking USING ERRCODE = 'SK642', DETAIL = format('booking %s', booking);
  END IF;
  SELECT * INTO event FROM api.calendar_events
  WHERE organization_id = org AND booking_id = booking AND type = 'booking' AND status <> 'CANCELLED'
  ORDER BY start_date LIMIT 1 FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'The booking is cancelled: it cannot be changed' USING ERRCODE = 'SK643',
      DETAIL = format('booking %s', booking);
  END IF;
  IF event.origin IS DISTINCT FROM 'import' AND jsonb_typeof(payload -> 'payment_schedule') IS DISTINCT FROM 'array' THEN
    RAISE EXCEPTION 'change_booking needs the new stay''s payment_schedule';
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
  IF event.origin IS DISTINCT FROM 'import' THEN
    payments := staykit_internal.resplit_payment_schedule(org, booking, payload ->> 'timezone', payload -> 'payment_schedule');
  END IF;

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
  RETURN jsonb_build_object('booking_id', booking, 'reference', new_booking.reference, 'event_id', event.id,
                            'payments', payments);
END
$$;

-- create_booking as in 0091: an unknown product is SK602, an unknown coupon SK605, a used-up one SK615.
CREATE OR REPLACE FUNCTION staykit_internal.create_booking(payload jsonb) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  product_uuid constant uuid := (payload ->> 'product_id')::uuid;
  new_booking api.bookings;
  found_contact uuid;
  contact jsonb := payload -> 'contact';
  item jsonb;
  tax jsonb;
  detail jsonb;
  coupon jsonb;
  line_id uuid;
  coupon_quota integer;
  uses integer;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  PERFORM 1 FROM api.products WHERE id = product_uuid AND organization_id = org AND deleted_at IS NULL;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'Product not found' USING ERRCODE = 'SK602', DETAIL = format('product %s', product_uuid);
  END IF;

  -- Coupons first: lock each coupon row so concurrent bookings count its uses one after the other.
  FOR coupon IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'coupons', '[]')) LOOP
    SELECT c.quota INTO coupon_quota FROM api.coupons AS c
    WHERE c.id = (coupon ->> 'coupon_id')::uuid AND c.organization_id = org AND c.deleted_at IS NULL
    FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'A coupon not found' USING ERRCODE = 'SK605',
        DETAIL = format('coupon %s', coupon ->> 'coupon_id');
    END IF;
    IF coupon_quota IS NOT NULL THEN
      SELECT count(*) INTO uses FROM api.coupon_uses
      WHERE coupon_id = (coupon ->> 'coupon_id')::uuid AND organization_id = org;
      IF uses >= coupon_quota THEN
        RAISE EXCEPTION 'A coupon has no uses left' USING ERRCODE = 'SK615',
          DETAIL = format('coupon %s', coupon ->> 'coupon_id');
      END IF;
    END IF;
  END LOOP;

  INSERT INTO api.bookings (organization_id, currency, display_currency, exchange_rate, language, method, occupancy,
                            silent)
  VALUES (org, payload ->> 'currency', payload ->> 'display_currency', (payload ->> 'exchange_rate')::real,
          payload ->> 'language', payload ->> 'method', payload -> 'occupancy',
          coalesce((payload ->> 'silent')::boolean, false))
  RETURNING * INTO new_booking;

  -- The last word on overlaps: calendar_events_no_overlap (23P01) when the dates (+ padding) are taken.
  INSERT INTO api.calendar_events (organization_id, booking_id, product_id, start_date, end_date, padding, status,
                                   type, origin, generated_title)
  VALUES (org, new_booking.id, product_uuid, (payload ->> 'start_date')::date, (payload ->> 'end_date')::date,
          (payload ->> 'padding')::smallint, payload ->> 'status', 'booking', 'api',
          coalesce(payload ->> 'generated_title', ''));

  FOR item IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'line_items', '[]')) LOOP
    INSERT INTO api.line_items (organization_id, booking_id, service_id, amount, fee_type, item_type, name, quantity)
    VALUES (org, new_booking.id, (item ->> 'service_id')::uuid, (item ->> 'amount')::integer, item ->> 'fee_type',
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
    VALUES (org, new_booking.id, (detail ->> 'service_id')::uuid, (detail ->> 'option_id')::uuid, detail -> 'name',
            coalesce(detail -> 'description', '{}'), detail ->> 'value');
  END LOOP;

  FOR coupon IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'coupons', '[]')) LOOP
    INSERT INTO api.coupon_uses (organization_id, coupon_id, booking_id, amount)
    VALUES (org, (coupon ->> 'coupon_id')::uuid, new_booking.id, (coupon ->> 'amount')::integer);
  END LOOP;

  -- The guest: reuse the organization's contact with the same e-mail (else phone), or create one.
  IF contact IS NOT NULL AND jsonb_typeof(contact) = 'object'
     AND (nullif(contact ->> 'email', '') IS NOT NULL OR nullif(contact ->> 'phone', '') IS NOT NULL
          OR nullif(contact ->> 'first_name', '') IS NOT NULL OR nullif(contact ->> 'last_name', '') IS NOT NULL) THEN
    IF nullif(contact ->> 'email', '') IS NOT NULL THEN
      SELECT id INTO found_contact FROM api.contacts
      WHERE organization_id = org AND lower(email) = lower(contact ->> 'email')
      ORDER BY created_at LIMIT 1;
    ELSIF nullif(contact ->> 'phone', '') IS NOT NULL THEN
      SELECT id INTO found_contact FROM api.contacts
      WHERE organization_id = org AND phone = contact ->> 'phone'
      ORDER BY created_at LIMIT 1;
    END IF;
    IF found_contact IS NULL THEN
      INSERT INTO api.contacts (organization_id, first_name, last_name, email, phone, language)
      VALUES (org, coalesce(contact ->> 'first_name', ''), coalesce(contact ->> 'last_name', ''),
              nullif(contact ->> 'email', ''), nullif(contact ->> 'phone', ''), payload ->> 'language')
      RETURNING id INTO found_contact;
    END IF;
    INSERT INTO api.contact_bookings (organization_id, booking_id, contact_id)
    VALUES (org, new_booking.id, found_contact);
  END IF;

  RETURN jsonb_build_object('booking_id', new_booking.id, 'reference', new_booking.reference,
                            'contact_id', found_contact);
END
$$;
COMMENT ON FUNCTION staykit_internal.create_booking(jsonb) IS
  'Booking flow write path: inserts a priced, validated booking with its calendar event, line items, details, '
  'contact and coupon uses for the request''s organization. Overlaps fail with 23P01, exhausted coupons with SK615.';

-- record_booking_source as in 0101: a site or widget that is not the organization's is SK640 / SK641.
CREATE OR REPLACE FUNCTION staykit_internal.record_booking_source(created jsonb, payload jsonb) RETURNS jsonb
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
    RAISE EXCEPTION 'Site % not found', site USING ERRCODE = 'SK640', DETAIL = format('site %s', site);
  END IF;
  IF widget IS NOT NULL AND NOT EXISTS (SELECT 1 FROM api.widgets WHERE id = widget AND organization_id = org) THEN
    RAISE EXCEPTION 'Widget % not found', widget USING ERRCODE = 'SK641', DETAIL = format('widget %s', widget);
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
  'widget_id), after checking they are the organization''s (SK640 / SK641). Returns create_booking''s result.';

-- write_booking_lines as in 0104: an unknown coupon is SK605, a used-up one SK615.
CREATE OR REPLACE FUNCTION staykit_internal.write_booking_lines(org uuid, booking uuid, payload jsonb) RETURNS void
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
      RAISE EXCEPTION 'A coupon not found' USING ERRCODE = 'SK605',
        DETAIL = format('coupon %s', coupon ->> 'coupon_id');
    END IF;
    SELECT count(*) INTO uses FROM api.coupon_uses WHERE coupon_id = (coupon ->> 'coupon_id')::uuid AND organization_id = org;
    IF coupon_quota IS NOT NULL AND uses >= coupon_quota THEN
      RAISE EXCEPTION 'A coupon has no uses left' USING ERRCODE = 'SK615',
        DETAIL = format('coupon %s', coupon ->> 'coupon_id');
    END IF;
    INSERT INTO api.coupon_uses (organization_id, coupon_id, booking_id, amount)
    VALUES (org, (coupon ->> 'coupon_id')::uuid, booking, (coupon ->> 'amount')::integer);
  END LOOP;
END
$$;
