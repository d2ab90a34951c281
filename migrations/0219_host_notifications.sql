-- The host is told (docs/automations.md#host-notifications): a new booking, a booking request (a stay created
-- TENTATIVE, for the host to confirm or decline), a cancellation and a guest's cancellation request e-mail the
-- organization's members who chose that notification, and fire the webhooks booking.requested and
-- booking.cancellation_requested next to the booking events of 0131.
--
-- - members.notify: the notifications a member gets by e-mail; null = their role's default (owners and admins get
--   every one, other roles none). A member sets their own in the dashboard; members:write sets anyone's.
-- - A change that notifies queues one automation job of kind 'host_notification' per booking and notification
--   (parallel stays of one booking, e.g. a cart, make one), only when some active member with an e-mail address
--   gets it; the job writes one message per recipient when it runs, after the commit (src/automations/host-notification.ts).
--   Silent bookings (made without a confirmation e-mail, e.g. imported ones) notify nobody when created.

CREATE FUNCTION staykit_internal.host_notification_kinds() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY['booking.created', 'booking.requested', 'booking.cancelled', 'booking.cancellation_requested']
$$;
COMMENT ON FUNCTION staykit_internal.host_notification_kinds() IS
  'The notifications a member may get by e-mail (members.notify), named like the webhook events that go with them.';

ALTER TABLE api.members ADD COLUMN notify text[]
  CONSTRAINT members_notify CHECK (notify <@ staykit_internal.host_notification_kinds() AND array_position(notify, NULL) IS NULL);
COMMENT ON COLUMN api.members.notify IS
  'The notifications this member gets by e-mail: booking.created, booking.requested, booking.cancelled, '
  'booking.cancellation_requested; null = the role''s default (owners and admins: all, others: none).';
GRANT INSERT (notify), UPDATE (notify) ON api.members TO staykit_api;

CREATE FUNCTION staykit_internal.member_notifications(role text, notify text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(notify, CASE WHEN role IN ('owner', 'admin') THEN staykit_internal.host_notification_kinds()
                               ELSE '{}'::text[] END)
$$;
COMMENT ON FUNCTION staykit_internal.member_notifications(text, text[]) IS
  'The notifications a member gets: their own choice, else their role''s default.';

-- The job ----------------------------------------------------------------------------------------------------------
ALTER TABLE staykit_internal.automation_jobs DROP CONSTRAINT automation_jobs_kind_check;
ALTER TABLE staykit_internal.automation_jobs ADD CONSTRAINT automation_jobs_kind_check
  CHECK (kind IN ('template', 'delivery', 'task_notification', 'host_notification'));
ALTER TABLE staykit_internal.automation_jobs ADD COLUMN notification text
  CONSTRAINT automation_jobs_notification CHECK (notification = ANY (staykit_internal.host_notification_kinds()));
COMMENT ON COLUMN staykit_internal.automation_jobs.notification IS 'host_notification jobs: which notification.';
ALTER TABLE staykit_internal.automation_jobs DROP CONSTRAINT automation_jobs_shape;
ALTER TABLE staykit_internal.automation_jobs ADD CONSTRAINT automation_jobs_shape CHECK (
  kind = 'template' AND booking_id IS NOT NULL AND trigger IS NOT NULL AND rule_key IS NOT NULL
  OR kind = 'delivery' AND message_id IS NOT NULL
  OR kind = 'task_notification' AND calendar_event_task_id IS NOT NULL
  OR kind = 'host_notification' AND booking_id IS NOT NULL AND notification IS NOT NULL);
CREATE UNIQUE INDEX automation_jobs_host_notification_unique ON staykit_internal.automation_jobs (organization_id, booking_id, notification)
  WHERE kind = 'host_notification' AND done_at IS NULL;

CREATE FUNCTION staykit_internal.queue_host_notification(org uuid, booking uuid, notification text) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  INSERT INTO staykit_internal.automation_jobs (organization_id, kind, booking_id, notification)
  SELECT org, 'host_notification', booking, notification
  WHERE EXISTS (SELECT 1 FROM api.members AS m
                WHERE m.organization_id = org AND m.active AND m.email IS NOT NULL
                  AND notification = ANY (staykit_internal.member_notifications(m.role, m.notify)))
  ON CONFLICT (organization_id, booking_id, notification) WHERE kind = 'host_notification' AND done_at IS NULL DO NOTHING
$$;

-- A booking's stay created (a booking, or a request when TENTATIVE) or cancelled.
CREATE FUNCTION staykit_internal.host_notifications_of_stay() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status = 'CANCELLED' OR EXISTS (SELECT 1 FROM api.bookings AS b
                                            WHERE b.id = NEW.booking_id AND b.organization_id = NEW.organization_id AND b.silent) THEN
      RETURN NULL;
    END IF;
    PERFORM staykit_internal.queue_host_notification(NEW.organization_id, NEW.booking_id,
      CASE NEW.status WHEN 'TENTATIVE' THEN 'booking.requested' ELSE 'booking.created' END);
  ELSIF NEW.status = 'CANCELLED' AND OLD.status <> 'CANCELLED' THEN
    PERFORM staykit_internal.queue_host_notification(NEW.organization_id, NEW.booking_id, 'booking.cancelled');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER host_notifications AFTER INSERT OR UPDATE OF status ON api.calendar_events
  FOR EACH ROW WHEN (NEW.booking_id IS NOT NULL) EXECUTE FUNCTION staykit_internal.host_notifications_of_stay();

-- The webhook events ------------------------------------------------------------------------------------------------
INSERT INTO staykit_internal.webhook_event_types (name, resource, description, read_scopes) VALUES
  ('booking.requested', 'booking',
   'A guest asked to book (a booking request): its stays are TENTATIVE until the host confirms or declines. Sent next to booking.created.',
   ARRAY['bookings', 'calendar_events', 'contact_bookings', 'contacts', 'line_items', 'products']),
  ('booking.cancellation_requested', 'booking',
   'A guest asked to cancel their booking from the guest page; the payload has the booking and the guest''s message.',
   ARRAY['bookings', 'calendar_events', 'contact_bookings', 'contacts', 'line_items', 'messages', 'products']);

-- booking_events_emit (0131) also sends booking.requested for a booking created with TENTATIVE stays only.
CREATE OR REPLACE FUNCTION staykit_internal.booking_events_emit() RETURNS trigger
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
    IF NEW.kind = 'created' AND jsonb_array_length(booking -> 'calendar_events') > 0
       AND NOT jsonb_path_exists(booking, '$.calendar_events[*] ? (@.status != "TENTATIVE")') THEN
      PERFORM staykit_internal.emit_webhook_event(NEW.organization_id, 'booking.requested',
                                                  jsonb_build_object('booking', booking));
    END IF;
  END IF;
  RETURN NULL;
END
$$;

-- A guest's cancellation request (0211): at commit, when its message is written, the webhook and the notification.
CREATE FUNCTION staykit_internal.cancellation_request_made() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  booking jsonb := staykit_internal.booking_event_snapshot(NEW.organization_id, NEW.booking_id);
BEGIN
  IF booking IS NULL THEN RETURN NULL; END IF;
  PERFORM staykit_internal.emit_webhook_event(NEW.organization_id, 'booking.cancellation_requested',
    jsonb_build_object('booking', booking, 'message', (
      SELECT jsonb_build_object('id', m.id, 'from_address', m.from_address, 'subject', m.subject, 'body', m.body,
                                'created_at', m.created_at)
      FROM api.messages AS m WHERE m.id = NEW.message_id AND m.organization_id = NEW.organization_id)));
  PERFORM staykit_internal.queue_host_notification(NEW.organization_id, NEW.booking_id, 'booking.cancellation_requested');
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER cancellation_request_made AFTER INSERT ON staykit_internal.cancellation_requests
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION staykit_internal.cancellation_request_made();

REVOKE ALL ON FUNCTION staykit_internal.queue_host_notification(uuid, uuid, text),
                       staykit_internal.host_notifications_of_stay(),
                       staykit_internal.cancellation_request_made() FROM PUBLIC;
