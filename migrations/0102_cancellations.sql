-- Cancelling a booking (docs/booking.md#cancelling): whoever moves its calendar event to CANCELLED — POST
-- /v1/booking-cancel, a PATCH of the event's status, a channel's import — the database records on the booking who
-- cancelled and why, and releases its coupon uses, in the same transaction. Moving the event back (CANCELLED →
-- TENTATIVE/CONFIRMED, when the dates are still free) takes the uses again, if the coupons have uses left.
-- Scheduled work tied to the booking reacts to the same status move through its own triggers.

ALTER TABLE api.bookings
  ADD COLUMN cancelled_at timestamptz,
  ADD COLUMN cancelled_by text,
  ADD COLUMN cancellation_reason text CONSTRAINT bookings_cancellation_reason_length
    CHECK (cancellation_reason IS NULL OR length(cancellation_reason) <= 2000);
COMMENT ON COLUMN api.bookings.cancelled_at IS 'When the booking was cancelled; null while it is not. Set by the database.';
COMMENT ON COLUMN api.bookings.cancelled_by IS
  'Who cancelled: user:<id> (a dashboard user), api_key:<key_id>, channel:<name> (an imported reservation) or system. '
  'Set by the database.';
COMMENT ON COLUMN api.bookings.cancellation_reason IS 'Why the booking was cancelled, as given by whoever cancelled it.';

-- The reason is the client's to give (PATCH /bookings, or POST /booking-cancel); when and who are the server's.
SELECT staykit_internal.grant_api_access('api.bookings', '{SELECT,UPDATE,DELETE}', '{}',
  '{reference,confirmed_at,cancelled_at,cancelled_by}');

-- Coupon uses of cancelled bookings: out of api.coupon_uses (which the quota counts), kept to be taken again on a
-- reinstatement and as the record of what was released.
CREATE TABLE staykit_internal.released_coupon_uses (
  id uuid NOT NULL,
  organization_id uuid NOT NULL,
  coupon_id uuid NOT NULL,
  booking_id uuid NOT NULL,
  amount integer NOT NULL,
  created_at timestamptz NOT NULL,
  released_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  CONSTRAINT released_coupon_uses_booking_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT released_coupon_uses_coupon_fkey FOREIGN KEY (coupon_id, organization_id)
    REFERENCES api.coupons (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX released_coupon_uses_booking_idx ON staykit_internal.released_coupon_uses (booking_id);
CREATE INDEX released_coupon_uses_coupon_idx ON staykit_internal.released_coupon_uses (coupon_id);
COMMENT ON TABLE staykit_internal.released_coupon_uses IS
  'coupon_uses rows of cancelled bookings: no longer counted against the quota; taken back on reinstatement.';
ALTER TABLE staykit_internal.released_coupon_uses ENABLE ROW LEVEL SECURITY;
ALTER TABLE staykit_internal.released_coupon_uses FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON staykit_internal.released_coupon_uses FOR SELECT TO staykit_api
  USING (organization_id = (SELECT staykit_internal.current_organization_id()));
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_access ON staykit_internal.released_coupon_uses TO %I USING (true) WITH CHECK (true)',
                 current_user);
END
$$;
GRANT SELECT ON staykit_internal.released_coupon_uses TO staykit_api;

-- Who is acting: an explicit actor of the transaction (setting staykit.actor: the channel of an import), else the
-- dashboard user, else the API key, else the server itself.
CREATE FUNCTION staykit_internal.current_actor() RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('staykit.actor', true), ''),
                  'user:' || staykit_internal.current_user_id()::text,
                  'api_key:' || nullif(current_setting('staykit.key_id', true), ''),
                  'system')
$$;
COMMENT ON FUNCTION staykit_internal.current_actor() IS
  'Who acts in this transaction: staykit.actor, else user:<id>, else api_key:<key_id>, else system.';

CREATE FUNCTION staykit_internal.booking_event_cancellation() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  released record;
  coupon_quota integer;
  uses integer;
BEGIN
  IF NEW.status = 'CANCELLED' THEN
    -- A booking is cancelled when its last live booking event is.
    IF EXISTS (SELECT 1 FROM api.calendar_events AS e
               WHERE e.organization_id = NEW.organization_id AND e.booking_id = NEW.booking_id AND e.type = 'booking'
                 AND e.status <> 'CANCELLED') THEN
      RETURN NULL;
    END IF;
    UPDATE api.bookings AS b
    SET cancelled_at = now(), cancelled_by = staykit_internal.current_actor(),
        cancellation_reason = coalesce(nullif(current_setting('staykit.cancellation_reason', true), ''), b.cancellation_reason)
    WHERE b.id = NEW.booking_id AND b.organization_id = NEW.organization_id AND b.cancelled_at IS NULL;
    WITH gone AS (
      DELETE FROM api.coupon_uses AS u WHERE u.organization_id = NEW.organization_id AND u.booking_id = NEW.booking_id
      RETURNING u.*
    )
    INSERT INTO staykit_internal.released_coupon_uses (id, organization_id, coupon_id, booking_id, amount, created_at)
    SELECT id, organization_id, coupon_id, booking_id, amount, created_at FROM gone;
    RETURN NULL;
  END IF;

  -- Reinstated: the booking is live again and takes its coupon uses back, within each coupon's quota (the coupon
  -- row locked, as create_booking does, so concurrent bookings cannot overrun it).
  UPDATE api.bookings AS b SET cancelled_at = NULL, cancelled_by = NULL, cancellation_reason = NULL
  WHERE b.id = NEW.booking_id AND b.organization_id = NEW.organization_id AND b.cancelled_at IS NOT NULL;
  FOR released IN
    SELECT r.* FROM staykit_internal.released_coupon_uses AS r
    WHERE r.organization_id = NEW.organization_id AND r.booking_id = NEW.booking_id ORDER BY r.coupon_id
  LOOP
    SELECT c.quota INTO coupon_quota FROM api.coupons AS c
    WHERE c.id = released.coupon_id AND c.organization_id = released.organization_id FOR UPDATE;
    SELECT count(*) INTO uses FROM api.coupon_uses AS u
    WHERE u.coupon_id = released.coupon_id AND u.organization_id = released.organization_id;
    IF coupon_quota IS NOT NULL AND uses >= coupon_quota THEN
      RAISE EXCEPTION 'The booking cannot be reinstated: its coupon % has no uses left', released.coupon_id
        USING ERRCODE = 'SK645', HINT = 'Cancel another booking that uses the coupon, or raise its quota';
    END IF;
    INSERT INTO api.coupon_uses (id, organization_id, coupon_id, booking_id, amount, created_at)
    VALUES (released.id, released.organization_id, released.coupon_id, released.booking_id, released.amount,
            released.created_at);
    DELETE FROM staykit_internal.released_coupon_uses AS r
    WHERE r.organization_id = released.organization_id AND r.id = released.id;
  END LOOP;
  RETURN NULL;
END
$$;
CREATE TRIGGER booking_cancellation AFTER UPDATE OF status ON api.calendar_events
  FOR EACH ROW WHEN (NEW.type = 'booking' AND NEW.booking_id IS NOT NULL
                     AND (OLD.status = 'CANCELLED') IS DISTINCT FROM (NEW.status = 'CANCELLED'))
  EXECUTE FUNCTION staykit_internal.booking_event_cancellation();

-- POST /v1/booking-cancel: the reason and the status move in one call. Idempotent: a cancelled booking is
-- answered as it is. SKB01: no such booking in the organization.
CREATE FUNCTION staykit_internal.cancel_booking(booking uuid, reason text) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  result jsonb;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  PERFORM 1 FROM api.bookings WHERE id = booking AND organization_id = org FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'booking % not found', booking USING ERRCODE = 'SKB01';
  END IF;
  PERFORM set_config('staykit.cancellation_reason', coalesce(reason, ''), true);
  UPDATE api.calendar_events SET status = 'CANCELLED'
  WHERE organization_id = org AND booking_id = booking AND type = 'booking' AND status <> 'CANCELLED';
  PERFORM set_config('staykit.cancellation_reason', '', true);
  SELECT jsonb_build_object('booking_id', b.id, 'reference', b.reference, 'cancelled_at', b.cancelled_at,
           'cancelled_by', b.cancelled_by, 'cancellation_reason', b.cancellation_reason,
           'released_coupon_uses', (SELECT count(*) FROM staykit_internal.released_coupon_uses AS r
                                    WHERE r.organization_id = org AND r.booking_id = b.id))
  INTO result FROM api.bookings AS b WHERE b.id = booking AND b.organization_id = org;
  RETURN result;
END
$$;
COMMENT ON FUNCTION staykit_internal.cancel_booking(uuid, text) IS
  'POST /v1/booking-cancel: moves the booking''s events to CANCELLED with the given reason; SKB01 when unknown.';

REVOKE ALL ON FUNCTION staykit_internal.current_actor() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.current_actor() TO staykit_api;
REVOKE ALL ON FUNCTION staykit_internal.booking_event_cancellation() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.cancel_booking(uuid, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.cancel_booking(uuid, text) TO staykit_api;

-- Bookings cancelled before this migration: their coupon uses are released now.
INSERT INTO staykit_internal.released_coupon_uses (id, organization_id, coupon_id, booking_id, amount, created_at)
SELECT u.id, u.organization_id, u.coupon_id, u.booking_id, u.amount, u.created_at
FROM api.coupon_uses AS u
WHERE EXISTS (SELECT 1 FROM api.calendar_events AS e WHERE e.booking_id = u.booking_id AND e.organization_id = u.organization_id AND e.type = 'booking')
  AND NOT EXISTS (SELECT 1 FROM api.calendar_events AS e WHERE e.booking_id = u.booking_id AND e.organization_id = u.organization_id
                  AND e.type = 'booking' AND e.status <> 'CANCELLED');
DELETE FROM api.coupon_uses AS u
USING staykit_internal.released_coupon_uses AS r WHERE r.organization_id = u.organization_id AND r.id = u.id;
