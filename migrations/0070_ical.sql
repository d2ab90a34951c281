-- iCal export and import (issue 7): look-ups of a unit by its feed secret, and the claims that keep several sync
-- workers off one external calendar (FOR UPDATE SKIP LOCKED + a lease, like the webhook outbox).

-- GET /v1/ical/<secret>.ics finds the unit by either secret.
CREATE INDEX products_ical_export_secret_idx ON api.products (ical_export_secret);
CREATE INDEX products_ical_export_secret_no_details_idx ON api.products (ical_export_secret_no_details);

-- One row per external calendar that a worker has tried to sync. claimed_until is the lease of the worker that
-- holds it (NULL when nobody does); attempted_at is when the last attempt started, successful or not, so a
-- failing feed is retried after the sync interval, not in a tight loop; requested_seen is the calendar's
-- sync_requested_at at that attempt: a new value (PATCH sync_requested_at) makes the calendar due at once.
-- Internal: not exposed through /v1.
CREATE TABLE staykit_internal.ical_sync_claims (
  calendar_id uuid PRIMARY KEY REFERENCES api.external_calendars (id) ON DELETE CASCADE,
  claimed_until timestamptz,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  requested_seen timestamptz
);
COMMENT ON TABLE staykit_internal.ical_sync_claims IS
  'iCal sync leases: which worker holds an external calendar until when, and when its last attempt started.';

-- Deleting an external calendar would leave its imported events behind with calendar_id = NULL (ON DELETE SET
-- NULL), blocking dates forever with nothing left to refresh them. Its events that have not ended yet are
-- cancelled first (never deleted: history stays); past ones are left as they are.
CREATE FUNCTION staykit_internal.external_calendars_cancel_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE api.calendar_events SET status = 'CANCELLED'
   WHERE calendar_id = OLD.id AND organization_id = OLD.organization_id
     AND status <> 'CANCELLED' AND end_date > current_date;
  RETURN OLD;
END
$$;
COMMENT ON FUNCTION staykit_internal.external_calendars_cancel_events() IS
  'Before an external calendar is deleted, its imported events that have not ended are cancelled.';
CREATE TRIGGER cancel_imported_events BEFORE DELETE ON api.external_calendars
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.external_calendars_cancel_events();
