-- Online payments (docs/payments.md#stripe) and what a paid amount does to a booking.
--
-- - staykit_internal.payment_accounts: an organization's Stripe keys, encrypted by the server (AES-256-GCM with
--   STAYKIT_SECRET_KEY) before they reach the database, and out of the API role's reach altogether: no endpoint
--   ever returns them. success_url / cancel_url are where Stripe Checkout sends the guest back.
-- - staykit_internal.stripe_events: the ids of the Stripe events already applied, so a replayed event changes
--   nothing.
-- - A request booking whose product says confirm_after_initial_payment is confirmed as soon as its paid payments
--   reach its first scheduled payment (the one due first), whoever records the payment (Stripe's webhook, the API).

CREATE TABLE staykit_internal.payment_accounts (
  organization_id uuid PRIMARY KEY REFERENCES api.organizations (id) ON DELETE CASCADE,
  provider text NOT NULL DEFAULT 'stripe' CHECK (provider = 'stripe'),
  secret_key_encrypted text NOT NULL,
  webhook_secret_encrypted text NOT NULL,
  secret_key_hint text NOT NULL,
  success_url text NOT NULL CHECK (success_url ~ '^https?://'),
  cancel_url text NOT NULL CHECK (cancel_url ~ '^https?://'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE staykit_internal.payment_accounts IS
  'Organizations'' Stripe keys, encrypted with the server''s STAYKIT_SECRET_KEY; never readable through the API.';
COMMENT ON COLUMN staykit_internal.payment_accounts.secret_key_hint IS 'The last four characters of the secret key, to tell keys apart.';

CREATE TABLE staykit_internal.stripe_events (
  organization_id uuid NOT NULL REFERENCES api.organizations (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, event_id)
);
COMMENT ON TABLE staykit_internal.stripe_events IS 'Stripe events applied once each (idempotency on the event id).';

REVOKE ALL ON staykit_internal.payment_accounts FROM PUBLIC;
REVOKE ALL ON staykit_internal.stripe_events FROM PUBLIC;
REVOKE ALL ON staykit_internal.payment_accounts FROM staykit_api;
REVOKE ALL ON staykit_internal.stripe_events FROM staykit_api;

-- ---------------------------------------------------------------------------------------------------------------
-- Confirm after the initial payment.

CREATE FUNCTION staykit_internal.payments_confirm_booking() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  first_due integer;
  paid bigint;
BEGIN
  IF NEW.booking_id IS NULL OR NEW.status <> 'paid' OR (TG_OP = 'UPDATE' AND OLD.status = 'paid') THEN
    RETURN NULL;
  END IF;
  IF NOT EXISTS (
    SELECT 1 FROM api.bookings AS b
    JOIN api.calendar_events AS e ON e.booking_id = b.id AND e.organization_id = b.organization_id
    JOIN api.products AS p ON p.id = e.product_id AND p.organization_id = e.organization_id
    WHERE b.id = NEW.booking_id AND b.organization_id = NEW.organization_id AND b.method = 'request'
      AND p.confirm_after_initial_payment AND e.status = 'TENTATIVE') THEN
    RETURN NULL;
  END IF;
  SELECT p.amount INTO first_due FROM api.payments AS p
  WHERE p.booking_id = NEW.booking_id AND p.organization_id = NEW.organization_id AND p.due_at IS NOT NULL
    AND p.status <> 'cancelled'
  ORDER BY p.due_at, p.created_at, p.id LIMIT 1;
  SELECT coalesce(sum(p.amount), 0) INTO paid FROM api.payments AS p
  WHERE p.booking_id = NEW.booking_id AND p.organization_id = NEW.organization_id AND p.status = 'paid';
  IF paid >= coalesce(first_due, 1) THEN
    UPDATE api.calendar_events SET status = 'CONFIRMED'
    WHERE booking_id = NEW.booking_id AND organization_id = NEW.organization_id AND status = 'TENTATIVE';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER confirm_booking AFTER INSERT OR UPDATE OF status ON api.payments
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.payments_confirm_booking();
REVOKE ALL ON FUNCTION staykit_internal.payments_confirm_booking() FROM PUBLIC;
