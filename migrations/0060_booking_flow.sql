-- The booking flow's writes (/book, /cart-checkout, /create-product) and its idempotency keys.
--
-- The API role may not INSERT into bookings, products or coupon_uses (0011: those rows belong to the booking
-- flow), so each write path is one SECURITY DEFINER function. The server computes and validates the stay and its
-- price as staykit_api (row-level security applies to every read), then hands the finished booking to
-- create_booking, which writes every row in the caller's transaction. The functions take the organization from
-- the request setting, never from their arguments, and every row they insert points to its parents through the
-- (id, organization_id) foreign keys, so they cannot write into another organization. Invariants stay in the
-- database: calendar_events_no_overlap decides overlaps (23P01), and the coupon quota is checked here with the
-- coupon row locked, so two concurrent bookings cannot both take the last use.

-- ---------------------------------------------------------------------------------------------------------------
-- Idempotency-Key (IETF draft): the first response per (organization, key), stored in the transaction that made it.

CREATE TABLE staykit_internal.idempotency_keys (
  organization_id uuid NOT NULL REFERENCES api.organizations (id) ON DELETE CASCADE,
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  operation text NOT NULL,
  request_hash text NOT NULL,
  response_status integer NOT NULL,
  response_body jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, key)
);
CREATE INDEX idempotency_keys_created_at_idx ON staykit_internal.idempotency_keys (created_at);
COMMENT ON TABLE staykit_internal.idempotency_keys IS
  'First response of each Idempotency-Key per organization (kept at least 24 h), written in the same transaction '
  'as the booking or product it created.';

ALTER TABLE staykit_internal.idempotency_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE staykit_internal.idempotency_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON staykit_internal.idempotency_keys TO staykit_api
  USING (organization_id = staykit_internal.current_organization_id())
  WITH CHECK (organization_id = staykit_internal.current_organization_id());
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_access ON staykit_internal.idempotency_keys TO %I USING (true) WITH CHECK (true)',
                 current_user);
END
$$;
GRANT SELECT, INSERT, DELETE ON staykit_internal.idempotency_keys TO staykit_api;

-- ---------------------------------------------------------------------------------------------------------------
-- create_booking(payload): one booking with its event, line items (+ taxes), details, contact and coupon uses.
-- payload: {product_id, start_date, end_date (exclusive), padding, status, method, currency, display_currency,
--   exchange_rate, language, occupancy, silent, generated_title,
--   contact?: {first_name, last_name, email, phone},
--   line_items: [{item_type, fee_type, name, quantity, amount, service_id?, taxes: [{tax_id, name, percentage,
--   inclusive, amount}]}], details: [{service_id, option_id?, name, description, value}],
--   coupons: [{coupon_id, amount}]}
-- Errors: SKP01 product missing or deleted, SKQ01 coupon quota exhausted, SKQ02 coupon missing or deleted,
-- 23P01 the dates are taken (calendar_events_no_overlap).

CREATE FUNCTION staykit_internal.create_booking(payload jsonb) RETURNS jsonb
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
    RAISE EXCEPTION 'product % not found', product_uuid USING ERRCODE = 'SKP01';
  END IF;

  -- Coupons first: lock each coupon row so concurrent bookings count its uses one after the other.
  FOR coupon IN SELECT value FROM jsonb_array_elements(coalesce(payload -> 'coupons', '[]')) LOOP
    SELECT c.quota INTO coupon_quota FROM api.coupons AS c
    WHERE c.id = (coupon ->> 'coupon_id')::uuid AND c.organization_id = org AND c.deleted_at IS NULL
    FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'coupon % not found', coupon ->> 'coupon_id' USING ERRCODE = 'SKQ02';
    END IF;
    IF coupon_quota IS NOT NULL THEN
      SELECT count(*) INTO uses FROM api.coupon_uses WHERE coupon_id = (coupon ->> 'coupon_id')::uuid;
      IF uses >= coupon_quota THEN
        RAISE EXCEPTION 'coupon % has no uses left', coupon ->> 'coupon_id' USING ERRCODE = 'SKQ01';
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
  'contact and coupon uses for the request''s organization. Overlaps fail with 23P01, exhausted coupons with SKQ01.';
REVOKE EXECUTE ON FUNCTION staykit_internal.create_booking(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.create_booking(jsonb) TO staykit_api;

-- ---------------------------------------------------------------------------------------------------------------
-- create_product(fields): POST /create-product. Only the listed client-settable columns are taken from `fields`;
-- every other column gets its default. Returns the new row as JSON.

CREATE FUNCTION staykit_internal.create_product(fields jsonb) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  settable constant text[] := ARRAY[
    'id', 'ac_id', 'parent_id', 'approximate_address', 'approximate_coordinates',
    'cancel_after_initial_payment_error', 'confirm_after_initial_payment', 'confirmation_message', 'cooldown_time',
    'cta', 'currency', 'description', 'exact_address', 'exact_coordinates', 'hide_exact_address', 'images',
    'interaction', 'latest_arrival_time', 'name', 'price_breakdown_specificity', 'rent_period',
    'rent_pricing_definition', 'request_status', 'timezone'];
  columns text;
  result jsonb;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  SELECT string_agg(quote_ident(k), ', ' ORDER BY k) INTO columns
  FROM jsonb_object_keys(fields) AS k WHERE k = ANY (settable);
  IF columns IS NULL THEN
    columns := 'name';
  END IF;
  EXECUTE format(
    'INSERT INTO api.products (organization_id, %1$s) SELECT $2, %1$s FROM jsonb_populate_record(NULL::api.products, $1) '
    'RETURNING to_jsonb(products.*) - ''fts''', columns)
  INTO result USING fields, org;
  RETURN result;
END
$$;
COMMENT ON FUNCTION staykit_internal.create_product(jsonb) IS
  'POST /create-product: inserts a product for the request''s organization from its client-settable fields.';
REVOKE EXECUTE ON FUNCTION staykit_internal.create_product(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.create_product(jsonb) TO staykit_api;
