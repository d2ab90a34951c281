-- A webhook event's payload is data of the tables it is derived from, so receiving it takes their read scopes
-- (docs/webhooks.md#event-scopes): subscribing a webhook to an event, repointing (endpoint) or enabling (disabled_at
-- back to null) a webhook that has it, redelivering its notifications and reading them in webhook_notifications.
-- Without this, a key with only webhooks:write received guests' e-mail addresses by subscribing to contacts.created.
--
-- webhook_event_read_scopes is the one definition, per event of the catalogue; the server reads it from here
-- (src/webhooks/event-scopes.ts) for POST /v1/webhook-redeliver and whoever lists the catalogue.

-- The tables whose read scope the payload of a catalogue event needs:
--   <resource>.created|updated|deleted and the events emitted next to them (calendar_events.confirmed,
--   payments.paid, messages.sent …) carry one row of <resource>: that table.
--   booking.* carry the booking with its calendar events, unit (id, name), guest contact and line items
--   (booking_event_snapshot, migration 0131): those tables, and contact_bookings, which links guest and booking.
--   availability.changed and rates.changed carry a unit's dates whose availability or prices changed: what
--   GET /v1/availability and POST /v1/quote answer, with the scope they take, bookings:read.
-- An event whose name starts with no table (one added later without a line here) needs a table that does not exist,
-- which only read and write keys hold: the rule fails closed.
CREATE FUNCTION staykit_internal.webhook_event_read_scopes(event_type text) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN event_type IN ('booking.created', 'booking.updated', 'booking.confirmed', 'booking.cancelled')
      THEN ARRAY['bookings', 'calendar_events', 'contact_bookings', 'contacts', 'line_items', 'products']
    WHEN event_type IN ('availability.changed', 'rates.changed') THEN ARRAY['bookings']
    ELSE ARRAY[split_part(event_type, '.', 1)]
  END
$$;
COMMENT ON FUNCTION staykit_internal.webhook_event_read_scopes(text) IS
  'The tables whose read scope the payload of a webhook event needs (docs/webhooks.md#event-scopes).';

-- The first (event, table) of `events` (a webhooks.events list: '*' is every event of the catalogue) whose table
-- the current transaction may not read (staykit.readable_tables, migration 0090); none when it may read them all,
-- or when the setting is unset (not an API transaction).
CREATE FUNCTION staykit_internal.webhook_event_missing_scope(events text[], OUT event_type text, OUT resource text)
LANGUAGE sql STABLE AS $$
  SELECT e.name, t.name
  FROM unnest(events) WITH ORDINALITY AS e (name, position),
       unnest(CASE WHEN e.name = '*' THEN staykit_internal.webhook_event_catalogue() ELSE ARRAY[e.name] END)
         WITH ORDINALITY AS covered (name, position),
       unnest(staykit_internal.webhook_event_read_scopes(covered.name)) WITH ORDINALITY AS t (name, position)
  WHERE NOT staykit_internal.may_read(t.name)
  ORDER BY e.position, covered.position, t.position
  LIMIT 1
$$;

-- Subscribing (INSERT, a new events list), repointing (a new endpoint) and enabling (disabled_at back to null)
-- deliver the events' payloads to whoever holds the endpoint: each takes the read scopes of every event the
-- webhook then has. Other changes (description, a rotated secret, disabling, deleting) need webhooks:write alone.
CREATE FUNCTION staykit_internal.webhooks_within_read_scopes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  missing record;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.events IS NOT DISTINCT FROM OLD.events AND NEW.endpoint IS NOT DISTINCT FROM OLD.endpoint
     AND NOT (OLD.disabled_at IS NOT NULL AND NEW.disabled_at IS NULL) THEN
    RETURN NEW;
  END IF;
  SELECT * INTO missing FROM staykit_internal.webhook_event_missing_scope(NEW.events);
  IF missing.event_type IS NOT NULL THEN
    RAISE EXCEPTION 'The webhook event "%" needs the read scope "%:read"', missing.event_type, missing.resource
      USING ERRCODE = 'SK742',
            HINT = 'Subscribing to an event, repointing or enabling a webhook that has it, and redelivering its '
                   'notifications take the read scope of every resource its payload carries (docs/webhooks.md#event-scopes)';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER webhooks_within_read_scopes BEFORE INSERT OR UPDATE ON api.webhooks
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.webhooks_within_read_scopes();

-- A notification's body is its event's payload: it is shown only with the read scopes of its event, through
-- GET /v1/webhook_notifications and every embed of it. A transaction that may read every table skips the per-row
-- check (an InitPlan, evaluated once per statement).
CREATE FUNCTION staykit_internal.may_read_every_table() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(current_setting('staykit.readable_tables', true), '') IN ('', '*')
$$;
CREATE FUNCTION staykit_internal.may_read_event(event_type text) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT (staykit_internal.webhook_event_missing_scope(ARRAY[event_type])).event_type IS NULL
$$;
CREATE POLICY event_read_scope ON api.webhook_notifications AS RESTRICTIVE FOR SELECT TO staykit_api
  USING ((SELECT staykit_internal.may_read_every_table()) OR staykit_internal.may_read_event(event_type));

REVOKE ALL ON FUNCTION staykit_internal.webhook_event_read_scopes(text),
  staykit_internal.webhook_event_missing_scope(text[]), staykit_internal.webhooks_within_read_scopes(),
  staykit_internal.may_read_every_table(), staykit_internal.may_read_event(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.webhook_event_read_scopes(text),
  staykit_internal.webhook_event_missing_scope(text[]), staykit_internal.may_read_every_table(),
  staykit_internal.may_read_event(text) TO staykit_api;
