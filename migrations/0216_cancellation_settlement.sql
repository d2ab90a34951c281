-- Money after a cancellation (docs/payments.md#cancellations): what is still to pay was cancelled already (0210);
-- here what was paid is settled by the unit's cancellation policy, in the cancelling transaction, whoever cancels
-- (POST /v1/booking-cancel, a PATCH of the event's status):
--
-- - products.cancellation_policy: `[{"days_before_arrival": 30, "refund_percentage": 100},
--   {"days_before_arrival": 7, "refund_percentage": 50}]` — cancelled at least 30 days before arrival (in the unit's
--   calendar), the guest gets 100 % back; at least 7 days, 50 %; later, nothing. An empty policy (the default)
--   refunds everything paid: without a policy nothing entitles the organization to keep the guest's money.
-- - The organization keeps `total × (100 − refund %)`, at most what was paid; the rest of what was paid becomes
--   pending refunds of the paid payments, latest first (a Stripe payment's refund is sent to Stripe after the
--   response and by the background worker; a manual one is marked refunded by whoever pays it back).
-- - An issued (or paid) invoice of the booking gets a credit invoice, issued at once: its lines negated, plus the
--   cancellation fee kept as a line of its own, so the invoices then add up to what the guest finally pays.
-- - /v1/booking-cancel may say `refund: "policy" | "full" | "none"` (staykit.cancellation_refund); imported
--   reservations are left alone (the channel settles them).
-- - Reinstated (CANCELLED → TENTATIVE/CONFIRMED): the cancellation's refunds not yet made are withdrawn (failed,
--   saying so), so what was paid counts again; a refund already made stays made, and a credit invoice stays issued.

CREATE FUNCTION staykit_internal.is_cancellation_policy(value jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT jsonb_typeof(value) = 'array' AND jsonb_array_length(value) <= 10 AND NOT EXISTS (
    SELECT 1 FROM jsonb_array_elements(value) AS r
    WHERE jsonb_typeof(r) <> 'object'
       OR EXISTS (SELECT 1 FROM jsonb_object_keys(r) AS k WHERE k NOT IN ('days_before_arrival', 'refund_percentage'))
       OR NOT staykit_internal.is_json_integer(r -> 'days_before_arrival', 0)
       OR (r ->> 'days_before_arrival')::numeric > 3650
       OR NOT staykit_internal.is_json_integer(r -> 'refund_percentage', 0)
       OR (r ->> 'refund_percentage')::numeric > 100)
$$;
COMMENT ON FUNCTION staykit_internal.is_cancellation_policy(jsonb) IS
  'A cancellation policy: up to 10 {days_before_arrival: 0..3650, refund_percentage: 0..100} rules.';

ALTER TABLE api.products
  ADD COLUMN cancellation_policy jsonb NOT NULL DEFAULT '[]'
    CONSTRAINT products_cancellation_policy CHECK (staykit_internal.is_cancellation_policy(cancellation_policy));
COMMENT ON COLUMN api.products.cancellation_policy IS
  'Refund of what was paid by how many days before arrival a booking is cancelled: [{days_before_arrival, refund_percentage}]; '
  'empty: everything paid is refunded (docs/payments.md#cancellations).';
-- products' SELECT is granted per column (0205): the new column is granted on its own, never through grant_api_access.
GRANT SELECT (cancellation_policy), UPDATE (cancellation_policy) ON api.products TO staykit_api; -- products are created by create_product, never inserted by the API role

-- The percentage of what was paid a cancellation `days` before arrival refunds under `policy`.
CREATE FUNCTION staykit_internal.policy_refund_percentage(policy jsonb, days integer) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN policy IS NULL OR jsonb_array_length(policy) = 0 THEN 100
    ELSE coalesce((SELECT (r ->> 'refund_percentage')::integer FROM jsonb_array_elements(policy) AS r
                   WHERE days >= (r ->> 'days_before_arrival')::integer
                   ORDER BY (r ->> 'days_before_arrival')::integer DESC LIMIT 1), 0)
  END
$$;

-- What the last cancellation of each booking settled: shown by /v1/booking-cancel, the guest page and e-mails.
CREATE TABLE staykit_internal.cancellation_settlements (
  organization_id uuid NOT NULL,
  booking_id uuid NOT NULL,
  settled_at timestamptz NOT NULL DEFAULT now(),
  mode text NOT NULL CHECK (mode IN ('policy', 'full', 'none')),
  days_before_arrival integer NOT NULL,
  refund_percentage integer NOT NULL CHECK (refund_percentage BETWEEN 0 AND 100),
  paid bigint NOT NULL,
  fee bigint NOT NULL,
  refund bigint NOT NULL,
  credit_invoice_id uuid,
  refund_ids uuid[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (organization_id, booking_id)
);
COMMENT ON TABLE staykit_internal.cancellation_settlements IS
  'How the last cancellation of a booking settled its money: the refund percentage, the fee kept, the refund, the credit invoice.';

CREATE FUNCTION staykit_internal.settle_cancellation(org uuid, booking uuid, event api.calendar_events) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  mode text := coalesce(nullif(current_setting('staykit.cancellation_refund', true), ''), 'policy');
  unit api.products;
  days integer;
  percentage integer;
  paid bigint;
  fee bigint;
  refund bigint;
  left_to_refund bigint;
  payment record;
  part bigint;
  invoice api.invoices;
  credit uuid;
  refund_ids uuid[] := '{}';
  refund_id uuid;
BEGIN
  IF event.origin = 'import' THEN
    RETURN; -- a channel's reservation: the channel settles its money
  END IF;
  SELECT * INTO unit FROM api.products WHERE id = event.product_id AND organization_id = org;
  days := event.start_date - (now() AT TIME ZONE coalesce(unit.timezone, 'UTC'))::date;
  percentage := CASE mode WHEN 'full' THEN 100 WHEN 'none' THEN 0
                          ELSE staykit_internal.policy_refund_percentage(unit.cancellation_policy, days) END;
  paid := staykit_internal.booking_paid(org, booking);
  fee := least(paid, round(staykit_internal.booking_total(org, booking) * (100 - percentage) / 100.0)::bigint);
  refund := paid - fee;

  left_to_refund := refund;
  FOR payment IN
    SELECT p.id, p.amount - coalesce((SELECT sum(r.amount) FROM api.refunds AS r
                                      WHERE r.payment_id = p.id AND r.organization_id = p.organization_id
                                        AND r.status <> 'failed'), 0) AS refundable
    FROM api.payments AS p
    WHERE p.organization_id = org AND p.booking_id = booking AND p.status = 'paid'
    ORDER BY p.paid_at DESC NULLS LAST, p.created_at DESC
  LOOP
    EXIT WHEN left_to_refund <= 0;
    part := least(left_to_refund, payment.refundable);
    CONTINUE WHEN part <= 0;
    INSERT INTO api.refunds (organization_id, payment_id, amount, reason)
    VALUES (org, payment.id, part::integer, format('Cancellation: %s%% of what was paid refunded', percentage))
    RETURNING id INTO refund_id;
    refund_ids := refund_ids || refund_id;
    left_to_refund := left_to_refund - part;
  END LOOP;

  -- The invoices then add up to what the guest finally pays: each issued invoice credited, the fee invoiced once.
  FOR invoice IN
    SELECT i.* FROM api.invoices AS i
    WHERE i.organization_id = org AND i.booking_id = booking AND i.status IN ('issued', 'paid') AND i.credit_for_id IS NULL
      AND i.total > coalesce((SELECT -sum(c.total) FROM api.invoices AS c
                              WHERE c.organization_id = org AND c.credit_for_id = i.id AND c.status <> 'draft'), 0)
    ORDER BY i.issued_at, i.id
  LOOP
    CONTINUE WHEN fee >= invoice.total; -- nothing of it is given back
    INSERT INTO api.invoices (organization_id, booking_id, credit_for_id, notes)
    VALUES (org, booking, invoice.id, format('Cancellation of booking; corrects invoice %s', invoice.number))
    RETURNING id INTO credit;
    IF fee > 0 THEN
      INSERT INTO api.line_items (organization_id, booking_id, invoice_id, amount, name, item_type, fee_type, quantity)
      VALUES (org, booking, credit, fee::integer,
              jsonb_build_object('default', 'Cancellation fee', 'nl', 'Annuleringskosten', 'de', 'Stornogebühr'), 'fee', 'fee', 1);
      fee := 0;
    END IF;
    UPDATE api.invoices SET status = 'issued' WHERE id = credit AND organization_id = org;
  END LOOP;

  INSERT INTO staykit_internal.cancellation_settlements
    (organization_id, booking_id, mode, days_before_arrival, refund_percentage, paid, fee, refund, credit_invoice_id, refund_ids)
  VALUES (org, booking, mode, days, percentage, paid, paid - refund, refund, credit, refund_ids)
  ON CONFLICT (organization_id, booking_id) DO UPDATE
  SET settled_at = now(), mode = EXCLUDED.mode, days_before_arrival = EXCLUDED.days_before_arrival,
      refund_percentage = EXCLUDED.refund_percentage, paid = EXCLUDED.paid, fee = EXCLUDED.fee, refund = EXCLUDED.refund,
      credit_invoice_id = EXCLUDED.credit_invoice_id, refund_ids = EXCLUDED.refund_ids;
END
$$;
REVOKE ALL ON FUNCTION staykit_internal.settle_cancellation(uuid, uuid, api.calendar_events) FROM PUBLIC;

CREATE FUNCTION staykit_internal.booking_cancellation_settlement() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM api.calendar_events AS e
             WHERE e.organization_id = NEW.organization_id AND e.booking_id = NEW.booking_id AND e.type = 'booking'
               AND e.status <> 'CANCELLED' AND e.id <> NEW.id) THEN
    RETURN NULL; -- another live event: the booking is neither cancelled nor live again with this one
  END IF;
  IF NEW.status = 'CANCELLED' THEN
    PERFORM staykit_internal.settle_cancellation(NEW.organization_id, NEW.booking_id, NEW);
  ELSE
    -- Reinstated: refunds of the cancellation not yet made are withdrawn, so what was paid counts again (before the
    -- reinstatement's own payment trigger of 0210, booking_payments, which runs after this one by name).
    UPDATE api.refunds AS r SET status = 'failed', reason = r.reason || ' (withdrawn: the booking was reinstated)'
    FROM staykit_internal.cancellation_settlements AS s
    WHERE s.organization_id = NEW.organization_id AND s.booking_id = NEW.booking_id
      AND r.organization_id = s.organization_id AND r.id = ANY (s.refund_ids) AND r.status = 'pending';
  END IF;
  RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION staykit_internal.booking_cancellation_settlement() FROM PUBLIC;
CREATE TRIGGER booking_cancellation_settlement AFTER UPDATE OF status ON api.calendar_events
  FOR EACH ROW WHEN (NEW.type = 'booking' AND NEW.booking_id IS NOT NULL
                     AND (OLD.status = 'CANCELLED') IS DISTINCT FROM (NEW.status = 'CANCELLED'))
  EXECUTE FUNCTION staykit_internal.booking_cancellation_settlement();

-- cancel_booking with the refund mode: `policy` (the unit's), `full` or `none`; answers with the settlement.
CREATE FUNCTION staykit_internal.cancel_booking(booking uuid, reason text, refund text) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  org constant uuid := staykit_internal.current_organization_id();
  result jsonb;
BEGIN
  IF refund NOT IN ('policy', 'full', 'none') THEN
    RAISE EXCEPTION 'refund must be policy, full or none' USING ERRCODE = '22023';
  END IF;
  PERFORM set_config('staykit.cancellation_refund', refund, true);
  result := staykit_internal.cancel_booking(booking, reason);
  PERFORM set_config('staykit.cancellation_refund', '', true);
  RETURN result || coalesce((
    SELECT jsonb_build_object('settlement', jsonb_build_object(
             'refund_percentage', s.refund_percentage, 'days_before_arrival', s.days_before_arrival, 'paid', s.paid,
             'fee', s.fee, 'refund', s.refund, 'credit_invoice_id', s.credit_invoice_id))
    FROM staykit_internal.cancellation_settlements AS s
    WHERE s.organization_id = org AND s.booking_id = booking AND s.settled_at = now()), '{}');
END
$$;
REVOKE ALL ON FUNCTION staykit_internal.cancel_booking(uuid, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.cancel_booking(uuid, text, text) TO staykit_api;
