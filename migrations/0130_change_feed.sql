-- The change feed behind GET /v1/changes (docs/webhooks.md#change-feed, docs/design.md#change-feed).
--
-- Every create, update and delete of a catalogue resource writes one staykit_internal.changes row in the same
-- transaction, whether or not the organization has webhooks: its event id (also the `event_id` of every webhook
-- notification of that change), the event type, the resource and row id, the row as committed (null for a
-- deletion: a tombstone), an ever-increasing seq and the writing transaction's id (xid8).
--
-- Readers page in (xid, seq) order and only see rows whose transaction is older than every transaction still
-- running: xid < pg_snapshot_xmin(pg_current_snapshot()). A transaction that commits later always has an xid at or
-- above that horizon, so it can never land behind a cursor already handed out (the "sequence gap" of outbox
-- pollers: ordering by a sequence alone skips a row whose transaction took its number earlier but committed later).

CREATE TABLE staykit_internal.changes (
  organization_id uuid NOT NULL,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  event_id uuid NOT NULL DEFAULT gen_random_uuid(),
  event_type text NOT NULL,
  resource text NOT NULL,
  resource_id text NOT NULL,
  data jsonb,
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, xid, seq)
);
CREATE INDEX changes_changed_at_idx ON staykit_internal.changes (changed_at);
COMMENT ON TABLE staykit_internal.changes IS
  'One row per change of a catalogue resource, read by GET /v1/changes in (xid, seq) order; data is the row as '
  'committed by that change (webhook_row_snapshot), null for a deletion. Rows older than the retention are deleted '
  'by expire_changes, which records what it deleted in change_horizons.';

-- Per organization, the last (xid, seq) the retention deleted: a cursor before it may have missed changes.
CREATE TABLE staykit_internal.change_horizons (
  organization_id uuid PRIMARY KEY,
  xid xid8 NOT NULL,
  seq bigint NOT NULL
);

CREATE FUNCTION staykit_internal.expire_changes(cutoff timestamptz) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  expired integer;
BEGIN
  WITH gone AS (
    DELETE FROM staykit_internal.changes WHERE changed_at < cutoff
    RETURNING organization_id, xid, seq
  ), last_gone AS (
    SELECT DISTINCT ON (organization_id) organization_id, xid, seq
    FROM gone ORDER BY organization_id, xid DESC, seq DESC
  ), recorded AS (
    INSERT INTO staykit_internal.change_horizons AS h (organization_id, xid, seq)
    SELECT organization_id, xid, seq FROM last_gone
    ON CONFLICT (organization_id) DO UPDATE SET xid = excluded.xid, seq = excluded.seq
      WHERE (excluded.xid, excluded.seq) > (h.xid, h.seq)
    RETURNING 1
  )
  SELECT count(*)::integer INTO expired FROM gone;
  RETURN expired;
END
$$;
COMMENT ON FUNCTION staykit_internal.expire_changes(timestamptz) IS
  'Deletes the changes made before cutoff (the retention job) and moves each organization''s horizon past them.';

-- ---------------------------------------------------------------------------------------------------------------
-- Webhook bodies carry the change's event id: the 4-argument emit does the work, the 3-argument one (events that
-- are not row changes: messages.sent, booking-change's bookings.updated …) passes none.

CREATE FUNCTION staykit_internal.emit_webhook_event(organization uuid, event_type text, payload jsonb, change_event uuid)
RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  created integer;
BEGIN
  IF NOT event_type = ANY (staykit_internal.webhook_event_catalogue()) THEN
    RAISE EXCEPTION 'unknown webhook event type %', event_type;
  END IF;
  WITH targets AS MATERIALIZED (
    SELECT gen_random_uuid() AS id, w.id AS webhook_id
    FROM api.webhooks AS w
    WHERE w.organization_id = organization
      AND w.disabled_at IS NULL
      AND (event_type = ANY (w.events) OR '*' = ANY (w.events))
  )
  INSERT INTO api.webhook_notifications (id, organization_id, webhook_id, event_type, payload, status, tries)
  SELECT t.id, organization, t.webhook_id, event_type,
         jsonb_build_object('id', t.id, 'date', floor(extract(epoch FROM now()))::bigint,
                            'event_type', event_type, 'payload', payload)
           || CASE WHEN change_event IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('event_id', change_event) END,
         'pending', 0
  FROM targets AS t;
  GET DIAGNOSTICS created = ROW_COUNT;
  RETURN created;
END
$$;
COMMENT ON FUNCTION staykit_internal.emit_webhook_event(uuid, text, jsonb, uuid) IS
  'Creates one pending notification per enabled webhook of the organization subscribed to event_type (or *), '
  'body {"id", "date", "event_type", "payload"} and, for a row change, "event_id" (its id in GET /v1/changes).';

CREATE OR REPLACE FUNCTION staykit_internal.emit_webhook_event(organization uuid, event_type text, payload jsonb)
RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT staykit_internal.emit_webhook_event(organization, event_type, payload, NULL::uuid)
$$;

-- The outbox trigger of 0050, now also writing the change feed (always: the feed does not depend on webhooks).
CREATE OR REPLACE FUNCTION staykit_internal.webhook_outbox() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  resource text := TG_TABLE_NAME;
  organization uuid;
  new_row jsonb;
  old_row jsonb;
  event_types text[];
  event_type text;
  payload jsonb;
  change_event uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN
    organization := OLD.organization_id;
  ELSE
    organization := NEW.organization_id;
  END IF;
  IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;

  IF TG_OP = 'INSERT' THEN
    event_types := ARRAY[resource || '.created'];
  ELSIF TG_OP = 'DELETE' THEN
    event_types := ARRAY[resource || '.deleted'];
  ELSE
    IF new_row - staykit_internal.webhook_quiet_columns() = old_row - staykit_internal.webhook_quiet_columns() THEN
      RETURN NULL;
    END IF;
    -- Soft deletes (coupons, products): setting deleted_at is the deletion.
    IF new_row ? 'deleted_at' AND old_row ->> 'deleted_at' IS NULL AND new_row ->> 'deleted_at' IS NOT NULL THEN
      event_types := ARRAY[resource || '.deleted'];
    ELSE
      event_types := ARRAY[resource || '.updated'];
    END IF;
  END IF;

  INSERT INTO staykit_internal.changes (organization_id, event_type, resource, resource_id, data)
  VALUES (organization, event_types[1], resource, coalesce(new_row, old_row) ->> 'id',
          CASE WHEN event_types[1] LIKE '%.deleted' THEN NULL ELSE staykit_internal.webhook_row_snapshot(new_row) END)
  RETURNING event_id INTO change_event;

  -- Most organizations have no webhook: stop before building any more JSON.
  IF NOT EXISTS (SELECT 1 FROM api.webhooks AS w WHERE w.organization_id = organization AND w.disabled_at IS NULL) THEN
    RETURN NULL;
  END IF;

  -- Semantic events: a row entering a state, by INSERT or UPDATE.
  IF resource = 'calendar_events' AND TG_OP <> 'DELETE' THEN
    IF new_row ->> 'status' = 'CONFIRMED' AND (old_row ->> 'status') IS DISTINCT FROM 'CONFIRMED' THEN
      event_types := event_types || 'calendar_events.confirmed'::text;
    ELSIF new_row ->> 'status' = 'CANCELLED' AND (old_row ->> 'status') IS DISTINCT FROM 'CANCELLED' THEN
      event_types := event_types || 'calendar_events.cancelled'::text;
    END IF;
  ELSIF resource = 'calendar_event_tasks' AND TG_OP <> 'DELETE' THEN
    IF new_row ->> 'completed_at' IS NOT NULL AND old_row ->> 'completed_at' IS NULL THEN
      event_types := event_types || 'calendar_event_tasks.completed'::text;
    END IF;
  ELSIF resource = 'payments' AND TG_OP <> 'DELETE' THEN
    IF new_row ->> 'status' = 'paid' AND (old_row ->> 'status') IS DISTINCT FROM 'paid' THEN
      event_types := event_types || 'payments.paid'::text;
    END IF;
  ELSIF resource = 'external_calendars' AND TG_OP <> 'DELETE' THEN
    -- The sync records a failure in error: a new or different message is a new failure.
    IF new_row ->> 'error' IS NOT NULL AND (old_row ->> 'error') IS DISTINCT FROM (new_row ->> 'error') THEN
      event_types := event_types || 'external_calendars.sync_failed'::text;
    END IF;
  END IF;

  payload := jsonb_build_object('new', staykit_internal.webhook_row_snapshot(new_row),
                                'old', staykit_internal.webhook_row_snapshot(old_row));
  FOREACH event_type IN ARRAY event_types LOOP
    PERFORM staykit_internal.emit_webhook_event(organization, event_type, payload, change_event);
  END LOOP;
  RETURN NULL;
END
$$;

-- The feed's page: the organization's visible changes after a cursor, of the given resources, in (xid, seq)
-- order. Run on the server's connection with the organization and resources from the API key.
CREATE FUNCTION staykit_internal.change_page(organization uuid, after_xid xid8, after_position bigint,
                                             resources text[], event_types text[], page_size integer)
RETURNS TABLE (xid xid8, seq bigint, event_id uuid, event_type text, resource text, resource_id text,
               data jsonb, changed_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT c.xid, c.seq, c.event_id, c.event_type, c.resource, c.resource_id, c.data, c.changed_at
  FROM staykit_internal.changes AS c
  WHERE c.organization_id = organization
    AND (c.xid, c.seq) > (after_xid, after_position)
    AND c.xid < pg_snapshot_xmin(pg_current_snapshot())
    AND c.resource = ANY (resources)
    AND (event_types IS NULL OR c.event_type = ANY (event_types))
  ORDER BY c.xid, c.seq
  LIMIT page_size
$$;

-- Whether a cursor is older than what the retention deleted for the organization (410).
CREATE FUNCTION staykit_internal.change_cursor_expired(organization uuid, after_xid xid8, after_position bigint)
RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT EXISTS (SELECT 1 FROM staykit_internal.change_horizons AS h
                 WHERE h.organization_id = organization AND (after_xid, after_position) < (h.xid, h.seq))
$$;

REVOKE ALL ON staykit_internal.changes, staykit_internal.change_horizons FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.expire_changes(timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.emit_webhook_event(uuid, text, jsonb, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.emit_webhook_event(uuid, text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.change_page(uuid, xid8, bigint, text[], text[], integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.change_cursor_expired(uuid, xid8, bigint) FROM PUBLIC;
