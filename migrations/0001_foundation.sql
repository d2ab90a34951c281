-- Foundation: extension, schemas, and the helper functions every later migration uses.
--
-- Schema `api` holds every table the HTTP API exposes; `staykit_internal` holds what clients never see directly
-- (helpers, API keys, the migrations table the runner creates). Helpers used by CHECK constraints are IMMUTABLE
-- and written in PL/pgSQL where the order of evaluation matters (a cast must only run after a type test).

CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE SCHEMA IF NOT EXISTS api;
CREATE SCHEMA IF NOT EXISTS staykit_internal;

COMMENT ON SCHEMA api IS 'Every resource the Staykit HTTP API exposes, one table per collection path.';
COMMENT ON SCHEMA staykit_internal IS 'Helpers and server-only tables (API keys, migrations); never exposed to clients.';

-- ---------------------------------------------------------------------------------------------------------------
-- Request context: the API sets these per transaction with set_config(…, true).

CREATE FUNCTION staykit_internal.current_organization_id() RETURNS uuid
LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('staykit.organization_id', true), '')::uuid
$$;
COMMENT ON FUNCTION staykit_internal.current_organization_id() IS
  'Organization of the current request (setting staykit.organization_id), NULL when unset: RLS then hides everything.';

CREATE FUNCTION staykit_internal.current_user_id() RETURNS uuid
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN current_setting('staykit.user_id', true) ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    THEN current_setting('staykit.user_id', true)::uuid
  END
$$;
COMMENT ON FUNCTION staykit_internal.current_user_id() IS
  'User acting in the current request (setting staykit.user_id), NULL when unset or not a uuid.';

-- ---------------------------------------------------------------------------------------------------------------
-- Shared trigger: updated_at = now() on every UPDATE.

CREATE FUNCTION staykit_internal.set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Randomness, from gen_random_uuid() only (no pgcrypto).

CREATE FUNCTION staykit_internal.random_bytes(n integer) RETURNS bytea
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  acc bytea := ''::bytea;
  u bytea;
BEGIN
  WHILE length(acc) < n LOOP
    u := uuid_send(gen_random_uuid());
    -- Byte 6 holds the version and byte 8 the variant: keep the 14 bytes that are entirely random.
    acc := acc || substring(u FROM 1 FOR 6) || substring(u FROM 8 FOR 1) || substring(u FROM 10 FOR 7);
  END LOOP;
  RETURN substring(acc FROM 1 FOR n);
END
$$;
COMMENT ON FUNCTION staykit_internal.random_bytes(integer) IS 'n cryptographically random bytes (from gen_random_uuid).';

CREATE FUNCTION staykit_internal.random_string(len integer, alphabet text) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  size integer := length(alphabet);
  lim integer := 256 - 256 % length(alphabet);  -- rejection sampling: no modulo bias
  acc text := '';
  buf bytea;
  b integer;
BEGIN
  WHILE length(acc) < len LOOP
    buf := staykit_internal.random_bytes(len);
    FOR i IN 0 .. length(buf) - 1 LOOP
      b := get_byte(buf, i);
      IF b < lim THEN
        acc := acc || substr(alphabet, b % size + 1, 1);
        EXIT WHEN length(acc) = len;
      END IF;
    END LOOP;
  END LOOP;
  RETURN acc;
END
$$;
COMMENT ON FUNCTION staykit_internal.random_string(integer, text) IS 'len random characters drawn uniformly from alphabet.';

CREATE FUNCTION staykit_internal.random_token(len integer DEFAULT 32) RETURNS text
LANGUAGE sql VOLATILE AS $$
  SELECT staykit_internal.random_string(len, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')
$$;
COMMENT ON FUNCTION staykit_internal.random_token(integer) IS 'Random base62 token (default 32 characters).';

-- ---------------------------------------------------------------------------------------------------------------
-- Value checks used by CHECK constraints. All STRICT: a NULL is judged by the column's NOT NULL, not here.

CREATE FUNCTION staykit_internal.is_multi_language_string(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  IF jsonb_typeof(value) <> 'object' OR NOT value ? 'default' THEN
    RETURN false;
  END IF;
  RETURN NOT EXISTS (SELECT 1 FROM jsonb_each(value) AS e WHERE jsonb_typeof(e.value) <> 'string');
END
$$;
COMMENT ON FUNCTION staykit_internal.is_multi_language_string(jsonb) IS
  'MultiLanguageString: a JSON object with a key "default" whose values are all strings.';

CREATE FUNCTION staykit_internal.is_json_integer(value jsonb, min_value numeric DEFAULT NULL) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) <> 'number' OR value::text !~ '^-?[0-9]+$' THEN
    RETURN false;
  END IF;
  RETURN min_value IS NULL OR value::text::numeric >= min_value;
END
$$;
COMMENT ON FUNCTION staykit_internal.is_json_integer(jsonb, numeric) IS 'A JSON integer, optionally at least min_value.';

CREATE FUNCTION staykit_internal.is_json_number(value jsonb, min_value numeric DEFAULT NULL, max_value numeric DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) <> 'number' THEN
    RETURN false;
  END IF;
  RETURN (min_value IS NULL OR value::text::numeric >= min_value)
     AND (max_value IS NULL OR value::text::numeric <= max_value);
END
$$;
COMMENT ON FUNCTION staykit_internal.is_json_number(jsonb, numeric, numeric) IS 'A JSON number within the optional bounds.';

CREATE FUNCTION staykit_internal.is_json_date(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF value IS NULL OR jsonb_typeof(value) <> 'string' OR (value #>> '{}') !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN
    RETURN false;
  END IF;
  PERFORM (value #>> '{}')::date;
  RETURN true;
EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
  RETURN false;
END
$$;
COMMENT ON FUNCTION staykit_internal.is_json_date(jsonb) IS 'A JSON string holding a valid YYYY-MM-DD date.';

CREATE FUNCTION staykit_internal.is_moment(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  RETURN jsonb_typeof(value) = 'object'
     AND coalesce(value ->> 'type' IN ('check-in', 'checkout', 'confirmation', 'on-site', 'request')
                  AND jsonb_typeof(value -> 'type') = 'string', false)
     AND staykit_internal.is_json_integer(value -> 'offset');
END
$$;
COMMENT ON FUNCTION staykit_internal.is_moment(jsonb) IS
  'Moment: {"type": check-in|checkout|confirmation|on-site|request, "offset": integer}.';

CREATE FUNCTION staykit_internal.is_occupancy(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  IF jsonb_typeof(value) <> 'object' THEN
    RETURN false;
  END IF;
  RETURN NOT EXISTS (
    SELECT 1 FROM jsonb_each(value) AS e
    WHERE e.key !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
       OR NOT staykit_internal.is_json_integer(e.value, 0));
END
$$;
COMMENT ON FUNCTION staykit_internal.is_occupancy(jsonb) IS
  'Occupancy: a JSON object mapping capacity group ids (uuid) to non-negative integers.';

CREATE FUNCTION staykit_internal.is_weekday_mask(value boolean[]) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT array_ndims(value) = 1 AND array_lower(value, 1) = 1 AND array_length(value, 1) = 7
     AND array_position(value, NULL) IS NULL
$$;
COMMENT ON FUNCTION staykit_internal.is_weekday_mask(boolean[]) IS
  'Seven booleans without NULLs, index 1 (JSON index 0) = Monday.';

CREATE FUNCTION staykit_internal.is_json_array_of_objects(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  IF jsonb_typeof(value) <> 'array' THEN
    RETURN false;
  END IF;
  RETURN NOT EXISTS (SELECT 1 FROM jsonb_array_elements(value) AS e WHERE jsonb_typeof(e) <> 'object');
END
$$;

CREATE FUNCTION staykit_internal.is_adjustment_list(value jsonb, threshold_key text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  IF NOT staykit_internal.is_json_array_of_objects(value) THEN
    RETURN false;
  END IF;
  RETURN NOT EXISTS (
    SELECT 1 FROM jsonb_array_elements(value) AS e
    WHERE NOT staykit_internal.is_json_integer(e -> threshold_key, 0)
       OR NOT staykit_internal.is_json_number(e -> 'percentage', -100, NULL));
END
$$;
COMMENT ON FUNCTION staykit_internal.is_adjustment_list(jsonb, text) IS
  'Rate adjustments: [{<threshold_key>: integer >= 0, "percentage": number >= -100}] (negative = discount).';

CREATE FUNCTION staykit_internal.is_rate_table(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  IF NOT staykit_internal.is_json_array_of_objects(value) THEN
    RETURN false;
  END IF;
  RETURN NOT EXISTS (
    SELECT 1 FROM jsonb_array_elements(value) AS e
    WHERE NOT staykit_internal.is_json_integer(e -> 'duration', 0)
       OR NOT staykit_internal.is_json_integer(e -> 'occupancy', 0)
       OR NOT staykit_internal.is_json_integer(e -> 'rate', 0));
END
$$;
COMMENT ON FUNCTION staykit_internal.is_rate_table(jsonb) IS
  'Base rates: [{"duration": int >= 0, "occupancy": int >= 0, "rate": int >= 0 (minor units per night)}].';

CREATE FUNCTION staykit_internal.is_service_pricing(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  RETURN jsonb_typeof(value) = 'object'
     AND coalesce(value ->> 'per' IN ('stay', 'night', 'guest', 'guest_night', 'unit'), false)
     AND staykit_internal.is_json_integer(value -> 'amount', 0)
     AND (NOT value ? 'deposit' OR jsonb_typeof(value -> 'deposit') = 'boolean'
          OR staykit_internal.is_json_integer(value -> 'deposit', 0));
END
$$;
COMMENT ON FUNCTION staykit_internal.is_service_pricing(jsonb) IS
  'Service pricing: {"per": stay|night|guest|guest_night|unit, "amount": int >= 0 (minor units), "deposit"?: boolean or int >= 0}.';

CREATE FUNCTION staykit_internal.is_coupon_definition(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  IF jsonb_typeof(value) <> 'object' OR NOT coalesce(value ->> 'type' IN ('percentage', 'fixed'), false) THEN
    RETURN false;
  END IF;
  IF value ->> 'type' = 'percentage' AND NOT staykit_internal.is_json_number(value -> 'value', 0, 100) THEN
    RETURN false;
  END IF;
  IF value ->> 'type' = 'fixed' AND NOT staykit_internal.is_json_integer(value -> 'value', 0) THEN
    RETURN false;
  END IF;
  IF value ? 'min_duration' AND NOT staykit_internal.is_json_integer(value -> 'min_duration', 0) THEN
    RETURN false;
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(ARRAY['booking_from', 'booking_until', 'stay_from', 'stay_until']) AS k
             WHERE value ? k AND NOT staykit_internal.is_json_date(value -> k)) THEN
    RETURN false;
  END IF;
  RETURN (value ->> 'booking_from' IS NULL OR value ->> 'booking_until' IS NULL
          OR value ->> 'booking_from' <= value ->> 'booking_until')
     AND (value ->> 'stay_from' IS NULL OR value ->> 'stay_until' IS NULL
          OR value ->> 'stay_from' <= value ->> 'stay_until');
END
$$;
COMMENT ON FUNCTION staykit_internal.is_coupon_definition(jsonb) IS
  'Coupon definition: {"type": percentage (value 0..100) | fixed (value int >= 0, minor units), "min_duration"?, '
  '"booking_from"?, "booking_until"?, "stay_from"?, "stay_until"? (YYYY-MM-DD, from <= until)}.';

CREATE FUNCTION staykit_internal.is_payment_value(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  RETURN jsonb_typeof(value) = 'object'
     AND CASE value ->> 'type'
           WHEN 'percentage' THEN staykit_internal.is_json_number(value -> 'value', 0, 100)
           WHEN 'fixed' THEN staykit_internal.is_json_integer(value -> 'value', 0)
           ELSE false
         END;
END
$$;
COMMENT ON FUNCTION staykit_internal.is_payment_value(jsonb) IS
  'Payment value: {"type": "percentage", "value": 0..100} or {"type": "fixed", "value": int >= 0 (minor units)}.';

CREATE FUNCTION staykit_internal.is_coordinates(value jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  RETURN jsonb_typeof(value) = 'object'
     AND staykit_internal.is_json_number(value -> 'lat', -90, 90)
     AND staykit_internal.is_json_number(value -> 'lng', -180, 180);
END
$$;
COMMENT ON FUNCTION staykit_internal.is_coordinates(jsonb) IS 'Coordinates: {"lat": -90..90, "lng": -180..180}.';

CREATE FUNCTION staykit_internal.is_time_zone(value text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  PERFORM now() AT TIME ZONE value;
  RETURN value <> '';
EXCEPTION WHEN invalid_parameter_value THEN
  RETURN false;
END
$$;
COMMENT ON FUNCTION staykit_internal.is_time_zone(text) IS 'A time zone name PostgreSQL knows, e.g. Europe/Amsterdam or UTC.';

CREATE FUNCTION staykit_internal.is_currency(value text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT value ~ '^[A-Z]{3}$' $$;
COMMENT ON FUNCTION staykit_internal.is_currency(text) IS 'Currency: an ISO 4217 code, three uppercase letters.';

CREATE FUNCTION staykit_internal.is_language(value text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT value ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$' $$;
COMMENT ON FUNCTION staykit_internal.is_language(text) IS 'Language: a BCP 47 tag such as en, nl or nl-NL.';

CREATE FUNCTION staykit_internal.is_color(value text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT value ~ '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$' $$;
COMMENT ON FUNCTION staykit_internal.is_color(text) IS 'A CSS hex color code: #rgb, #rrggbb or #rrggbbaa.';

CREATE FUNCTION staykit_internal.is_email(value text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT value ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' $$;

CREATE FUNCTION staykit_internal.is_http_url(value text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT value ~* '^https?://[^\s/]+\S*$' $$;

-- ---------------------------------------------------------------------------------------------------------------
-- Webhook event catalogue (docs/design.md#webhooks).

CREATE FUNCTION staykit_internal.webhook_event_catalogue() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT (SELECT array_agg(r || '.' || op ORDER BY r, op)
          FROM unnest(ARRAY['products', 'bookings', 'calendar_events', 'calendar_event_tasks', 'contacts',
                            'coupons', 'invoices', 'payments', 'members', 'sites', 'widgets', 'external_calendars',
                            'product_configurations']) AS r,
               unnest(ARRAY['created', 'updated', 'deleted']) AS op)
         || ARRAY['calendar_events.confirmed', 'calendar_events.cancelled', 'calendar_event_tasks.completed',
                  'payments.paid', 'external_calendars.sync_failed']
$$;
COMMENT ON FUNCTION staykit_internal.webhook_event_catalogue() IS 'Every webhook event type name (docs/design.md#webhooks).';

CREATE FUNCTION staykit_internal.is_webhook_event_list(value text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT array_position(value, NULL) IS NULL
     AND value <@ (staykit_internal.webhook_event_catalogue() || ARRAY['*'])
$$;
COMMENT ON FUNCTION staykit_internal.is_webhook_event_list(text[]) IS
  'Every element is a catalogue event type or "*" (all events).';
