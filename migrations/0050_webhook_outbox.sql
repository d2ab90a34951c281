-- Webhook outbox and delivery queue (docs/design.md#webhooks, docs/webhooks.md).
--
-- Every create, update and delete of a catalogue resource inserts, in the same transaction, one
-- api.webhook_notifications row per subscribed, enabled webhook of the row's organization (status pending, tries 0,
-- the exact body that will be POSTed) and one staykit_internal.webhook_queue row per notification. If the change
-- rolls back, so do its notifications; if it commits, they exist. The delivery worker (src/webhooks/worker.ts)
-- claims due queue rows with FOR UPDATE SKIP LOCKED and removes them once a notification is sent or has failed
-- for good, so the queue only ever holds pending work.
--
-- Trigger functions are SECURITY DEFINER with a fixed search_path: an API request runs as staykit_api, which may
-- neither read webhooks (secrets) nor write notifications, yet its changes must still emit events.

-- ---------------------------------------------------------------------------------------------------------------
-- Webhooks: disabled when the endpoint answers 410 Gone.

ALTER TABLE api.webhooks ADD COLUMN IF NOT EXISTS disabled_at timestamptz;
COMMENT ON COLUMN api.webhooks.disabled_at IS
  'When deliveries were stopped because the endpoint answered 410 Gone; null while enabled. While set, no '
  'notifications are created for the webhook and its pending ones wait; set it back to null to enable it again.';

-- ---------------------------------------------------------------------------------------------------------------
-- The delivery queue: one row per notification still to be delivered.

CREATE TABLE staykit_internal.webhook_queue (
  notification_id uuid PRIMARY KEY REFERENCES api.webhook_notifications (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  webhook_id uuid NOT NULL REFERENCES api.webhooks (id) ON DELETE CASCADE,
  queued_at timestamptz NOT NULL DEFAULT now(),
  run_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  lease_token uuid,
  leased_at timestamptz
);
CREATE INDEX webhook_queue_run_at_idx ON staykit_internal.webhook_queue (run_at);
CREATE INDEX webhook_queue_webhook_id_idx ON staykit_internal.webhook_queue (webhook_id);
COMMENT ON TABLE staykit_internal.webhook_queue IS
  'Notifications still to be delivered. run_at: when the next attempt is due, or (while leased) when the lease of '
  'the worker delivering it expires. attempts: failed attempts since it was (re)queued, the retry schedule index.';

-- A notification that is (or becomes) pending is queued (parked if its webhook is disabled, see below); one that
-- leaves pending is no longer delivered.
CREATE FUNCTION staykit_internal.webhook_notifications_enqueue() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.status = 'pending' AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'pending') THEN
    INSERT INTO staykit_internal.webhook_queue (notification_id, organization_id, webhook_id, run_at)
    SELECT NEW.id, NEW.organization_id, NEW.webhook_id,
           CASE WHEN w.disabled_at IS NULL THEN now() ELSE 'infinity'::timestamptz END
    FROM api.webhooks AS w WHERE w.id = NEW.webhook_id
    ON CONFLICT (notification_id) DO NOTHING;
  ELSIF TG_OP = 'UPDATE' AND NEW.status <> 'pending' AND OLD.status = 'pending' THEN
    DELETE FROM staykit_internal.webhook_queue WHERE notification_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER webhook_notifications_enqueue AFTER INSERT OR UPDATE OF status ON api.webhook_notifications
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.webhook_notifications_enqueue();

-- While a webhook is disabled its queued notifications are parked at run_at = infinity, so claims (which scan due
-- rows in run_at order) never wade through them; enabling it makes them due at once. Leased rows (in flight right
-- now) are left alone: their worker records the outcome as usual.
CREATE FUNCTION staykit_internal.webhooks_park_queue() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.disabled_at IS NOT NULL AND OLD.disabled_at IS NULL THEN
    UPDATE staykit_internal.webhook_queue SET run_at = 'infinity' WHERE webhook_id = NEW.id AND lease_token IS NULL;
  ELSIF NEW.disabled_at IS NULL AND OLD.disabled_at IS NOT NULL THEN
    UPDATE staykit_internal.webhook_queue SET run_at = now() WHERE webhook_id = NEW.id AND run_at = 'infinity';
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER webhooks_park_queue AFTER UPDATE OF disabled_at ON api.webhooks
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.webhooks_park_queue();

-- POST /v1/webhook-redeliver: pending again, due now, with a fresh retry schedule (tries keeps counting).
-- A notification that is still queued (pending, possibly being delivered right now) is left as it is.
CREATE FUNCTION staykit_internal.requeue_webhook_notification(notification uuid) RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  UPDATE api.webhook_notifications SET status = 'pending' WHERE id = notification AND status <> 'pending';
  INSERT INTO staykit_internal.webhook_queue (notification_id, organization_id, webhook_id, run_at)
  SELECT n.id, n.organization_id, n.webhook_id,
         CASE WHEN w.disabled_at IS NULL THEN now() ELSE 'infinity'::timestamptz END
  FROM api.webhook_notifications AS n JOIN api.webhooks AS w ON w.id = n.webhook_id
  WHERE n.id = notification
  ON CONFLICT (notification_id) DO NOTHING;
  RETURN notification;
END
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Fan-out: one notification per subscribed, enabled webhook of the organization.

CREATE FUNCTION staykit_internal.emit_webhook_event(organization uuid, event_type text, payload jsonb)
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
                            'event_type', event_type, 'payload', payload),
         'pending', 0
  FROM targets AS t;
  GET DIAGNOSTICS created = ROW_COUNT;
  RETURN created;
END
$$;
COMMENT ON FUNCTION staykit_internal.emit_webhook_event(uuid, text, jsonb) IS
  'Creates one pending notification per enabled webhook of the organization subscribed to event_type (or *), '
  'body {"id", "date", "event_type", "payload"}. Returns how many. Used by the outbox triggers and by server code '
  'for events that are not row changes (external_calendars.sync_failed).';

-- Row snapshots in payloads leave out secrets and the search vector.
CREATE FUNCTION staykit_internal.webhook_row_snapshot(row_data jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT row_data - ARRAY['fts', 'secret', 'signing_secret', 'ical_export_secret', 'ical_export_secret_no_details']
$$;
COMMENT ON FUNCTION staykit_internal.webhook_row_snapshot(jsonb) IS
  'A row as sent in webhook payloads: without fts, secret (bookings), signing_secret, ical_export_secret*.';

-- Columns whose change alone is bookkeeping, not news: an UPDATE that changes nothing else emits nothing.
CREATE FUNCTION staykit_internal.webhook_quiet_columns() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY['updated_at', 'fts', 'last_synced', 'sync_requested_at']
$$;

CREATE FUNCTION staykit_internal.webhook_outbox() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  resource text := TG_TABLE_NAME;
  organization uuid;
  new_row jsonb;
  old_row jsonb;
  event_types text[];
  event_type text;
  payload jsonb;
BEGIN
  IF TG_OP = 'DELETE' THEN
    organization := OLD.organization_id;
  ELSE
    organization := NEW.organization_id;
  END IF;
  -- Most organizations have no webhook: stop before building any JSON.
  IF NOT EXISTS (SELECT 1 FROM api.webhooks AS w WHERE w.organization_id = organization AND w.disabled_at IS NULL) THEN
    RETURN NULL;
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
    PERFORM staykit_internal.emit_webhook_event(organization, event_type, payload);
  END LOOP;
  RETURN NULL;
END
$$;
COMMENT ON FUNCTION staykit_internal.webhook_outbox() IS
  'AFTER row trigger on every catalogue resource: emits <table>.created|updated|deleted and the semantic events.';

-- One trigger per catalogue resource; a missing table is an error (the catalogue and the schema must agree).
DO $$
DECLARE
  resource text;
BEGIN
  FOREACH resource IN ARRAY ARRAY['products', 'bookings', 'calendar_events', 'calendar_event_tasks', 'contacts',
                                  'coupons', 'invoices', 'payments', 'members', 'sites', 'widgets',
                                  'external_calendars', 'product_configurations'] LOOP
    EXECUTE format('CREATE TRIGGER webhook_outbox AFTER INSERT OR UPDATE OR DELETE ON api.%I '
                   'FOR EACH ROW EXECUTE FUNCTION staykit_internal.webhook_outbox()', resource);
  END LOOP;
END
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Privileges. The functions run as their owner and are called by the triggers and the server only; the API role
-- (0011) has no access to the queue. It may set disabled_at back to null (re-enable) or set it (pause), so its
-- column grants on api.webhooks are recomputed now that the column exists.

REVOKE ALL ON FUNCTION staykit_internal.emit_webhook_event(uuid, text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.requeue_webhook_notification(uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.webhook_outbox() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.webhook_notifications_enqueue() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.webhooks_park_queue() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.webhook_row_snapshot(jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.webhook_quiet_columns() FROM PUBLIC;
REVOKE ALL ON staykit_internal.webhook_queue FROM PUBLIC;
SELECT staykit_internal.grant_api_access('api.webhooks', '{SELECT,INSERT,UPDATE,DELETE}');
