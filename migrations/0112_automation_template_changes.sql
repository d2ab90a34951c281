-- Automations: scheduled e-mails follow their templates too (docs/automations.md#moments). Creating a template with a
-- moment schedules it for the organization's current bookings; changing a template's moment, time, status, type,
-- trigger or past_schedule_behavior — or which units a message template is linked to — moves, adds or removes the
-- pending sends. Only moments still ahead are scheduled this way: past_schedule_behavior = send applies to bookings
-- made or moved after the moment, never to a whole organization's past stays at once. Sent ones are never sent again.

-- The scheduling of migration 0110, with a choice about moments already past.
CREATE FUNCTION staykit_internal.automation_schedule_moments(event api.calendar_events, booking api.bookings,
                                                             send_past boolean)
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
    SELECT w.*, CASE WHEN w.at >= now() THEN w.at WHEN w.past_schedule_behavior = 'send' AND send_past THEN now() END AS run_at
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

CREATE OR REPLACE FUNCTION staykit_internal.automation_schedule_moments(event api.calendar_events, booking api.bookings)
RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT staykit_internal.automation_schedule_moments(event, booking, true)
$$;

-- Every booking of the organization whose stay has not ended more than 31 days ago, scheduled again.
CREATE FUNCTION staykit_internal.automation_reschedule_organization(organization uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  event api.calendar_events;
  booking api.bookings;
BEGIN
  FOR event IN
    SELECT ev.* FROM api.calendar_events AS ev
    WHERE ev.organization_id = organization AND ev.type = 'booking' AND ev.booking_id IS NOT NULL
      AND ev.end_date >= (now() AT TIME ZONE 'UTC')::date - 31
  LOOP
    SELECT * INTO booking FROM api.bookings AS b WHERE b.id = event.booking_id AND b.organization_id = organization;
    IF FOUND THEN
      PERFORM staykit_internal.automation_schedule_moments(event, booking, false);
    END IF;
  END LOOP;
END
$$;

CREATE FUNCTION staykit_internal.automations_on_template_change() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM staykit_internal.automation_reschedule_organization(coalesce(NEW.organization_id, OLD.organization_id));
  RETURN NULL;
END
$$;

-- Templates with a moment (before or after the change); unlinking or deleting is covered too (a deleted template's
-- jobs also go with it, by foreign key).
CREATE TRIGGER automations_email_template_created AFTER INSERT ON api.email_templates
  FOR EACH ROW WHEN (NEW.moment IS NOT NULL)
  EXECUTE FUNCTION staykit_internal.automations_on_template_change();
CREATE TRIGGER automations_email_template_changed
  AFTER UPDATE OF moment, time, status, type, trigger, past_schedule_behavior ON api.email_templates
  FOR EACH ROW WHEN ((OLD.moment IS NOT NULL OR NEW.moment IS NOT NULL)
                     AND (OLD.moment, OLD.time, OLD.status, OLD.type, OLD.trigger, OLD.past_schedule_behavior)
                         IS DISTINCT FROM (NEW.moment, NEW.time, NEW.status, NEW.type, NEW.trigger, NEW.past_schedule_behavior))
  EXECUTE FUNCTION staykit_internal.automations_on_template_change();
CREATE TRIGGER automations_message_template_changed
  AFTER INSERT OR UPDATE OF moment, active, email_template_id, channel ON api.message_templates
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.automations_on_template_change();
CREATE TRIGGER automations_message_template_linked AFTER INSERT OR DELETE ON api.product_message_templates
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.automations_on_template_change();

REVOKE ALL ON FUNCTION staykit_internal.automation_schedule_moments(api.calendar_events, api.bookings, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automation_reschedule_organization(uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.automations_on_template_change() FROM PUBLIC;
