-- Automations: the jobs of one booking run one at a time, in the order they became due (docs/automations.md).
-- Without this, a booking confirmed and then cancelled a moment later could have its two e-mails rendered and sent
-- by two workers at once, and the guest read "cancelled" before "confirmed".
--
-- booking_key is the booking a job belongs to: its own booking_id (template jobs), or its message's (deliveries,
-- including task notifications about a booking). The claim (src/automations/queries.ts) takes at most one due job
-- per booking, the earliest, and none while another job of that booking is leased.

ALTER TABLE staykit_internal.automation_jobs ADD COLUMN booking_key uuid;
COMMENT ON COLUMN staykit_internal.automation_jobs.booking_key IS
  'The booking whose jobs run one at a time, in run_at order (no foreign key: ordering only).';

UPDATE staykit_internal.automation_jobs AS j
SET booking_key = coalesce(j.booking_id, (SELECT m.booking_id FROM api.messages AS m
                                          WHERE m.id = j.message_id AND m.organization_id = j.organization_id));

CREATE FUNCTION staykit_internal.automation_jobs_booking_key() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  NEW.booking_key := coalesce(NEW.booking_key, NEW.booking_id,
                              (SELECT m.booking_id FROM api.messages AS m
                               WHERE m.id = NEW.message_id AND m.organization_id = NEW.organization_id));
  RETURN NEW;
END
$$;
CREATE TRIGGER automation_jobs_booking_key BEFORE INSERT ON staykit_internal.automation_jobs
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.automation_jobs_booking_key();

CREATE INDEX automation_jobs_leased_booking_idx ON staykit_internal.automation_jobs (booking_key)
  WHERE lease_token IS NOT NULL;

REVOKE ALL ON FUNCTION staykit_internal.automation_jobs_booking_key() FROM PUBLIC;
