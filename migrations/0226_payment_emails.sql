-- E-mails about a booking's payments (docs/automations.md#triggers, #payment-reminders): two more template triggers.
--
--   payment_received  a payment of the booking becomes paid — recorded by hand (POST /v1/payments with status paid,
--                     or PATCH pending → paid), by Stripe's webhook, or as a Checkout session's own payment — sent
--                     at once. The job is written by a trigger on api.payments, in the transaction that pays.
--   payment_due       a reminder per payment still to pay (pending, failed, expired) with a due date:
--                     payment_due_offset days from its due date (in the unit's time zone; -3 is three days before),
--                     at the template's `time` (09:00 when null). Rescheduled whenever the payment (status, due
--                     date, booking), the booking's stay (dates, unit, status) or the template changes; gone once the
--                     payment is paid or cancelled or the booking cancelled; sent once per payment and template.
--
-- Why a column rather than `moment`: `moment.type` is one of the spec's five (check-in, checkout, confirmation,
-- on-site, request), all counted from the stay; none is "the payment's due date", and a sixth type would break
-- clients that follow the spec. So a payment_due template has no moment (a CHECK says so) and its offset is
-- email_templates.payment_due_offset; `trigger` is text whose values only our CHECK lists, so it may grow.
--
-- Both jobs name their payment (automation_jobs.payment_id), so the e-mail shows that payment (src/automations/
-- context.ts). The booking's status is checked when the job runs, as for moments: a request confirmed by the very
-- payment that is received (confirm_after_initial_payment) is CONFIRMED by then, whatever order the payment's
-- triggers ran in.

ALTER TABLE api.email_templates DROP CONSTRAINT email_templates_trigger_check;
ALTER TABLE api.email_templates ADD CONSTRAINT email_templates_trigger_check
  CHECK (trigger IN ('created', 'confirmed', 'cancelled', 'updated', 'moment', 'manual', 'payment_received', 'payment_due'));
ALTER TABLE api.email_templates ADD COLUMN payment_due_offset integer
  CONSTRAINT email_templates_payment_due_offset_range CHECK (payment_due_offset BETWEEN -365 AND 365);
ALTER TABLE api.email_templates ADD CONSTRAINT email_templates_payment_due_without_moment
  CHECK (trigger IS DISTINCT FROM 'payment_due' OR moment IS NULL);
COMMENT ON COLUMN api.email_templates.payment_due_offset IS
  'trigger payment_due: days from the payment''s due date (in the unit''s time zone) the reminder is sent, -3 = three days before; null = on the due date.';
COMMENT ON COLUMN api.email_templates.trigger IS
  'Event that sends the email: created, confirmed, cancelled, updated, moment, payment_received, payment_due or manual; or null.';

ALTER TABLE staykit_internal.automation_jobs DROP CONSTRAINT automation_jobs_trigger_check;
ALTER TABLE staykit_internal.automation_jobs ADD CONSTRAINT automation_jobs_trigger_check
  CHECK (trigger IN ('created', 'confirmed', 'cancelled', 'updated', 'moment', 'payment_received', 'payment_due'));
ALTER TABLE staykit_internal.automation_jobs ADD COLUMN payment_id uuid;
COMMENT ON COLUMN staykit_internal.automation_jobs.payment_id IS
  'template jobs of trigger payment_received or payment_due: the payment the e-mail is about.';
ALTER TABLE staykit_internal.automation_jobs ADD CONSTRAINT automation_jobs_payment_fkey
  FOREIGN KEY (payment_id, organization_id) REFERENCES api.payments (id, organization_id) ON DELETE CASCADE;
ALTER TABLE staykit_internal.automation_jobs ADD CONSTRAINT automation_jobs_payment
  CHECK ((payment_id IS NOT NULL) = coalesce(trigger IN ('payment_received', 'payment_due'), false));
CREATE INDEX automation_jobs_payment_idx ON staykit_internal.automation_jobs (payment_id);
-- One reminder per payment and rule, ever: kept (done_at) once sent, like a moment's send.
CREATE UNIQUE INDEX automation_jobs_payment_due_unique ON staykit_internal.automation_jobs (organization_id, payment_id, rule_key)
  WHERE kind = 'template' AND trigger = 'payment_due';

-- When a reminder falls: the payment's due date in the unit's time zone, + offset days, at `time` (09:00 when null).
CREATE FUNCTION staykit_internal.payment_reminder_at(due_at timestamptz, due_offset integer, send_time time, time_zone text)
RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT (((due_at AT TIME ZONE time_zone)::date + coalesce(due_offset, 0)) + coalesce(send_time, time '09:00'))
         AT TIME ZONE time_zone
$$;

-- The reminders of one booking, (re)computed: one per payment still to pay and payment_due rule of its unit whose
-- status is the stay's. A reminder already past is skipped, or — past_schedule_behavior send, when send_past —
-- sent at once while the payment is not yet overdue. Pending reminders that no longer apply go; sent ones stay.
CREATE FUNCTION staykit_internal.automation_schedule_payment_reminders(org uuid, target uuid, send_past boolean)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  event api.calendar_events;
  quiet boolean;
  zone text;
BEGIN
  SELECT b.silent INTO quiet FROM api.bookings AS b WHERE b.id = target AND b.organization_id = org;
  SELECT * INTO event FROM api.calendar_events AS ev
  WHERE ev.booking_id = target AND ev.organization_id = org AND ev.type = 'booking'
  ORDER BY ev.created_at, ev.id LIMIT 1;
  IF quiet IS NULL OR event.id IS NULL THEN
    RETURN;
  END IF;
  SELECT p.timezone INTO zone FROM api.products AS p WHERE p.id = event.product_id AND p.organization_id = org;
  WITH wanted AS (
    SELECT r.rule_key, r.email_template_id, r.message_template_id, r.past_schedule_behavior, pay.id AS payment_id,
           (pay.due_at AT TIME ZONE zone)::date AS due_date,
           staykit_internal.payment_reminder_at(pay.due_at, e.payment_due_offset, r.send_time, zone) AS at
    FROM staykit_internal.automation_rules(org, event.product_id) AS r
    JOIN api.email_templates AS e ON e.id = r.email_template_id AND e.organization_id = org
    JOIN api.payments AS pay ON pay.booking_id = target AND pay.organization_id = org
    WHERE r.trigger = 'payment_due' AND r.status = event.status AND NOT quiet
      AND pay.status IN ('pending', 'failed', 'expired') AND pay.due_at IS NOT NULL
  ),
  due AS (
    SELECT w.*,
           CASE WHEN w.at >= now() THEN w.at
                WHEN w.past_schedule_behavior = 'send' AND send_past AND w.due_date >= (now() AT TIME ZONE zone)::date
                  THEN now()
           END AS run_at
    FROM wanted AS w
  ),
  dropped AS (
    DELETE FROM staykit_internal.automation_jobs AS j
    WHERE j.booking_id = target AND j.kind = 'template' AND j.trigger = 'payment_due'
      AND j.done_at IS NULL AND j.lease_token IS NULL
      AND (j.payment_id, j.rule_key) NOT IN (SELECT d.payment_id, d.rule_key FROM due AS d WHERE d.run_at IS NOT NULL)
  )
  INSERT INTO staykit_internal.automation_jobs AS j
    (organization_id, kind, booking_id, trigger, rule_key, email_template_id, message_template_id, payment_id, run_at)
  SELECT org, 'template', target, 'payment_due', d.rule_key, d.email_template_id, d.message_template_id, d.payment_id,
         d.run_at
  FROM due AS d
  WHERE d.run_at IS NOT NULL
  ON CONFLICT (organization_id, payment_id, rule_key) WHERE kind = 'template' AND trigger = 'payment_due'
  DO UPDATE SET run_at = EXCLUDED.run_at
    WHERE j.done_at IS NULL AND j.lease_token IS NULL AND j.run_at IS DISTINCT FROM EXCLUDED.run_at;
END
$$;

-- A payment inserted or changed: a payment_received e-mail when it has just become paid, and its booking's reminders
-- (and, when it moved to another booking, the old one's) scheduled again.
CREATE FUNCTION staykit_internal.automations_on_payment() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.status = 'paid' AND NEW.booking_id IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.status <> 'paid') THEN
    INSERT INTO staykit_internal.automation_jobs
      (organization_id, kind, booking_id, trigger, rule_key, email_template_id, message_template_id, payment_id, run_at)
    SELECT NEW.organization_id, 'template', NEW.booking_id, 'payment_received', r.rule_key, r.email_template_id,
           r.message_template_id, NEW.id, now()
    FROM api.bookings AS b
    CROSS JOIN LATERAL (SELECT ev.product_id FROM api.calendar_events AS ev
                        WHERE ev.booking_id = b.id AND ev.organization_id = b.organization_id AND ev.type = 'booking'
                        ORDER BY ev.created_at, ev.id LIMIT 1) AS stay
    CROSS JOIN LATERAL staykit_internal.automation_rules(NEW.organization_id, stay.product_id) AS r
    WHERE b.id = NEW.booking_id AND b.organization_id = NEW.organization_id AND NOT b.silent
      AND r.trigger = 'payment_received';
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.booking_id IS NOT NULL AND OLD.booking_id IS DISTINCT FROM NEW.booking_id THEN
    PERFORM staykit_internal.automation_schedule_payment_reminders(OLD.organization_id, OLD.booking_id, true);
  END IF;
  IF NEW.booking_id IS NOT NULL THEN
    PERFORM staykit_internal.automation_schedule_payment_reminders(NEW.organization_id, NEW.booking_id, true);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER automations_on_payment AFTER INSERT OR UPDATE OF status, due_at, booking_id ON api.payments
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.automations_on_payment();

-- The booking's stay created, moved or changing status: its reminders follow (a cancelled stay has none).
CREATE FUNCTION staykit_internal.automations_payment_reminders_on_booking_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM staykit_internal.automation_schedule_payment_reminders(NEW.organization_id, NEW.booking_id, true);
  RETURN NULL;
END
$$;
CREATE TRIGGER automations_payment_reminders AFTER INSERT OR UPDATE OF status, start_date, end_date, product_id
  ON api.calendar_events
  FOR EACH ROW WHEN (NEW.type = 'booking' AND NEW.booking_id IS NOT NULL)
  EXECUTE FUNCTION staykit_internal.automations_payment_reminders_on_booking_event();

-- A template changed: the reminders of every booking with a payment still to pay whose reminder could still be
-- ahead (due at most 365 days ago: the largest offset), and of every booking with a pending reminder. Only
-- reminders still ahead are added this way (send_past false), as for moments (migration 0112).
CREATE FUNCTION staykit_internal.automation_reschedule_payment_reminders(org uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  target uuid;
BEGIN
  FOR target IN
    SELECT pay.booking_id FROM api.payments AS pay
    WHERE pay.organization_id = org AND pay.booking_id IS NOT NULL AND pay.status IN ('pending', 'failed', 'expired')
      AND pay.due_at >= now() - interval '366 days'
    UNION
    SELECT j.booking_id FROM staykit_internal.automation_jobs AS j
    WHERE j.organization_id = org AND j.kind = 'template' AND j.trigger = 'payment_due' AND j.done_at IS NULL
  LOOP
    PERFORM staykit_internal.automation_schedule_payment_reminders(org, target, false);
  END LOOP;
END
$$;

CREATE FUNCTION staykit_internal.automations_payment_reminders_on_template_change() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org uuid := coalesce(NEW.organization_id, OLD.organization_id);
BEGIN
  -- Message templates change for other reasons too: only an organization that has (or had) reminders is scheduled.
  IF TG_TABLE_NAME = 'email_templates'
     OR EXISTS (SELECT 1 FROM api.email_templates AS e WHERE e.organization_id = org AND e.trigger = 'payment_due')
     OR EXISTS (SELECT 1 FROM staykit_internal.automation_jobs AS j
                WHERE j.organization_id = org AND j.trigger = 'payment_due' AND j.done_at IS NULL) THEN
    PERFORM staykit_internal.automation_reschedule_payment_reminders(org);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER automations_payment_reminder_template_created AFTER INSERT ON api.email_templates
  FOR EACH ROW WHEN (NEW.trigger = 'payment_due')
  EXECUTE FUNCTION staykit_internal.automations_payment_reminders_on_template_change();
CREATE TRIGGER automations_payment_reminder_template_changed
  AFTER UPDATE OF trigger, payment_due_offset, time, status, type, past_schedule_behavior ON api.email_templates
  FOR EACH ROW WHEN ((OLD.trigger = 'payment_due' OR NEW.trigger = 'payment_due')
                     AND (OLD.trigger, OLD.payment_due_offset, OLD.time, OLD.status, OLD.type, OLD.past_schedule_behavior)
                         IS DISTINCT FROM (NEW.trigger, NEW.payment_due_offset, NEW.time, NEW.status, NEW.type,
                                           NEW.past_schedule_behavior))
  EXECUTE FUNCTION staykit_internal.automations_payment_reminders_on_template_change();
CREATE TRIGGER automations_payment_reminder_message_template_changed
  AFTER INSERT OR UPDATE OF moment, active, email_template_id, channel ON api.message_templates
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.automations_payment_reminders_on_template_change();
CREATE TRIGGER automations_payment_reminder_message_template_linked
  AFTER INSERT OR DELETE ON api.product_message_templates
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.automations_payment_reminders_on_template_change();

REVOKE ALL ON FUNCTION staykit_internal.automation_schedule_payment_reminders(uuid, uuid, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automations_on_payment() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automations_payment_reminders_on_booking_event() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automation_reschedule_payment_reminders(uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automations_payment_reminders_on_template_change() FROM PUBLIC;
