-- Money that cannot lie (docs/payments.md#guarantees): for every writer — the API, the booking flow, the Stripe
-- webhook, a script as the owner —
--
-- - payments, refunds and invoices move between their statuses only along the allowed moves, and the error names
--   them (as calendar events do, migration 0010);
-- - paid_at (payments), refunded_at (refunds) are set by the move into paid / refunded, and cleared in any other
--   status; the API role can no longer write them. Server-side writers (the Stripe webhook) may give the moment
--   the provider reports: an explicit value is kept on the move;
-- - a payment's currency is its booking's;
-- - a paid payment's amount, currency and booking no longer change, and paid payments and refunded refunds are
--   never deleted;
-- - only a paid payment can be refunded, and the refunds of a payment (all but the failed ones) never add up to more
--   than the payment, also when two refunds are written at the same moment: each refund locks its payment's row
--   first, so the second waits for the first to commit and then counts it.
--
-- Errors carry Staykit codes as their SQLSTATE (SK660…), which the API answers with the registry's status
-- (src/errors/database-error.ts): 409 for a refused move or change, 422 for a currency mismatch.

-- Allowed moves of each money status, as {from: [to, …]}; staying in the same status is always allowed.
CREATE FUNCTION staykit_internal.money_status_moves(kind text) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE kind
    WHEN 'payment' THEN '{"pending": ["paid", "failed", "cancelled", "expired"], "failed": ["pending", "paid"],
                          "expired": ["pending", "paid"], "paid": [], "cancelled": []}'::jsonb
    WHEN 'refund' THEN '{"pending": ["refunded", "failed"], "failed": [], "refunded": []}'::jsonb
    WHEN 'invoice' THEN '{"draft": ["issued"], "issued": ["paid", "void"], "paid": ["void"], "void": []}'::jsonb
  END
$$;

-- "pending to paid, failed, cancelled or expired; failed to pending or paid; paid: none", for error hints.
CREATE FUNCTION staykit_internal.describe_status_moves(kind text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT 'Allowed moves: ' || string_agg(
    CASE jsonb_array_length(m.value)
      WHEN 0 THEN m.key || ' is final'
      ELSE m.key || ' to ' || (
        SELECT CASE WHEN count(*) = 1 THEN min(t) ELSE
          string_agg(t, ', ' ORDER BY ord) FILTER (WHERE ord < count_all) || ' or ' || max(t) FILTER (WHERE ord = count_all) END
        FROM (SELECT t, ord, count(*) OVER () AS count_all FROM jsonb_array_elements_text(m.value) WITH ORDINALITY AS x(t, ord)) AS e)
    END, '; ' ORDER BY array_position(
      ARRAY['draft', 'pending', 'issued', 'paid', 'failed', 'expired', 'refunded', 'cancelled', 'void'], m.key)) || '.'
  FROM jsonb_each(staykit_internal.money_status_moves(kind)) AS m
$$;

-- Raises the refusal of a move, or returns when it is allowed.
CREATE FUNCTION staykit_internal.check_money_status_move(kind text, code text, from_status text, to_status text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF from_status = to_status
     OR staykit_internal.money_status_moves(kind) -> from_status ? to_status THEN
    RETURN;
  END IF;
  RAISE EXCEPTION '% status cannot move from % to %', initcap(kind), from_status, to_status
    USING ERRCODE = code, HINT = staykit_internal.describe_status_moves(kind);
END
$$;

-- The moment of a status: kept (or taken from the row when a server-side writer gave it) while the row is in that
-- status, now() on the move into it when nobody gave one, NULL in every other status.
CREATE FUNCTION staykit_internal.status_moment(in_status boolean, given timestamptz) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN in_status THEN coalesce(given, now()) END
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Payments.

CREATE FUNCTION staykit_internal.payments_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  booking_currency text;
  refunded bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status = 'paid' THEN
      RAISE EXCEPTION 'A paid payment cannot be deleted'
        USING ERRCODE = 'SK667', HINT = 'Record a refund instead.';
    END IF;
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    PERFORM staykit_internal.check_money_status_move('payment', 'SK660', OLD.status, NEW.status);
    IF OLD.status = 'paid' AND (NEW.amount, NEW.currency, NEW.booking_id) IS DISTINCT FROM (OLD.amount, OLD.currency, OLD.booking_id) THEN
      RAISE EXCEPTION 'The amount, currency and booking of a paid payment cannot change'
        USING ERRCODE = 'SK663', HINT = 'Record a refund, or a new payment, instead.';
    END IF;
    SELECT coalesce(sum(r.amount), 0) INTO refunded FROM api.refunds AS r
    WHERE r.payment_id = NEW.id AND r.organization_id = NEW.organization_id AND r.status <> 'failed';
    IF refunded > NEW.amount THEN
      RAISE EXCEPTION 'The payment''s refunds (%) would exceed its amount (%)', refunded, NEW.amount
        USING ERRCODE = 'SK664';
    END IF;
  END IF;
  IF NEW.booking_id IS NOT NULL THEN
    SELECT b.currency INTO booking_currency FROM api.bookings AS b
    WHERE b.id = NEW.booking_id AND b.organization_id = NEW.organization_id;
    IF booking_currency IS NOT NULL AND booking_currency <> NEW.currency THEN
      RAISE EXCEPTION 'The payment''s currency % is not its booking''s currency %', NEW.currency, booking_currency
        USING ERRCODE = 'SK666', HINT = format('Send "currency": "%s".', booking_currency);
    END IF;
  END IF;
  NEW.paid_at := staykit_internal.status_moment(NEW.status = 'paid', NEW.paid_at);
  RETURN NEW;
END
$$;
CREATE TRIGGER money_guard BEFORE INSERT OR UPDATE OR DELETE ON api.payments
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.payments_guard();

-- ---------------------------------------------------------------------------------------------------------------
-- Refunds.

CREATE FUNCTION staykit_internal.refunds_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  payment api.payments;
  others bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status = 'refunded' THEN
      RAISE EXCEPTION 'A refunded refund cannot be deleted' USING ERRCODE = 'SK667';
    END IF;
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    PERFORM staykit_internal.check_money_status_move('refund', 'SK661', OLD.status, NEW.status);
    IF OLD.status <> 'pending' AND (NEW.amount, NEW.payment_id) IS DISTINCT FROM (OLD.amount, OLD.payment_id) THEN
      RAISE EXCEPTION 'The amount and payment of a % refund cannot change', OLD.status USING ERRCODE = 'SK663';
    END IF;
  END IF;
  NEW.refunded_at := staykit_internal.status_moment(NEW.status = 'refunded', NEW.refunded_at);
  IF NEW.status = 'failed' THEN
    RETURN NEW;
  END IF;
  -- The payment's row lock serializes every refund of one payment: whoever comes second counts the first.
  SELECT * INTO payment FROM api.payments AS p
  WHERE p.id = NEW.payment_id AND p.organization_id = NEW.organization_id
  FOR UPDATE;
  IF NOT FOUND THEN
    RETURN NEW; -- the foreign key reports it
  END IF;
  IF payment.status <> 'paid' THEN
    RAISE EXCEPTION 'Only a paid payment can be refunded; this one is %', payment.status
      USING ERRCODE = 'SK665';
  END IF;
  SELECT coalesce(sum(r.amount), 0) INTO others FROM api.refunds AS r
  WHERE r.payment_id = NEW.payment_id AND r.organization_id = NEW.organization_id AND r.status <> 'failed'
    AND r.id <> NEW.id;
  IF others + NEW.amount > payment.amount THEN
    RAISE EXCEPTION 'Refunds of % would exceed the payment of % % (% refunded already)',
        others + NEW.amount, payment.amount, payment.currency, others
      USING ERRCODE = 'SK664', HINT = format('At most %s can still be refunded.', payment.amount - others);
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER money_guard BEFORE INSERT OR UPDATE OR DELETE ON api.refunds
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.refunds_guard();

-- The moments are the database's: the API role may no longer write them.
SELECT staykit_internal.grant_api_access('api.payments', '{SELECT,INSERT,UPDATE,DELETE}', '{paid_at}', '{paid_at}');
SELECT staykit_internal.grant_api_access('api.refunds', '{SELECT,INSERT,UPDATE,DELETE}', '{refunded_at}', '{refunded_at}');

REVOKE ALL ON FUNCTION staykit_internal.payments_guard() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.refunds_guard() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.money_status_moves(text) TO staykit_api;
GRANT EXECUTE ON FUNCTION staykit_internal.describe_status_moves(text) TO staykit_api;
GRANT EXECUTE ON FUNCTION staykit_internal.check_money_status_move(text, text, text, text) TO staykit_api;
GRANT EXECUTE ON FUNCTION staykit_internal.status_moment(boolean, timestamptz) TO staykit_api;

COMMENT ON COLUMN api.payments.paid_at IS 'When the payment became paid: set by the database on the move into paid.';
COMMENT ON COLUMN api.payments.status IS
  'pending, paid, failed, cancelled or expired. Moves: pending → paid|failed|cancelled|expired; failed|expired → pending|paid; paid and cancelled are final.';
COMMENT ON COLUMN api.payments.currency IS 'Currency of the amount: always the booking''s currency.';
COMMENT ON COLUMN api.refunds.refunded_at IS 'When the refund was made: set by the database on the move into refunded.';
COMMENT ON COLUMN api.refunds.status IS
  'pending, refunded or failed. Moves: pending → refunded|failed. The refunds of a payment never exceed it.';
