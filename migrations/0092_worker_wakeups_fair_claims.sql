-- Background workers: fair webhook claims between tenants, and wake-ups across processes.
--
-- Fair claims (src/webhooks/queries.ts claimDue): a claim walks the webhooks that have queued work and takes at
-- most each one's free slots, counting the leases in flight per webhook and per organization. The first needs the
-- queue indexed by (webhook_id, run_at) — which also serves what the webhook_id index did (the park trigger, the
-- foreign key) — the second a small index of the leased rows only.
--
-- Wake-ups: a worker in another process (`staykit worker`, or the worker of another `staykit serve`) LISTENs and
-- claims as soon as work arrives instead of at its next poll. The NOTIFY is sent by triggers, so it is part of the
-- transaction that made the work: delivered when (and only if) it commits, never before the rows are visible.
-- Within one transaction PostgreSQL folds identical notifications into one, so a bulk write wakes each worker once.

CREATE INDEX webhook_queue_webhook_run_at_idx ON staykit_internal.webhook_queue (webhook_id, run_at);
DROP INDEX IF EXISTS staykit_internal.webhook_queue_webhook_id_idx;
CREATE INDEX webhook_queue_leased_idx ON staykit_internal.webhook_queue (organization_id, webhook_id)
  WHERE lease_token IS NOT NULL;

-- The channel names are also in src/webhooks/worker.ts (WEBHOOK_WAKE_CHANNEL) and src/ical/worker.ts (ICAL_WAKE_CHANNEL).
CREATE FUNCTION staykit_internal.notify_webhook_workers() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_notify('staykit_webhook_queue', '');
  RETURN NULL;
END
$$;

CREATE FUNCTION staykit_internal.notify_ical_workers() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_notify('staykit_ical_sync', '');
  RETURN NULL;
END
$$;

-- New notifications and redeliveries enter the queue by INSERT (webhook_notifications_enqueue,
-- requeue_webhook_notification); a statement-level trigger costs one call per statement, not per row.
CREATE TRIGGER webhook_queue_wake AFTER INSERT ON staykit_internal.webhook_queue
  FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.notify_webhook_workers();

-- A webhook enabled again un-parks its notifications (webhooks_park_queue). Claims and outcomes also move run_at,
-- but never from infinity: they do not wake anyone (a worker waking the others after every claim would be a storm).
CREATE TRIGGER webhook_queue_unparked AFTER UPDATE OF run_at ON staykit_internal.webhook_queue
  FOR EACH ROW WHEN (OLD.run_at = 'infinity' AND NEW.run_at <> 'infinity')
  EXECUTE FUNCTION staykit_internal.notify_webhook_workers();

-- An iCal import is due at once for a new active calendar, a calendar made active, or a new sync_requested_at.
CREATE TRIGGER external_calendars_wake_created AFTER INSERT ON api.external_calendars
  FOR EACH ROW WHEN (NEW.active)
  EXECUTE FUNCTION staykit_internal.notify_ical_workers();
CREATE TRIGGER external_calendars_wake_requested AFTER UPDATE OF active, sync_requested_at ON api.external_calendars
  FOR EACH ROW WHEN (NEW.active AND (NOT OLD.active OR NEW.sync_requested_at IS DISTINCT FROM OLD.sync_requested_at))
  EXECUTE FUNCTION staykit_internal.notify_ical_workers();

REVOKE ALL ON FUNCTION staykit_internal.notify_webhook_workers() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.notify_ical_workers() FROM PUBLIC;
