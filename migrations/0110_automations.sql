-- Automations (docs/automations.md): e-mails that are sent, tasks that are created, on booking events and schedules.
--
-- One job queue, staykit_internal.automation_jobs, holds every piece of time-based work:
--   template           render an e-mail template for a booking and queue the message (at once for a trigger, at the
--                      template's moment for a schedule);
--   delivery           send one queued outbound message (SMTP, or the outbox folder), with retries;
--   task_notification  e-mail the assignee of a calendar event task before it is due.
-- Jobs are written by the triggers below, in the same transaction as the change that causes them (a booking event
-- created, confirmed, cancelled or moved; a message queued; a task created or moved): a change that commits always
-- has its jobs, one that rolls back never does. The scheduler (src/automations/scheduler.ts) claims due jobs with
-- FOR UPDATE SKIP LOCKED and leases them by moving run_at ahead (as the webhook queue does), so any number of
-- workers can run and a worker that dies loses its lease, not the work.
--
-- Trigger functions are SECURITY DEFINER with a fixed search_path: API requests run as staykit_api, which has no
-- access to the queue, yet their changes must still schedule work.

CREATE TABLE staykit_internal.automation_jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES api.organizations (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('template', 'delivery', 'task_notification')),
  created_at timestamptz NOT NULL DEFAULT now(),
  run_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  lease_token uuid,
  done_at timestamptz,
  last_error text,
  -- template jobs: which booking, which rule (the message template's id when the rule is a per-unit message
  -- template, else the e-mail template's), and why (a trigger name or 'moment').
  booking_id uuid,
  trigger text CHECK (trigger IN ('created', 'confirmed', 'cancelled', 'updated', 'moment')),
  rule_key uuid,
  email_template_id uuid,
  message_template_id uuid,
  -- delivery jobs: the message, and the files attached to it when it was rendered.
  message_id uuid,
  attachments jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(attachments) = 'array'),
  -- task_notification jobs, and the delivery of a task notification (sets notification_sent_at once sent).
  calendar_event_task_id uuid,
  CONSTRAINT automation_jobs_booking_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT automation_jobs_email_template_fkey FOREIGN KEY (email_template_id, organization_id)
    REFERENCES api.email_templates (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT automation_jobs_message_template_fkey FOREIGN KEY (message_template_id, organization_id)
    REFERENCES api.message_templates (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT automation_jobs_message_fkey FOREIGN KEY (message_id, organization_id)
    REFERENCES api.messages (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT automation_jobs_task_fkey FOREIGN KEY (calendar_event_task_id, organization_id)
    REFERENCES api.calendar_event_tasks (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT automation_jobs_shape CHECK (
    kind = 'template' AND booking_id IS NOT NULL AND trigger IS NOT NULL AND rule_key IS NOT NULL
    OR kind = 'delivery' AND message_id IS NOT NULL
    OR kind = 'task_notification' AND calendar_event_task_id IS NOT NULL)
);
CREATE INDEX automation_jobs_due_idx ON staykit_internal.automation_jobs (run_at) WHERE done_at IS NULL;
CREATE INDEX automation_jobs_booking_idx ON staykit_internal.automation_jobs (booking_id);
CREATE INDEX automation_jobs_email_template_idx ON staykit_internal.automation_jobs (email_template_id);
CREATE INDEX automation_jobs_message_template_idx ON staykit_internal.automation_jobs (message_template_id);
CREATE INDEX automation_jobs_organization_idx ON staykit_internal.automation_jobs (organization_id);
-- One scheduled send per booking and rule, ever: a moment job is kept (done_at) once sent, so moving the booking
-- again never sends it twice.
CREATE UNIQUE INDEX automation_jobs_moment_unique ON staykit_internal.automation_jobs (booking_id, rule_key)
  WHERE kind = 'template' AND trigger = 'moment';
CREATE UNIQUE INDEX automation_jobs_delivery_unique ON staykit_internal.automation_jobs (message_id)
  WHERE kind = 'delivery';
CREATE UNIQUE INDEX automation_jobs_task_unique ON staykit_internal.automation_jobs (calendar_event_task_id)
  WHERE kind = 'task_notification';
COMMENT ON TABLE staykit_internal.automation_jobs IS
  'Automation work (docs/automations.md). run_at: when it is due, or (while leased) when the lease expires. '
  'done_at: set on scheduled template sends once done (kept so that they are never sent twice); other jobs are '
  'deleted when done.';

-- ---------------------------------------------------------------------------------------------------------------
-- Which automations apply to a unit's bookings.
--
-- * An automated e-mail template (type automated, trigger set and not manual, or a moment) applies to every unit of
--   its organization, unless an active message template uses it: then it applies only through those.
-- * An active e-mail message template linked to the unit (product_message_templates) applies to it, with its own
--   moment when it has one (else its e-mail template's trigger or moment), its e-mail template's status, time and
--   past_schedule_behavior (CONFIRMED, none, skip without one).
-- A rule's trigger is created, confirmed, cancelled, updated or moment.
CREATE FUNCTION staykit_internal.automation_rules(organization uuid, product uuid)
RETURNS TABLE (rule_key uuid, email_template_id uuid, message_template_id uuid, trigger text, moment jsonb,
               send_time time, status text, past_schedule_behavior text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT r.rule_key, r.email_template_id, r.message_template_id,
         CASE WHEN r.moment IS NOT NULL AND (r.trigger IS NULL OR r.trigger = 'moment') THEN 'moment' ELSE r.trigger END,
         r.moment, r.send_time, r.status, r.past_schedule_behavior
  FROM (
    SELECT e.id AS rule_key, e.id AS email_template_id, NULL::uuid AS message_template_id, e.trigger, e.moment,
           e.time AS send_time, e.status, e.past_schedule_behavior
    FROM api.email_templates AS e
    WHERE e.organization_id = organization AND e.type = 'automated'
      AND NOT EXISTS (SELECT 1 FROM api.message_templates AS m
                      WHERE m.email_template_id = e.id AND m.organization_id = organization AND m.active)
    UNION ALL
    SELECT m.id, m.email_template_id, m.id,
           CASE WHEN m.moment IS NOT NULL THEN 'moment' ELSE e.trigger END, coalesce(m.moment, e.moment),
           e.time, coalesce(e.status, 'CONFIRMED'), coalesce(e.past_schedule_behavior, 'skip')
    FROM api.product_message_templates AS pm
    JOIN api.message_templates AS m ON m.id = pm.message_template_id AND m.organization_id = pm.organization_id
    LEFT JOIN api.email_templates AS e ON e.id = m.email_template_id AND e.organization_id = m.organization_id
    WHERE pm.organization_id = organization AND pm.product_id = product AND m.active AND m.channel = 'email'
  ) AS r
  WHERE (r.trigger IS NOT NULL AND r.trigger <> 'manual' AND (r.trigger <> 'moment' OR r.moment IS NOT NULL))
     OR (r.trigger IS NULL AND r.moment IS NOT NULL)
$$;
COMMENT ON FUNCTION staykit_internal.automation_rules(uuid, uuid) IS
  'The e-mail automations that apply to the bookings of one unit (docs/automations.md#which-templates-act).';

-- When a moment falls, in the unit's time zone. offset is in days. check-in and checkout are the stay's first and
-- last day, on-site the day after arrival; at `time` (09:00 when null). confirmation and request are the instants
-- the booking was confirmed or made: offset days later, at `time` on that (local) day when given.
CREATE FUNCTION staykit_internal.automation_moment_at(
  moment jsonb, send_time time, start_date date, end_date date, confirmed_at timestamptz, requested_at timestamptz,
  time_zone text
) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN moment ->> 'type' IN ('check-in', 'checkout', 'on-site') THEN
      ((CASE moment ->> 'type' WHEN 'checkout' THEN end_date WHEN 'on-site' THEN start_date + 1 ELSE start_date END)
        + (moment ->> 'offset')::integer + coalesce(send_time, time '09:00')) AT TIME ZONE time_zone
    ELSE (
      SELECT CASE
        WHEN base IS NULL THEN NULL
        WHEN send_time IS NULL THEN base + make_interval(days => (moment ->> 'offset')::integer)
        ELSE (((base AT TIME ZONE time_zone)::date + (moment ->> 'offset')::integer) + send_time) AT TIME ZONE time_zone
      END
      FROM (SELECT CASE moment ->> 'type' WHEN 'confirmation' THEN confirmed_at ELSE requested_at END AS base) AS b)
  END
$$;

-- When a task made from a product task is due, in the unit's time zone: arrival at 15:00 on the first day,
-- departure at 11:00 on the checkout day, confirmation when the booking was confirmed (made, until it is),
-- custom at 00:00 on the first day; then offset_minutes later (earlier when negative).
CREATE FUNCTION staykit_internal.task_due_at(
  schedule text, offset_minutes integer, start_date date, end_date date, confirmed_at timestamptz, time_zone text
) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT CASE schedule
    WHEN 'arrival' THEN (start_date + time '15:00') AT TIME ZONE time_zone
    WHEN 'departure' THEN (end_date + time '11:00') AT TIME ZONE time_zone
    WHEN 'confirmation' THEN confirmed_at
    ELSE (start_date + time '00:00') AT TIME ZONE time_zone
  END + make_interval(mins => offset_minutes)
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Scheduled sends of one booking: (re)computed whenever its event is created, moved or changes status. A rule
-- whose status is the booking's has its job due at the moment (moved if pending); a moment already past is
-- skipped or sent at once (past_schedule_behavior). Pending jobs of rules that no longer apply (another status:
-- a cancellation, a template unlinked) are removed. Sent ones are kept and never sent again.
CREATE FUNCTION staykit_internal.automation_schedule_moments(event api.calendar_events, booking api.bookings)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  zone text;
BEGIN
  SELECT p.timezone INTO zone FROM api.products AS p
  WHERE p.id = event.product_id AND p.organization_id = event.organization_id;
  WITH wanted AS (
    SELECT r.rule_key, r.email_template_id, r.message_template_id, r.past_schedule_behavior,
           staykit_internal.automation_moment_at(
             r.moment, r.send_time, event.start_date, event.end_date,
             coalesce(booking.confirmed_at, CASE WHEN event.status = 'CONFIRMED' THEN now() END),
             booking.created_at, zone) AS at
    FROM staykit_internal.automation_rules(event.organization_id, event.product_id) AS r
    WHERE r.trigger = 'moment' AND r.status = event.status AND NOT booking.silent
  ),
  due AS (
    SELECT w.*, CASE WHEN w.at >= now() THEN w.at WHEN w.past_schedule_behavior = 'send' THEN now() END AS run_at
    FROM wanted AS w
    WHERE w.at IS NOT NULL
  ),
  dropped AS (
    DELETE FROM staykit_internal.automation_jobs AS j
    WHERE j.booking_id = booking.id AND j.kind = 'template' AND j.trigger = 'moment'
      AND j.done_at IS NULL AND j.lease_token IS NULL
      AND j.rule_key NOT IN (SELECT d.rule_key FROM due AS d WHERE d.run_at IS NOT NULL)
  )
  INSERT INTO staykit_internal.automation_jobs AS j
    (organization_id, kind, booking_id, trigger, rule_key, email_template_id, message_template_id, run_at)
  SELECT event.organization_id, 'template', booking.id, 'moment', d.rule_key, d.email_template_id,
         d.message_template_id, d.run_at
  FROM due AS d
  WHERE d.run_at IS NOT NULL
  ON CONFLICT (booking_id, rule_key) WHERE kind = 'template' AND trigger = 'moment'
  DO UPDATE SET run_at = EXCLUDED.run_at
    WHERE j.done_at IS NULL AND j.lease_token IS NULL AND j.run_at IS DISTINCT FROM EXCLUDED.run_at;
END
$$;

-- Tasks of one booking event. Created from the unit's active product tasks when the event is created (or comes
-- back from CANCELLED), with the product task's assignee or else its template's first default assignee; open ones
-- move with the dates; open ones are deleted when the booking is cancelled (completed ones stay, as history).
CREATE FUNCTION staykit_internal.automation_sync_tasks(event api.calendar_events, booking api.bookings, created boolean)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  zone text;
  confirmed timestamptz := coalesce(booking.confirmed_at, CASE WHEN event.status = 'CONFIRMED' THEN now() END,
                                    booking.created_at);
BEGIN
  IF event.status = 'CANCELLED' THEN
    DELETE FROM api.calendar_event_tasks AS t
    WHERE t.calendar_event_id = event.id AND t.organization_id = event.organization_id
      AND t.product_task_id IS NOT NULL AND t.completed_at IS NULL;
    RETURN;
  END IF;
  SELECT p.timezone INTO zone FROM api.products AS p
  WHERE p.id = event.product_id AND p.organization_id = event.organization_id;

  UPDATE api.calendar_event_tasks AS t
  SET due_at = staykit_internal.task_due_at(pt.schedule, pt.offset_minutes, event.start_date, event.end_date,
                                            confirmed, zone)
  FROM api.product_tasks AS pt
  WHERE t.calendar_event_id = event.id AND t.organization_id = event.organization_id AND t.completed_at IS NULL
    AND pt.id = t.product_task_id AND pt.organization_id = t.organization_id
    AND t.due_at IS DISTINCT FROM staykit_internal.task_due_at(pt.schedule, pt.offset_minutes, event.start_date,
                                                                event.end_date, confirmed, zone);
  IF NOT created THEN RETURN; END IF;

  INSERT INTO api.calendar_event_tasks
    (organization_id, calendar_event_id, product_task_id, assignee_id, label, schedule, due_at)
  SELECT event.organization_id, event.id, pt.id,
         coalesce(pt.assignee_id, (SELECT a.member_id FROM api.task_template_assignees AS a
                                   WHERE a.task_template_id = pt.task_template_id AND a.organization_id = pt.organization_id
                                   ORDER BY a.created_at, a.id LIMIT 1)),
         pt.label, pt.schedule,
         staykit_internal.task_due_at(pt.schedule, pt.offset_minutes, event.start_date, event.end_date, confirmed, zone)
  FROM api.product_tasks AS pt
  WHERE pt.product_id = event.product_id AND pt.organization_id = event.organization_id AND pt.active
    AND NOT EXISTS (SELECT 1 FROM api.calendar_event_tasks AS t
                    WHERE t.calendar_event_id = event.id AND t.organization_id = event.organization_id
                      AND t.product_task_id = pt.id)
  ORDER BY pt.created_at, pt.id;
END
$$;

-- A booking event created, confirmed, cancelled or moved: its tasks, its triggered e-mails (sent at once, for the
-- rules whose status is the event's new status) and its scheduled ones. A silent booking sends nothing.
CREATE FUNCTION staykit_internal.automations_on_booking_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  booking api.bookings;
  moved boolean := TG_OP = 'UPDATE'
    AND (NEW.start_date, NEW.end_date, NEW.product_id) IS DISTINCT FROM (OLD.start_date, OLD.end_date, OLD.product_id);
  status_changed boolean := TG_OP = 'UPDATE' AND NEW.status IS DISTINCT FROM OLD.status;
  fired text[] := '{}';
BEGIN
  IF TG_OP = 'UPDATE' AND NOT moved AND NOT status_changed THEN
    RETURN NULL;
  END IF;
  SELECT * INTO booking FROM api.bookings AS b WHERE b.id = NEW.booking_id AND b.organization_id = NEW.organization_id;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;

  PERFORM staykit_internal.automation_sync_tasks(
    NEW, booking, TG_OP = 'INSERT' OR (status_changed AND OLD.status = 'CANCELLED'));
  IF booking.silent THEN
    RETURN NULL;
  END IF;

  IF TG_OP = 'INSERT' THEN
    fired := ARRAY['created'];
  END IF;
  IF NEW.status = 'CONFIRMED' AND (TG_OP = 'INSERT' OR OLD.status <> 'CONFIRMED') THEN
    fired := fired || 'confirmed'::text;
  ELSIF NEW.status = 'CANCELLED' AND TG_OP = 'UPDATE' AND OLD.status <> 'CANCELLED' THEN
    fired := fired || 'cancelled'::text;
  END IF;
  IF moved THEN
    fired := fired || 'updated'::text;
  END IF;

  INSERT INTO staykit_internal.automation_jobs
    (organization_id, kind, booking_id, trigger, rule_key, email_template_id, message_template_id, run_at)
  SELECT NEW.organization_id, 'template', booking.id, r.trigger, r.rule_key, r.email_template_id,
         r.message_template_id, now()
  FROM staykit_internal.automation_rules(NEW.organization_id, NEW.product_id) AS r
  WHERE r.trigger = ANY (fired) AND r.status = NEW.status;

  PERFORM staykit_internal.automation_schedule_moments(NEW, booking);
  RETURN NULL;
END
$$;

CREATE TRIGGER automations_on_booking_event
  AFTER INSERT OR UPDATE OF status, start_date, end_date, product_id ON api.calendar_events
  FOR EACH ROW WHEN (NEW.type = 'booking' AND NEW.booking_id IS NOT NULL)
  EXECUTE FUNCTION staykit_internal.automations_on_booking_event();

-- ---------------------------------------------------------------------------------------------------------------
-- Messages. An outbound message that is (or becomes again) queued gets a delivery job, due at scheduled_at or at
-- once, and a `queued` event. Only e-mail has a sender: other channels fail at once, saying so.
CREATE FUNCTION staykit_internal.automations_queue_message() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO api.message_events (organization_id, message_id, type, payload)
  VALUES (NEW.organization_id, NEW.id, 'queued', jsonb_build_object('scheduled_at', NEW.scheduled_at));
  IF NEW.channel <> 'email' THEN
    INSERT INTO api.message_events (organization_id, message_id, type, payload)
    VALUES (NEW.organization_id, NEW.id, 'failed',
            jsonb_build_object('permanent', true, 'response', 'no sender is configured for channel ' || NEW.channel));
    UPDATE api.messages SET status = 'failed' WHERE id = NEW.id AND organization_id = NEW.organization_id;
    RETURN NULL;
  END IF;
  INSERT INTO staykit_internal.automation_jobs (organization_id, kind, message_id, run_at)
  VALUES (NEW.organization_id, 'delivery', NEW.id, coalesce(NEW.scheduled_at, now()))
  ON CONFLICT (message_id) WHERE kind = 'delivery' DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER automations_queue_message AFTER INSERT ON api.messages
  FOR EACH ROW WHEN (NEW.direction = 'outbound' AND NEW.status = 'queued')
  EXECUTE FUNCTION staykit_internal.automations_queue_message();
CREATE TRIGGER automations_requeue_message AFTER UPDATE OF status ON api.messages
  FOR EACH ROW WHEN (NEW.direction = 'outbound' AND NEW.status = 'queued' AND OLD.status <> 'queued')
  EXECUTE FUNCTION staykit_internal.automations_queue_message();

-- A message that leaves the queue for good removes its delivery job (e.g. a client marks it failed by hand).
CREATE FUNCTION staykit_internal.automations_unqueue_message() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  DELETE FROM staykit_internal.automation_jobs AS j
  WHERE j.kind = 'delivery' AND j.message_id = NEW.id AND j.lease_token IS NULL;
  RETURN NULL;
END
$$;
CREATE TRIGGER automations_unqueue_message AFTER UPDATE OF status ON api.messages
  FOR EACH ROW WHEN (OLD.status = 'queued' AND NEW.status <> 'queued')
  EXECUTE FUNCTION staykit_internal.automations_unqueue_message();

-- Webhook events messages.sent and messages.failed, in the transaction that records the outcome.
CREATE FUNCTION staykit_internal.automations_message_events() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM staykit_internal.emit_webhook_event(
    NEW.organization_id, 'messages.' || NEW.status,
    jsonb_build_object('new', staykit_internal.webhook_row_snapshot(to_jsonb(NEW)),
                       'old', staykit_internal.webhook_row_snapshot(to_jsonb(OLD))));
  RETURN NULL;
END
$$;
CREATE TRIGGER automations_message_events AFTER UPDATE OF status ON api.messages
  FOR EACH ROW WHEN (NEW.status IN ('sent', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION staykit_internal.automations_message_events();

CREATE OR REPLACE FUNCTION staykit_internal.webhook_event_catalogue() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT (SELECT array_agg(r || '.' || op ORDER BY r, op)
          FROM unnest(ARRAY['products', 'bookings', 'calendar_events', 'calendar_event_tasks', 'contacts',
                            'coupons', 'invoices', 'payments', 'members', 'sites', 'widgets', 'external_calendars',
                            'product_configurations']) AS r,
               unnest(ARRAY['created', 'updated', 'deleted']) AS op)
         || ARRAY['calendar_events.confirmed', 'calendar_events.cancelled', 'calendar_event_tasks.completed',
                  'payments.paid', 'external_calendars.sync_failed', 'messages.sent', 'messages.failed']
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Task notifications: the assignee of an open task is e-mailed 24 hours before it is due (at once when it is
-- created or moved closer than that; not at all once it is due, completed or unassigned). A new due time or
-- assignee notifies again.
CREATE FUNCTION staykit_internal.automations_task_notification() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.due_at IS NOT DISTINCT FROM OLD.due_at AND NEW.assignee_id IS NOT DISTINCT FROM OLD.assignee_id
     AND NEW.completed_at IS NOT DISTINCT FROM OLD.completed_at THEN
    RETURN NULL;
  END IF;
  IF NEW.completed_at IS NOT NULL OR NEW.assignee_id IS NULL OR NEW.due_at <= now() THEN
    DELETE FROM staykit_internal.automation_jobs AS j
    WHERE j.kind = 'task_notification' AND j.calendar_event_task_id = NEW.id AND j.lease_token IS NULL;
    RETURN NULL;
  END IF;
  INSERT INTO staykit_internal.automation_jobs AS j (organization_id, kind, calendar_event_task_id, run_at)
  VALUES (NEW.organization_id, 'task_notification', NEW.id, greatest(NEW.due_at - interval '24 hours', now()))
  ON CONFLICT (calendar_event_task_id) WHERE kind = 'task_notification'
  DO UPDATE SET run_at = EXCLUDED.run_at, attempts = 0, done_at = NULL WHERE j.lease_token IS NULL;
  RETURN NULL;
END
$$;
CREATE TRIGGER automations_task_notification
  AFTER INSERT OR UPDATE OF due_at, assignee_id, completed_at ON api.calendar_event_tasks
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.automations_task_notification();

-- ---------------------------------------------------------------------------------------------------------------
-- Wake-ups: a scheduler LISTENing on staykit_automations claims new work at once (migration 0092 does the same for
-- webhooks). The channel name is also in src/automations/scheduler.ts (AUTOMATION_WAKE_CHANNEL).
CREATE FUNCTION staykit_internal.notify_automation_workers() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_notify('staykit_automations', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER automation_jobs_wake AFTER INSERT ON staykit_internal.automation_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.notify_automation_workers();

REVOKE ALL ON staykit_internal.automation_jobs FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automation_rules(uuid, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automation_schedule_moments(api.calendar_events, api.bookings) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automation_sync_tasks(api.calendar_events, api.bookings, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automations_on_booking_event() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automations_queue_message() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automations_unqueue_message() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automations_message_events() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automations_task_notification() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.notify_automation_workers() FROM PUBLIC;
