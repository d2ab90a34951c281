-- What an invoice must carry in the EU (docs/payments.md#what-an-invoice-shows): who sells (the organization's legal
-- name, address, VAT and registration numbers), who buys (the contact's name or company, address, VAT number), when
-- it is due and how to pay.
--
-- The seller and the payment terms are organization settings, beside the invoice settings that exist already
-- (`settings.invoices.number_pattern`, `on_confirmation`):
--   settings.invoices.seller = {legal_name, address: {street, postal_code, city, region, country}, vat_id,
--                               registration_number, email, phone, website}   (every field optional text)
--   settings.invoices.payment_terms_days = 0 … 365 (default 14): an issued invoice without a due date is due then
--   settings.invoices.payment_instructions = text or MultiLanguageString (e.g. the bank account to pay to)
-- A CHECK holds those shapes, so a wrong setting is refused when written, never found at drawing time.

CREATE FUNCTION staykit_internal.is_invoice_settings(settings jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  invoices jsonb := settings -> 'invoices';
  seller jsonb;
BEGIN
  IF invoices IS NULL THEN
    RETURN true;
  END IF;
  IF jsonb_typeof(invoices) <> 'object' THEN
    RETURN false;
  END IF;
  seller := invoices -> 'seller';
  IF seller IS NOT NULL THEN
    IF jsonb_typeof(seller) <> 'object'
       OR EXISTS (SELECT 1 FROM jsonb_each(seller) AS f
                  WHERE f.key NOT IN ('legal_name', 'address', 'vat_id', 'registration_number', 'email', 'phone', 'website')
                     OR (f.key <> 'address' AND (jsonb_typeof(f.value) <> 'string' OR length(f.value #>> '{}') > 500))) THEN
      RETURN false;
    END IF;
    IF seller ? 'address' AND (jsonb_typeof(seller -> 'address') <> 'object'
       OR EXISTS (SELECT 1 FROM jsonb_each(seller -> 'address') AS a
                  WHERE a.key NOT IN ('street', 'postal_code', 'city', 'region', 'country')
                     OR jsonb_typeof(a.value) <> 'string' OR length(a.value #>> '{}') > 500)) THEN
      RETURN false;
    END IF;
  END IF;
  IF invoices ? 'payment_terms_days' AND NOT (staykit_internal.is_json_integer(invoices -> 'payment_terms_days', 0)
                                              AND (invoices ->> 'payment_terms_days')::numeric <= 365) THEN
    RETURN false;
  END IF;
  IF invoices ? 'payment_instructions' AND NOT (
       (jsonb_typeof(invoices -> 'payment_instructions') = 'string' AND length(invoices ->> 'payment_instructions') <= 2000)
       OR staykit_internal.is_multi_language_string(invoices -> 'payment_instructions')) THEN
    RETURN false;
  END IF;
  RETURN true;
END
$$;
COMMENT ON FUNCTION staykit_internal.is_invoice_settings(jsonb) IS
  'organizations.settings.invoices: seller {legal_name, address {street, postal_code, city, region, country}, vat_id, '
  'registration_number, email, phone, website} as text, payment_terms_days 0..365, payment_instructions text or MultiLanguageString.';

ALTER TABLE api.organizations
  ADD CONSTRAINT organizations_invoice_settings CHECK (staykit_internal.is_invoice_settings(settings));

-- A business guest's VAT identification number, printed on its invoices (reverse charge within the EU needs it).
ALTER TABLE api.contacts
  ADD COLUMN vat_id text CONSTRAINT contacts_vat_id_shape CHECK (vat_id ~ '^[A-Za-z0-9][A-Za-z0-9 .-]{1,31}$');
COMMENT ON COLUMN api.contacts.vat_id IS 'VAT identification number of a business guest (e.g. NL123456789B01), printed on its invoices.';
SELECT staykit_internal.grant_api_access('api.contacts', '{SELECT,INSERT,UPDATE,DELETE}');

-- An invoice issued without a due date is due `payment_terms_days` (14) days after its issue date. A separate
-- trigger from the issuing one (0121): the issue instant is the transaction's (now()) whichever runs first.
CREATE FUNCTION staykit_internal.invoice_due_date() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  terms integer;
BEGIN
  -- (An issue date out of range is left to its own CHECK to refuse.)
  IF NEW.status <> 'draft' AND NEW.due_at IS NULL AND NEW.credit_for_id IS NULL
     AND (TG_OP = 'INSERT' OR OLD.status = 'draft') AND isfinite(coalesce(NEW.issued_at, now())) THEN
    SELECT coalesce((o.settings -> 'invoices' ->> 'payment_terms_days')::integer, 14) INTO terms
    FROM api.organizations AS o WHERE o.id = NEW.organization_id;
    NEW.due_at := coalesce(NEW.issued_at, now()) + make_interval(days => coalesce(terms, 14));
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER invoice_due_date BEFORE INSERT OR UPDATE OF status ON api.invoices
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.invoice_due_date();
