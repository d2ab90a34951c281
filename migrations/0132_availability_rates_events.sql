-- availability.changed and rates.changed (docs/webhooks.md#availability-and-rate-events): {product_id, from, to}
-- (rates.changed also source) whenever a committed change alters what a unit can be booked for, or at which price.
--
-- Coalesced: row triggers merge each change into one pending row per (product, event, source) holding the union of
-- the changed dates and a due time one second after the first change; the worker's poll loop emits the due rows
-- (emit_due_product_events). A product therefore gets at most one event of a kind per second, however many
-- rows a burst (an import, a calendar drag, a PriceLabs sync) writes. Dates: `from` inclusive, `to` exclusive;
-- -infinity/infinity (null in payloads) mean unbounded.

CREATE TABLE staykit_internal.product_event_pending (
  organization_id uuid NOT NULL,
  product_id uuid NOT NULL,
  event_type text NOT NULL CHECK (event_type IN ('availability.changed', 'rates.changed')),
  source text NOT NULL DEFAULT '' CHECK (source IN ('', 'configuration', 'per_date', 'pricelabs')),
  from_date date NOT NULL,
  to_date date NOT NULL,
  due_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, product_id, event_type, source)
);
CREATE INDEX product_event_pending_due_idx ON staykit_internal.product_event_pending (due_at);
COMMENT ON TABLE staykit_internal.product_event_pending IS
  'availability.changed / rates.changed waiting for their due time: the merged date range of a product''s changes.';

CREATE FUNCTION staykit_internal.note_product_event(org uuid, product uuid, event text, event_source text,
                                                    from_date date, to_date date) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  INSERT INTO staykit_internal.product_event_pending AS p
    (organization_id, product_id, event_type, source, from_date, to_date, due_at)
  SELECT org, product, event, event_source, coalesce(from_date, '-infinity'), coalesce(to_date, 'infinity'),
         now() + interval '1 second'
  WHERE product IS NOT NULL
    AND EXISTS (SELECT 1 FROM api.webhooks AS w
                WHERE w.organization_id = org AND w.disabled_at IS NULL AND (event = ANY (w.events) OR '*' = ANY (w.events)))
  ON CONFLICT (organization_id, product_id, event_type, source) DO UPDATE
    SET from_date = least(p.from_date, excluded.from_date), to_date = greatest(p.to_date, excluded.to_date)
$$;

-- The date range a product configuration applies to: its intervals' hull, unbounded when it has none.
CREATE FUNCTION staykit_internal.configuration_span(intervals datemultirange) RETURNS daterange
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN isempty(range_merge(intervals)) THEN daterange(NULL, NULL) ELSE range_merge(intervals) END
$$;

-- The given keys of a row (the columns whose change matters to an event).
CREATE FUNCTION staykit_internal.jsonb_pick(row_data jsonb, keys text[]) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb) FROM jsonb_each(row_data) WHERE key = ANY (keys)
$$;

CREATE FUNCTION staykit_internal.product_events_note() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  new_row jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
  old_row jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  org uuid := coalesce(new_row, old_row) ->> 'organization_id';
  availability_columns text[];
  rate_columns text[];
  rate_source text;
  product_column text := 'product_id';
  version jsonb;
  span daterange;
  availability_changed boolean;
  rates_changed boolean;
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'calendar_events' THEN
      availability_columns := ARRAY['product_id', 'start_date', 'end_date', 'padding', 'status', 'type'];
    WHEN 'unit_blocks' THEN
      -- A relative's stay blocking this unit (migration 0100); its own events are seen on calendar_events.
      IF coalesce(new_row, old_row) ->> 'relation' = 'self' THEN RETURN NULL; END IF;
      availability_columns := ARRAY['unit_id', 'start_date', 'end_date', 'padding', 'status'];
      product_column := 'unit_id';
    WHEN 'product_configurations' THEN
      availability_columns := ARRAY['product_id', 'intervals', 'check_in_days', 'checkout_days', 'cooldown_time',
                                    'max_advance', 'max_duration', 'min_advance', 'min_duration'];
      rate_columns := ARRAY['product_id', 'intervals', 'rates', 'early_bird_adjustments', 'last_minute_adjustments',
                            'long_rent_adjustments'];
      rate_source := 'configuration';
    WHEN 'price_calendar_entries' THEN
      availability_columns := ARRAY['product_id', 'date', 'closed', 'min_duration'];
      rate_columns := ARRAY['product_id', 'date', 'rate'];
      rate_source := 'per_date';
    WHEN 'pricelabs_pricing' THEN
      availability_columns := ARRAY['product_id', 'date', 'min_stay'];
      rate_columns := ARRAY['product_id', 'date', 'price', 'currency'];
      rate_source := 'pricelabs';
  END CASE;
  -- Both the row as it was and as it is: a moved stay frees its old dates and takes its new ones. A per-date row
  -- added or removed matters only for what it sets (a rate only: rates; closed or a minimum stay: availability).
  FOREACH version IN ARRAY ARRAY[old_row, new_row] LOOP
    CONTINUE WHEN version IS NULL;
    span := CASE
      -- A stay blocks its padding (cleaning days) after its end too.
      WHEN TG_TABLE_NAME IN ('calendar_events', 'unit_blocks')
        THEN daterange((version ->> 'start_date')::date, (version ->> 'end_date')::date + (version ->> 'padding')::integer)
      WHEN TG_TABLE_NAME = 'product_configurations' THEN staykit_internal.configuration_span((version ->> 'intervals')::datemultirange)
      ELSE daterange((version ->> 'date')::date, (version ->> 'date')::date + 1)
    END;
    availability_changed := CASE WHEN TG_OP = 'UPDATE'
            THEN staykit_internal.jsonb_pick(new_row, availability_columns)
                 IS DISTINCT FROM staykit_internal.jsonb_pick(old_row, availability_columns)
            WHEN TG_TABLE_NAME = 'price_calendar_entries'
            THEN (version ->> 'closed')::boolean OR version ->> 'min_duration' IS NOT NULL
            WHEN TG_TABLE_NAME = 'pricelabs_pricing' THEN version ->> 'min_stay' IS NOT NULL
            -- A note never blocks a date: creating or deleting one does not change availability.
            WHEN TG_TABLE_NAME = 'calendar_events' THEN version ->> 'type' <> 'note'
            ELSE true END
       AND NOT (TG_TABLE_NAME = 'calendar_events' AND new_row ->> 'type' = 'note' AND old_row ->> 'type' = 'note');
    rates_changed := rate_columns IS NOT NULL
       AND CASE WHEN TG_OP = 'UPDATE'
                THEN staykit_internal.jsonb_pick(new_row, rate_columns) IS DISTINCT FROM staykit_internal.jsonb_pick(old_row, rate_columns)
                WHEN TG_TABLE_NAME = 'price_calendar_entries' THEN version ->> 'rate' IS NOT NULL
                ELSE true END;
    IF availability_changed THEN
      PERFORM staykit_internal.note_product_event(org, (version ->> product_column)::uuid, 'availability.changed', '',
                                                  lower(span), upper(span));
    END IF;
    IF rates_changed THEN
      PERFORM staykit_internal.note_product_event(org, (version ->> product_column)::uuid, 'rates.changed', rate_source,
                                                  lower(span), upper(span));
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE TRIGGER product_events_note AFTER INSERT OR UPDATE OR DELETE ON api.calendar_events
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.product_events_note();
CREATE TRIGGER product_events_note AFTER INSERT OR UPDATE OR DELETE ON staykit_internal.unit_blocks
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.product_events_note();
CREATE TRIGGER product_events_note AFTER INSERT OR UPDATE OR DELETE ON api.product_configurations
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.product_events_note();
CREATE TRIGGER product_events_note AFTER INSERT OR UPDATE OR DELETE ON api.price_calendar_entries
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.product_events_note();
CREATE TRIGGER product_events_note AFTER INSERT OR UPDATE OR DELETE ON api.pricelabs_pricing
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.product_events_note();

-- The worker's job: emits the rows due at `at` (one event each) and deletes them, in one transaction; rows another
-- worker is emitting are skipped. A product deleted meanwhile still gets its event (its dates did change).
CREATE FUNCTION staykit_internal.emit_due_product_events(at timestamptz) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  due record;
  emitted integer := 0;
BEGIN
  FOR due IN
    DELETE FROM staykit_internal.product_event_pending AS p
    WHERE (p.organization_id, p.product_id, p.event_type, p.source) IN (
      SELECT organization_id, product_id, event_type, source FROM staykit_internal.product_event_pending
      WHERE due_at <= at ORDER BY due_at FOR UPDATE SKIP LOCKED)
    RETURNING p.*
  LOOP
    PERFORM staykit_internal.emit_webhook_event(due.organization_id, due.event_type,
      jsonb_build_object('product_id', due.product_id,
                         'from', CASE WHEN isfinite(due.from_date) THEN due.from_date END,
                         'to', CASE WHEN isfinite(due.to_date) THEN due.to_date END)
        || CASE WHEN due.source <> '' THEN jsonb_build_object('source', due.source) ELSE '{}'::jsonb END);
    emitted := emitted + 1;
  END LOOP;
  RETURN emitted;
END
$$;

-- The catalogue gains the two events; the list is taken from the function as earlier migrations left it.
DO $$
DECLARE
  events text[] := staykit_internal.webhook_event_catalogue() || ARRAY['availability.changed', 'rates.changed'];
BEGIN
  EXECUTE format('CREATE OR REPLACE FUNCTION staykit_internal.webhook_event_catalogue() RETURNS text[] '
                 'LANGUAGE sql IMMUTABLE AS %L', format('SELECT %L::text[]', events));
END
$$;

REVOKE ALL ON staykit_internal.product_event_pending FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.note_product_event(uuid, uuid, text, text, date, date) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.product_events_note() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.emit_due_product_events(timestamptz) FROM PUBLIC;
