-- A booking's payment schedule follows its stay (docs/payments.md#when-a-stay-changes): the payments still to pay
-- always add up to what the booking's total leaves after what was paid, whoever changes, cancels or pays.
--
-- - POST /v1/booking-change: change_booking re-splits in its own transaction. The paid payments stay as they are;
--   the new stay's schedule (the unit's payment moments applied to the new total, due dates from the new dates,
--   computed by the server as for /quote) is laid out again, what was paid covering its earliest moments first, and
--   what is left of each moment becomes an open payment: the open payments are updated in due order (a Checkout
--   session made for another amount is let go), the ones left over cancelled, missing ones inserted. Paid beyond
--   the new total: nothing stays open, and the change answers the difference as refund_due.
-- - Cancelling (whoever moves the booking's last live event to CANCELLED): the open payments are cancelled, so
--   nothing is offered to pay any more. A reinstated booking owes what its total leaves after what was paid again:
--   one pending payment due the day it is reinstated.
-- - A Checkout session paid for another amount than its payment's (made before a re-split), or for a payment no
--   longer open: Stripe's money is recorded as it was collected, as a paid payment of its own, and applied to the
--   open payments, earliest first (checkout_paid, called by the Stripe webhook).
-- - confirm_after_initial_payment compares what was paid with the schedule's first payment as last written
--   (payment_schedules.initial_payment), not with whatever amount a pending row holds after a re-split.
--
-- Failed and expired payments may now be cancelled too (they are still to pay until then).
--
-- Lock order: whatever re-splits, cancels or records a payment of a booking takes the booking's payments first
-- (lock_booking_payments), as a payment made paid does (its row, then the event it confirms, then the booking row):
-- a change and a payment at the same moment wait for each other instead of deadlocking.

CREATE OR REPLACE FUNCTION staykit_internal.money_status_moves(kind text) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE kind
    WHEN 'payment' THEN '{"pending": ["paid", "failed", "cancelled", "expired"], "failed": ["pending", "paid", "cancelled"],
                          "expired": ["pending", "paid", "cancelled"], "paid": [], "cancelled": []}'::jsonb
    WHEN 'refund' THEN '{"pending": ["refunded", "failed"], "failed": [], "refunded": []}'::jsonb
    WHEN 'invoice' THEN '{"draft": ["issued"], "issued": ["paid", "void"], "paid": ["void"], "void": []}'::jsonb
  END
$$;
COMMENT ON COLUMN api.payments.status IS
  'pending, paid, failed, cancelled or expired. Moves: pending → paid|failed|cancelled|expired; failed|expired → pending|paid|cancelled; paid and cancelled are final.';

-- The statuses of a payment still to pay (the Stripe checkout path and the re-split read the same list).
CREATE FUNCTION staykit_internal.open_payment_statuses() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$ SELECT '{pending,failed,expired}'::text[] $$;
COMMENT ON FUNCTION staykit_internal.open_payment_statuses() IS 'Payment statuses that are still to pay: pending, failed, expired.';

-- The lock order of a booking's money: its payments (in id order) before its booking row and events. A payment made
-- paid holds its row and then confirms the booking (event, then booking row), so whatever else re-splits, cancels
-- or records a payment of the booking takes the payments first too: they wait for each other, never in a circle.
CREATE FUNCTION staykit_internal.lock_booking_payments(org uuid, booking uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM 1 FROM api.payments AS p WHERE p.organization_id = org AND p.booking_id = booking ORDER BY p.id FOR UPDATE;
END
$$;

-- The booking's total: the sum of its fee lines, as a quote's total (deposits are not part of it).
CREATE FUNCTION staykit_internal.booking_total(org uuid, booking uuid) RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT coalesce(sum(l.amount), 0)::bigint FROM api.line_items AS l
  WHERE l.organization_id = org AND l.booking_id = booking AND l.fee_type = 'fee'
$$;

-- What the guest has paid for the booking: its paid payments, less their refunds (failed refunds do not count).
CREATE FUNCTION staykit_internal.booking_paid(org uuid, booking uuid) RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT coalesce((SELECT sum(p.amount) FROM api.payments AS p
                   WHERE p.organization_id = org AND p.booking_id = booking AND p.status = 'paid'), 0)::bigint
       - coalesce((SELECT sum(r.amount) FROM api.refunds AS r
                   JOIN api.payments AS p ON p.id = r.payment_id AND p.organization_id = r.organization_id
                   WHERE p.organization_id = org AND p.booking_id = booking AND r.status <> 'failed'), 0)::bigint
$$;

-- The first payment of a booking's schedule as the schedule was last written (by /book or a re-split): what
-- confirm_after_initial_payment waits for. Not derivable from the payments once paid money has been applied to them.
CREATE TABLE staykit_internal.payment_schedules (
  organization_id uuid NOT NULL,
  booking_id uuid NOT NULL,
  initial_payment integer CHECK (initial_payment > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, booking_id),
  CONSTRAINT payment_schedules_booking_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX payment_schedules_booking_idx ON staykit_internal.payment_schedules (booking_id);
COMMENT ON TABLE staykit_internal.payment_schedules IS
  'The first payment of each booking''s schedule as last written (null: nothing to pay), for confirm_after_initial_payment.';
REVOKE ALL ON staykit_internal.payment_schedules FROM PUBLIC;
REVOKE ALL ON staykit_internal.payment_schedules FROM staykit_api;

CREATE FUNCTION staykit_internal.record_initial_payment(org uuid, booking uuid, schedule jsonb) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  INSERT INTO staykit_internal.payment_schedules (organization_id, booking_id, initial_payment)
  VALUES (org, booking, (schedule -> 0 ->> 'amount')::integer)
  ON CONFLICT (organization_id, booking_id) DO UPDATE SET initial_payment = EXCLUDED.initial_payment, updated_at = now()
$$;

-- A new booking's schedule (migration 0191), now also recording its first payment.
CREATE OR REPLACE FUNCTION staykit_internal.write_payment_schedule(booking uuid, currency text, zone text, schedule jsonb)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
BEGIN
  INSERT INTO api.payments (booking_id, amount, currency, due_at, status, method)
  SELECT booking, s.amount, currency, s.due_date::timestamp AT TIME ZONE zone, 'pending', 'other'
  FROM jsonb_to_recordset(schedule) AS s(amount integer, due_date date);
  PERFORM staykit_internal.record_initial_payment(staykit_internal.current_organization_id(), booking, schedule);
END
$$;

-- Confirm after the initial payment (migration 0122): a tentative request booking of a product that says so is
-- confirmed once what was paid for it covers its schedule's first payment. Bookings without a recorded schedule
-- (payments written by hand) compare with their first scheduled payment, as before.
CREATE FUNCTION staykit_internal.confirm_if_initially_paid(org uuid, booking uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  required bigint;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM api.bookings AS b
    JOIN api.calendar_events AS e ON e.booking_id = b.id AND e.organization_id = b.organization_id
    JOIN api.products AS p ON p.id = e.product_id AND p.organization_id = e.organization_id
    WHERE b.id = booking AND b.organization_id = org AND b.method = 'request'
      AND p.confirm_after_initial_payment AND e.status = 'TENTATIVE') THEN
    RETURN;
  END IF;
  SELECT s.initial_payment INTO required FROM staykit_internal.payment_schedules AS s
  WHERE s.organization_id = org AND s.booking_id = booking;
  IF NOT FOUND THEN
    SELECT p.amount INTO required FROM api.payments AS p
    WHERE p.booking_id = booking AND p.organization_id = org AND p.due_at IS NOT NULL AND p.status <> 'cancelled'
    ORDER BY p.due_at, p.created_at, p.id LIMIT 1;
  END IF;
  IF staykit_internal.booking_paid(org, booking) >= coalesce(required, 1) THEN
    UPDATE api.calendar_events SET status = 'CONFIRMED'
    WHERE booking_id = booking AND organization_id = org AND status = 'TENTATIVE';
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION staykit_internal.payments_confirm_booking() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
BEGIN
  IF NEW.booking_id IS NOT NULL AND NEW.status = 'paid' AND (TG_OP = 'INSERT' OR OLD.status <> 'paid') THEN
    PERFORM staykit_internal.confirm_if_initially_paid(NEW.organization_id, NEW.booking_id);
  END IF;
  RETURN NULL;
END
$$;

-- The re-split of a changed stay. `schedule`: the new stay's whole schedule [{amount, due_date}] in due order,
-- adding up to the booking's total; `zone`: the unit's time zone. Returns {paid, to_pay, refund_due}.
CREATE FUNCTION staykit_internal.resplit_payment_schedule(org uuid, booking uuid, zone text, schedule jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  total constant bigint := staykit_internal.booking_total(org, booking);
  paid bigint;
  currency_code text;
  open_ids uuid[];
  covered bigint;
  entry record;
  rest integer;
  used integer := 0;
BEGIN
  IF (SELECT coalesce(sum((s ->> 'amount')::bigint), 0) FROM jsonb_array_elements(schedule) AS s) <> total THEN
    RAISE EXCEPTION 'The payment schedule does not add up to the total % of booking %', total, booking;
  END IF;
  SELECT b.currency INTO currency_code FROM api.bookings AS b WHERE b.id = booking AND b.organization_id = org;
  -- Locked, so a Stripe event paying one of them waits for the re-split and then sees its new amount.
  SELECT coalesce(array_agg(o.id ORDER BY o.due_at NULLS LAST, o.created_at, o.id), '{}') INTO open_ids
  FROM (SELECT p.id, p.due_at, p.created_at FROM api.payments AS p
        WHERE p.organization_id = org AND p.booking_id = booking
          AND p.status = ANY (staykit_internal.open_payment_statuses())
        FOR UPDATE) AS o;
  -- Read once they are locked: a payment made paid meanwhile has committed, and counts.
  paid := staykit_internal.booking_paid(org, booking);
  covered := greatest(paid, 0);
  FOR entry IN
    SELECT (x.s ->> 'amount')::integer AS amount, (x.s ->> 'due_date')::date AS due_date
    FROM jsonb_array_elements(schedule) WITH ORDINALITY AS x(s, n) ORDER BY x.n
  LOOP
    -- What was paid covers the schedule's earliest moments first.
    rest := entry.amount - least(entry.amount, covered);
    covered := covered - (entry.amount - rest);
    CONTINUE WHEN rest = 0;
    used := used + 1;
    IF used <= cardinality(open_ids) THEN
      -- A Checkout session made for another amount no longer pays this payment (checkout_paid records it apart).
      UPDATE api.payments AS p
      SET amount = rest, due_at = entry.due_date::timestamp AT TIME ZONE zone,
          status = CASE WHEN p.amount = rest THEN p.status ELSE 'pending' END,
          provider = CASE WHEN p.amount = rest THEN p.provider END,
          provider_reference = CASE WHEN p.amount = rest THEN p.provider_reference END
      WHERE p.organization_id = org AND p.id = open_ids[used];
    ELSE
      INSERT INTO api.payments (organization_id, booking_id, amount, currency, due_at, status, method)
      VALUES (org, booking, rest, currency_code, entry.due_date::timestamp AT TIME ZONE zone, 'pending', 'other');
    END IF;
  END LOOP;
  UPDATE api.payments SET status = 'cancelled'
  WHERE organization_id = org AND id = ANY (open_ids[used + 1:]);
  PERFORM staykit_internal.record_initial_payment(org, booking, schedule);
  -- A shorter stay may leave the first payment covered already.
  PERFORM staykit_internal.confirm_if_initially_paid(org, booking);
  RETURN jsonb_build_object('paid', paid, 'to_pay', greatest(total - paid, 0), 'refund_due', greatest(paid - total, 0));
END
$$;

-- Money received outside the schedule's payments (a Checkout session paid for another amount) is applied to the
-- booking's open payments, earliest due first: covered ones are cancelled, a partly covered one keeps the rest.
CREATE FUNCTION staykit_internal.apply_to_open_payments(org uuid, booking uuid, received bigint) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  left_over bigint := received;
  open_payment record;
BEGIN
  FOR open_payment IN
    SELECT p.id, p.amount FROM api.payments AS p
    WHERE p.organization_id = org AND p.booking_id = booking AND p.status = ANY (staykit_internal.open_payment_statuses())
    ORDER BY p.due_at NULLS LAST, p.created_at, p.id FOR UPDATE
  LOOP
    EXIT WHEN left_over <= 0;
    IF open_payment.amount <= left_over THEN
      UPDATE api.payments SET status = 'cancelled' WHERE organization_id = org AND id = open_payment.id;
    ELSE
      UPDATE api.payments SET amount = amount - left_over::integer, status = 'pending', provider = NULL, provider_reference = NULL
      WHERE organization_id = org AND id = open_payment.id;
    END IF;
    left_over := left_over - open_payment.amount;
  END LOOP;
END
$$;

-- Stripe reported a Checkout session paid (src/money/stripe-webhook.ts, on the server's connection). `collected`:
-- the session's amount_total (null: the payment's amount). The payment it was made for becomes paid when it is still
-- to pay and the amounts agree; otherwise the money is recorded as its own paid payment and applied to what is
-- still to pay. Returns the id of the paid payment (null when nothing changed).
CREATE FUNCTION staykit_internal.checkout_paid(org uuid, payment uuid, collected integer, session_id text,
                                               intent text, moment timestamptz) RETURNS uuid
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  target api.payments;
  received integer;
  recorded uuid;
BEGIN
  -- The booking's payments first, as change_booking takes them: a re-split and a payment never pass each other.
  PERFORM staykit_internal.lock_booking_payments(org, (SELECT p.booking_id FROM api.payments AS p
                                                       WHERE p.id = payment AND p.organization_id = org));
  SELECT * INTO target FROM api.payments AS p WHERE p.id = payment AND p.organization_id = org FOR UPDATE;
  IF NOT FOUND OR target.provider_reference IN (session_id, intent) AND target.status = 'paid' THEN
    RETURN NULL;
  END IF;
  received := coalesce(collected, target.amount);
  IF target.status = ANY (staykit_internal.open_payment_statuses()) AND received = target.amount THEN
    UPDATE api.payments SET status = 'paid', provider = 'stripe', provider_reference = coalesce(intent, session_id, provider_reference),
                            paid_at = moment
    WHERE id = target.id AND organization_id = org;
    RETURN target.id;
  END IF;
  IF target.provider_reference = session_id AND target.status = ANY (staykit_internal.open_payment_statuses()) THEN
    UPDATE api.payments SET provider = NULL, provider_reference = NULL WHERE id = target.id AND organization_id = org;
  END IF;
  INSERT INTO api.payments (organization_id, booking_id, amount, currency, status, method, provider, provider_reference, paid_at)
  VALUES (org, target.booking_id, received, target.currency, 'paid', 'card', 'stripe', coalesce(intent, session_id), moment)
  RETURNING id INTO recorded;
  IF target.booking_id IS NOT NULL THEN
    PERFORM staykit_internal.apply_to_open_payments(org, target.booking_id, received);
  END IF;
  RETURN recorded;
END
$$;

-- Cancelled: nothing is to pay any more. Reinstated: what the total leaves after what was paid is due again.
CREATE FUNCTION staykit_internal.booking_event_payments() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  owed bigint;
  zone text;
BEGIN
  IF EXISTS (SELECT 1 FROM api.calendar_events AS e
             WHERE e.organization_id = NEW.organization_id AND e.booking_id = NEW.booking_id AND e.type = 'booking'
               AND e.status <> 'CANCELLED' AND e.id <> NEW.id) THEN
    RETURN NULL; -- another live event: the booking neither ends nor starts again with this one
  END IF;
  IF NEW.status = 'CANCELLED' THEN
    UPDATE api.payments SET status = 'cancelled'
    WHERE organization_id = NEW.organization_id AND booking_id = NEW.booking_id
      AND status = ANY (staykit_internal.open_payment_statuses());
    RETURN NULL;
  END IF;
  -- Only for a booking whose money Staykit keeps (it has payments); the rest is due the day it is reinstated.
  IF NOT EXISTS (SELECT 1 FROM api.payments AS p WHERE p.organization_id = NEW.organization_id AND p.booking_id = NEW.booking_id) THEN
    RETURN NULL;
  END IF;
  owed := staykit_internal.booking_total(NEW.organization_id, NEW.booking_id)
        - staykit_internal.booking_paid(NEW.organization_id, NEW.booking_id)
        - (SELECT coalesce(sum(p.amount), 0) FROM api.payments AS p
           WHERE p.organization_id = NEW.organization_id AND p.booking_id = NEW.booking_id
             AND p.status = ANY (staykit_internal.open_payment_statuses()));
  IF owed > 0 THEN
    SELECT p.timezone INTO zone FROM api.products AS p WHERE p.id = NEW.product_id AND p.organization_id = NEW.organization_id;
    INSERT INTO api.payments (organization_id, booking_id, amount, due_at, status, method)
    VALUES (NEW.organization_id, NEW.booking_id, owed::integer,
            (now() AT TIME ZONE coalesce(zone, 'UTC'))::date::timestamp AT TIME ZONE coalesce(zone, 'UTC'), 'pending', 'other');
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER booking_payments AFTER UPDATE OF status ON api.calendar_events
  FOR EACH ROW WHEN (NEW.type = 'booking' AND NEW.booking_id IS NOT NULL
                     AND (OLD.status = 'CANCELLED') IS DISTINCT FROM (NEW.status = 'CANCELLED'))
  EXECUTE FUNCTION staykit_internal.booking_event_payments();

-- change_booking (migration 0104), now re-splitting the payments of a booking made by the booking flow: payload
-- also carries `payment_schedule` (the new stay's schedule) and `timezone` (the unit's). An imported reservation's
-- money is its channel's: it keeps no schedule here. The answer adds `payments` ({paid, to_pay, refund_due}).
CREATE OR REPLACE FUNCTION staykit_internal.change_booking(booking uuid, payload jsonb) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  old_booking api.bookings;
  new_booking api.bookings;
  event api.calendar_events;
  payments jsonb;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  PERFORM staykit_internal.lock_booking_payments(org, booking);
  SELECT * INTO old_booking FROM api.bookings WHERE id = booking AND organization_id = org FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'booking % not found', booking USING ERRCODE = 'SKB01';
  END IF;
  SELECT * INTO event FROM api.calendar_events
  WHERE organization_id = org AND booking_id = booking AND type = 'booking' AND status <> 'CANCELLED'
  ORDER BY start_date LIMIT 1 FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'booking % is cancelled: it cannot be changed', booking USING ERRCODE = 'SKB02';
  END IF;
  IF event.origin IS DISTINCT FROM 'import' AND jsonb_typeof(payload -> 'payment_schedule') IS DISTINCT FROM 'array' THEN
    RAISE EXCEPTION 'change_booking needs the new stay''s payment_schedule';
  END IF;

  PERFORM set_config('staykit.booking_move', 'on', true);
  UPDATE api.calendar_events
  SET product_id = (payload ->> 'product_id')::uuid, start_date = (payload ->> 'start_date')::date,
      end_date = (payload ->> 'end_date')::date, padding = (payload ->> 'padding')::smallint,
      generated_title = coalesce(payload ->> 'generated_title', generated_title)
  WHERE organization_id = org AND id = event.id;
  PERFORM set_config('staykit.booking_move', '', true);

  DELETE FROM api.line_items WHERE organization_id = org AND booking_id = booking;
  DELETE FROM api.booking_details WHERE organization_id = org AND booking_id = booking;
  DELETE FROM api.coupon_uses WHERE organization_id = org AND booking_id = booking;
  PERFORM staykit_internal.write_booking_lines(org, booking, payload);
  IF event.origin IS DISTINCT FROM 'import' THEN
    payments := staykit_internal.resplit_payment_schedule(org, booking, payload ->> 'timezone', payload -> 'payment_schedule');
  END IF;

  UPDATE api.bookings SET occupancy = payload -> 'occupancy'
  WHERE id = booking AND organization_id = org AND occupancy IS DISTINCT FROM payload -> 'occupancy';
  SELECT * INTO new_booking FROM api.bookings WHERE id = booking AND organization_id = org;
  -- The change as a log entry and a bookings.updated webhook with what changed (the row's own triggers also log
  -- and announce a changed occupancy).
  INSERT INTO api.booking_updates (organization_id, booking_id, user_id, changed_fields, changes)
  VALUES (org, booking, staykit_internal.acting_user_id(org),
          ARRAY(SELECT jsonb_object_keys(payload -> 'changes') ORDER BY 1),
          (payload -> 'changes') || jsonb_build_object('total', jsonb_build_object(
            'old', payload -> 'previous_total', 'new', payload -> 'total'), 'by', staykit_internal.current_actor()));
  PERFORM staykit_internal.emit_webhook_event(org, 'bookings.updated', jsonb_build_object(
    'new', staykit_internal.webhook_row_snapshot(to_jsonb(new_booking)),
    'old', staykit_internal.webhook_row_snapshot(to_jsonb(old_booking)),
    'change', payload -> 'changes'));
  RETURN jsonb_build_object('booking_id', booking, 'reference', new_booking.reference, 'event_id', event.id,
                            'payments', payments);
END
$$;

-- cancel_booking (migration 0102), now taking the booking's payments first (lock_booking_payments): cancelling
-- cancels what is to pay, and a payment made paid at the same moment waits for it, or it for the payment.
CREATE OR REPLACE FUNCTION staykit_internal.cancel_booking(booking uuid, reason text) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  result jsonb;
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'no organization for this request' USING ERRCODE = '42501';
  END IF;
  PERFORM staykit_internal.lock_booking_payments(org, booking);
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

COMMENT ON FUNCTION staykit_internal.resplit_payment_schedule(uuid, uuid, text, jsonb) IS
  'Re-splits a changed booking''s open payments over its new schedule, after what was paid; {paid, to_pay, refund_due}.';
COMMENT ON FUNCTION staykit_internal.checkout_paid(uuid, uuid, integer, text, text, timestamptz) IS
  'A paid Stripe Checkout session: its payment paid, or the money recorded as it was collected and applied to what is open.';
COMMENT ON FUNCTION staykit_internal.apply_to_open_payments(uuid, uuid, bigint) IS
  'Applies money received outside the schedule to the booking''s open payments, earliest due first.';

REVOKE ALL ON FUNCTION staykit_internal.lock_booking_payments(uuid, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.booking_total(uuid, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.booking_paid(uuid, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.record_initial_payment(uuid, uuid, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.confirm_if_initially_paid(uuid, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.resplit_payment_schedule(uuid, uuid, text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.apply_to_open_payments(uuid, uuid, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.checkout_paid(uuid, uuid, integer, text, text, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.booking_event_payments() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.open_payment_statuses() TO staykit_api;
