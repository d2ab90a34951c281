-- A payment's currency is its booking's (docs/payments.md#guarantees), so a client need not send it: a payment
-- written without a currency takes its booking's (EUR, as before, when it has no booking). A currency that is sent
-- is kept, and the guard of migration 0120 still refuses one that is not the booking's (422 SK666).
--
-- The trigger must see whether a currency was sent, so the column's constant default ('EUR') goes. Its new default
-- is a function that gives NULL: the column stays optional in the API's description (NOT NULL with a default), and
-- NOT NULL is checked only after the BEFORE triggers filled the value in.

CREATE FUNCTION staykit_internal.filled_in_by_trigger() RETURNS text
LANGUAGE sql STABLE AS $$ SELECT NULL::text $$;
COMMENT ON FUNCTION staykit_internal.filled_in_by_trigger() IS
  'Default of columns that a BEFORE INSERT trigger fills in when the writer left them out: NULL, so the trigger can tell.';
GRANT EXECUTE ON FUNCTION staykit_internal.filled_in_by_trigger() TO staykit_api;

ALTER TABLE api.payments ALTER COLUMN currency SET DEFAULT staykit_internal.filled_in_by_trigger();

CREATE FUNCTION staykit_internal.payment_currency_from_booking() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
BEGIN
  IF NEW.currency IS NULL THEN
    SELECT b.currency INTO NEW.currency FROM api.bookings AS b
    WHERE b.id = NEW.booking_id AND b.organization_id = NEW.organization_id;
    NEW.currency := coalesce(NEW.currency, 'EUR');
  END IF;
  RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION staykit_internal.payment_currency_from_booking() FROM PUBLIC;

-- Triggers of one event fire in name order: this one ("currency_…") before the money guard ("money_guard") that
-- compares the currency with the booking's.
CREATE TRIGGER currency_from_booking BEFORE INSERT ON api.payments
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.payment_currency_from_booking();

COMMENT ON COLUMN api.payments.currency IS
  'Currency of the amount: always the booking''s currency; filled in from the booking when left out.';
