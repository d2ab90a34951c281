-- Invoices that cannot lie (docs/payments.md#invoices):
--
-- - numbers are the database's: given on the move into issued (a draft has none), from one counter per
--   organization and year (or one counter, when the pattern has no year), in the same transaction, so no number is
--   ever skipped or given twice: a rolled-back issue rolls its number back too, and a second issue waits for the
--   first's counter row. The pattern is the organization's setting `invoices.number_pattern` (default
--   `{YYYY}-{NNNN}`: `2027-0001`); the year is the issue date's in the organization's time zone;
-- - total is always the sum of the invoice's lines (fee lines; deposits are reported apart), kept by the database;
-- - an issued (or paid, or void) invoice and its lines never change again: only its status moves on
--   (issued → paid | void, paid → void); corrections are credit invoices (credit_for_id) whose lines are negative;
--   an invoice can be voided only when issued credit invoices cancel its whole total;
-- - with the organization's setting `invoices.on_confirmation` = `draft` or `issue`, a booking's confirmation
--   creates (and issues) its invoice from the booking's line items not invoiced yet, when the confirming
--   transaction commits (so lines written after the confirmation in the same transaction are on it).

ALTER TABLE api.invoices ALTER COLUMN number DROP NOT NULL;
ALTER TABLE api.invoices ADD COLUMN credit_for_id uuid;
ALTER TABLE api.invoices ADD CONSTRAINT invoices_credit_for_id_fkey FOREIGN KEY (credit_for_id, organization_id)
  REFERENCES api.invoices (id, organization_id) ON DELETE RESTRICT;
CREATE INDEX invoices_credit_for_id_idx ON api.invoices (credit_for_id);
COMMENT ON COLUMN api.invoices.number IS
  'Invoice number, given by the database when the invoice is issued (pattern: organization setting invoices.number_pattern); null while draft.';
COMMENT ON COLUMN api.invoices.total IS 'Sum of the invoice''s fee lines in minor units, kept by the database.';
COMMENT ON COLUMN api.invoices.status IS
  'draft, issued, paid or void. Moves: draft → issued; issued → paid|void; paid → void (only once credit invoices cancel the total).';
COMMENT ON COLUMN api.invoices.credit_for_id IS
  'For a credit invoice: the invoice it corrects (refers to invoices.id). Its lines are negative.';
COMMENT ON COLUMN api.invoices.issued_at IS 'When the invoice was issued: set by the database on the move into issued.';
COMMENT ON COLUMN api.invoices.paid_at IS 'When the invoice was paid: set by the database on the move into paid.';

CREATE TABLE staykit_internal.invoice_counters (
  organization_id uuid NOT NULL REFERENCES api.organizations (id) ON DELETE CASCADE,
  year integer NOT NULL,
  last_number integer NOT NULL CHECK (last_number > 0),
  PRIMARY KEY (organization_id, year)
);
COMMENT ON TABLE staykit_internal.invoice_counters IS
  'The last invoice number given per organization and year (year 0: patterns without a year).';

-- The organization's invoice number pattern: {YYYY} or {YY} the year, {N…} the counter padded to as many digits.
CREATE FUNCTION staykit_internal.invoice_number_pattern(organization uuid) RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  pattern text;
BEGIN
  SELECT o.settings -> 'invoices' ->> 'number_pattern' INTO pattern FROM api.organizations AS o WHERE o.id = organization;
  pattern := coalesce(pattern, '{YYYY}-{NNNN}');
  IF pattern !~ '\{N+\}' OR length(pattern) > 64 THEN
    RAISE EXCEPTION 'The invoice number pattern % has no counter', pattern
      USING ERRCODE = 'SK677',
            HINT = 'Set organizations.settings.invoices.number_pattern to up to 64 characters with {NNNN} (the counter) and optionally {YYYY} or {YY}.';
  END IF;
  RETURN pattern;
END
$$;

-- The next number of an organization for an invoice issued at `issued`: takes the counter row's lock until commit.
CREATE FUNCTION staykit_internal.next_invoice_number(organization uuid, issued timestamptz) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  pattern text := staykit_internal.invoice_number_pattern(organization);
  local_year integer;
  counter_year integer;
  counter integer;
  digits integer := length(substring(pattern FROM '\{(N+)\}'));
BEGIN
  SELECT extract(year FROM issued AT TIME ZONE o.timezone)::integer INTO local_year
  FROM api.organizations AS o WHERE o.id = organization;
  counter_year := CASE WHEN pattern ~ '\{YY(YY)?\}' THEN local_year ELSE 0 END;
  INSERT INTO staykit_internal.invoice_counters AS c (organization_id, year, last_number)
  VALUES (organization, counter_year, 1)
  ON CONFLICT (organization_id, year) DO UPDATE SET last_number = c.last_number + 1
  RETURNING c.last_number INTO counter;
  RETURN regexp_replace(
    replace(replace(pattern, '{YYYY}', lpad(local_year::text, 4, '0')), '{YY}', lpad((local_year % 100)::text, 2, '0')),
    '\{N+\}', lpad(counter::text, greatest(digits, length(counter::text)), '0'));
END
$$;

-- The sum of an invoice's fee lines.
CREATE FUNCTION staykit_internal.invoice_lines_total(invoice uuid, organization uuid) RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
  SELECT coalesce(sum(l.amount), 0)::integer FROM api.line_items AS l
  WHERE l.invoice_id = invoice AND l.organization_id = organization AND l.fee_type = 'fee'
$$;

CREATE FUNCTION staykit_internal.invoices_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  original api.invoices;
  booking_currency text;
  credited bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'draft' THEN
      RAISE EXCEPTION 'Invoice % is %: it cannot be deleted', OLD.number, OLD.status
        USING ERRCODE = 'SK667', HINT = 'Correct it with a credit invoice (credit_for_id), then void it.';
    END IF;
    RETURN OLD;
  END IF;

  IF TG_OP = 'UPDATE' THEN
    PERFORM staykit_internal.check_money_status_move('invoice', 'SK662', OLD.status, NEW.status);
    IF OLD.status <> 'draft'
       AND to_jsonb(NEW) - ARRAY['status', 'paid_at', 'updated_at'] <> to_jsonb(OLD) - ARRAY['status', 'paid_at', 'updated_at'] THEN
      RAISE EXCEPTION 'Invoice % is %: it cannot be changed', OLD.number, OLD.status
        USING ERRCODE = 'SK663', HINT = 'Correct it with a credit invoice (credit_for_id), then void it.';
    END IF;
  END IF;

  -- A credit invoice belongs with the invoice it corrects.
  IF NEW.credit_for_id IS NOT NULL THEN
    SELECT * INTO original FROM api.invoices AS i WHERE i.id = NEW.credit_for_id AND i.organization_id = NEW.organization_id;
    IF FOUND THEN
      IF original.credit_for_id IS NOT NULL OR original.status NOT IN ('issued', 'paid') THEN
        RAISE EXCEPTION 'Only an issued or paid invoice can be credited; invoice % is %', original.number,
            CASE WHEN original.credit_for_id IS NOT NULL THEN 'a credit invoice' ELSE original.status END
          USING ERRCODE = 'SK669';
      END IF;
      NEW.booking_id := coalesce(NEW.booking_id, original.booking_id);
      NEW.contact_id := coalesce(NEW.contact_id, original.contact_id);
      IF TG_OP = 'INSERT' THEN
        NEW.currency := original.currency;
      END IF;
      IF (NEW.booking_id, NEW.currency) IS DISTINCT FROM (original.booking_id, original.currency) THEN
        RAISE EXCEPTION 'A credit invoice has the booking and currency of the invoice it corrects' USING ERRCODE = 'SK669';
      END IF;
    END IF;
  END IF;

  IF NEW.booking_id IS NOT NULL AND NEW.status = 'draft' THEN
    SELECT b.currency INTO booking_currency FROM api.bookings AS b
    WHERE b.id = NEW.booking_id AND b.organization_id = NEW.organization_id;
    IF TG_OP = 'INSERT' AND NEW.credit_for_id IS NULL THEN
      NEW.currency := coalesce(booking_currency, NEW.currency);
    ELSIF booking_currency IS NOT NULL AND booking_currency <> NEW.currency THEN
      RAISE EXCEPTION 'The invoice''s currency % is not its booking''s currency %', NEW.currency, booking_currency
        USING ERRCODE = 'SK666';
    END IF;
  END IF;

  IF TG_OP = 'INSERT' OR OLD.status = 'draft' THEN
    NEW.total := CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE staykit_internal.invoice_lines_total(NEW.id, NEW.organization_id) END;
  END IF;

  IF NEW.status <> 'draft' AND (TG_OP = 'INSERT' OR OLD.status = 'draft') THEN
    -- Issuing.
    IF NEW.credit_for_id IS NOT NULL THEN
      SELECT coalesce(sum(c.total), 0) INTO credited FROM api.invoices AS c
      WHERE c.credit_for_id = NEW.credit_for_id AND c.organization_id = NEW.organization_id
        AND c.status <> 'draft' AND c.id <> NEW.id;
      IF NEW.total >= 0 OR -(credited + NEW.total) > original.total THEN
        RAISE EXCEPTION 'A credit invoice''s total (%) must be negative and, with the credits issued before (%), cancel at most the % of invoice %',
            NEW.total, credited, original.total, original.number
          USING ERRCODE = 'SK669';
      END IF;
    END IF;
    NEW.issued_at := coalesce(NEW.issued_at, now());
    NEW.number := coalesce(NEW.number, staykit_internal.next_invoice_number(NEW.organization_id, NEW.issued_at));
  END IF;
  NEW.issued_at := CASE WHEN NEW.status <> 'draft' THEN coalesce(NEW.issued_at, now()) END;
  NEW.paid_at := CASE NEW.status
    WHEN 'paid' THEN coalesce(NEW.paid_at, now())
    WHEN 'void' THEN NEW.paid_at
  END;

  IF NEW.status = 'void' AND (TG_OP = 'INSERT' OR OLD.status <> 'void') THEN
    SELECT coalesce(sum(c.total), 0) INTO credited FROM api.invoices AS c
    WHERE c.credit_for_id = NEW.id AND c.organization_id = NEW.organization_id AND c.status IN ('issued', 'paid');
    IF TG_OP = 'INSERT' OR credited + NEW.total <> 0 THEN
      RAISE EXCEPTION 'Invoice % can be voided only once issued credit invoices cancel its total of % (% so far)',
          NEW.number, NEW.total, -credited
        USING ERRCODE = 'SK668',
              HINT = 'POST /v1/invoices {"credit_for_id": "<this invoice>"} copies its lines negated; issue it, then void this one.';
    END IF;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER money_guard BEFORE INSERT OR UPDATE OR DELETE ON api.invoices
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.invoices_guard();

-- A new credit invoice starts as the full correction: the original's lines, negated (a draft: edit them for a
-- partial credit before issuing).
CREATE FUNCTION staykit_internal.invoices_copy_credited_lines() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  line api.line_items;
  copy_id uuid;
BEGIN
  IF NEW.credit_for_id IS NULL OR NEW.status <> 'draft' THEN
    RETURN NULL;
  END IF;
  FOR line IN SELECT * FROM api.line_items AS l
              WHERE l.invoice_id = NEW.credit_for_id AND l.organization_id = NEW.organization_id ORDER BY l.created_at, l.id LOOP
    INSERT INTO api.line_items (organization_id, booking_id, invoice_id, service_id, amount, fee_type, item_type, name, quantity)
    VALUES (line.organization_id, line.booking_id, NEW.id, line.service_id, -line.amount, line.fee_type, line.item_type,
            line.name, line.quantity)
    RETURNING id INTO copy_id;
    INSERT INTO api.line_item_taxes (organization_id, line_item_id, tax_id, name, percentage, inclusive, amount)
    SELECT t.organization_id, copy_id, t.tax_id, t.name, t.percentage, t.inclusive, -t.amount
    FROM api.line_item_taxes AS t WHERE t.line_item_id = line.id AND t.organization_id = line.organization_id;
  END LOOP;
  RETURN NULL;
END
$$;
CREATE TRIGGER copy_credited_lines AFTER INSERT ON api.invoices
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.invoices_copy_credited_lines();

-- ---------------------------------------------------------------------------------------------------------------
-- Lines: only a draft invoice's lines change; every change keeps the draft's total.

CREATE FUNCTION staykit_internal.invoice_is_settled(invoice uuid, organization uuid) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
  SELECT coalesce(i.number, i.id::text) FROM api.invoices AS i
  WHERE i.id = invoice AND i.organization_id = organization AND i.status <> 'draft'
$$;

CREATE FUNCTION staykit_internal.line_items_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  settled text;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    settled := staykit_internal.invoice_is_settled(OLD.invoice_id, OLD.organization_id);
  END IF;
  IF settled IS NULL AND TG_OP <> 'DELETE' THEN
    settled := staykit_internal.invoice_is_settled(NEW.invoice_id, NEW.organization_id);
  END IF;
  IF settled IS NOT NULL THEN
    RAISE EXCEPTION 'The lines of issued invoice % cannot change', settled
      USING ERRCODE = 'SK663', HINT = 'Correct it with a credit invoice (credit_for_id), then void it.';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER money_guard BEFORE INSERT OR UPDATE OR DELETE ON api.line_items
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.line_items_guard();

CREATE FUNCTION staykit_internal.line_items_keep_invoice_total() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
BEGIN
  -- The invoice guard recomputes a draft's total on any update of it.
  IF TG_OP <> 'INSERT' AND OLD.invoice_id IS NOT NULL THEN
    UPDATE api.invoices SET total = total WHERE id = OLD.invoice_id AND organization_id = OLD.organization_id AND status = 'draft';
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.invoice_id IS NOT NULL AND NEW.invoice_id IS DISTINCT FROM OLD.invoice_id THEN
    UPDATE api.invoices SET total = total WHERE id = NEW.invoice_id AND organization_id = NEW.organization_id AND status = 'draft';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER keep_invoice_total AFTER INSERT OR UPDATE OR DELETE ON api.line_items
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.line_items_keep_invoice_total();

CREATE FUNCTION staykit_internal.line_item_taxes_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  settled text;
  row_image api.line_item_taxes;
BEGIN
  IF TG_OP = 'DELETE' THEN row_image := OLD; ELSE row_image := NEW; END IF;
  SELECT staykit_internal.invoice_is_settled(l.invoice_id, l.organization_id) INTO settled
  FROM api.line_items AS l WHERE l.id = row_image.line_item_id AND l.organization_id = row_image.organization_id;
  IF settled IS NOT NULL THEN
    RAISE EXCEPTION 'The lines of issued invoice % cannot change', settled USING ERRCODE = 'SK663';
  END IF;
  RETURN row_image;
END
$$;
CREATE TRIGGER money_guard BEFORE INSERT OR UPDATE OR DELETE ON api.line_item_taxes
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.line_item_taxes_guard();

-- ---------------------------------------------------------------------------------------------------------------
-- The invoice of a confirmed booking (setting invoices.on_confirmation: draft or issue), at commit.

CREATE FUNCTION staykit_internal.bookings_invoice_on_confirmation() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
DECLARE
  mode text;
  invoice uuid;
BEGIN
  SELECT o.settings -> 'invoices' ->> 'on_confirmation' INTO mode FROM api.organizations AS o WHERE o.id = NEW.organization_id;
  IF mode IS NULL OR mode NOT IN ('draft', 'issue')
     OR NOT EXISTS (SELECT 1 FROM api.line_items AS l
                    WHERE l.booking_id = NEW.id AND l.organization_id = NEW.organization_id AND l.invoice_id IS NULL) THEN
    RETURN NULL;
  END IF;
  INSERT INTO api.invoices (organization_id, booking_id, contact_id, currency)
  VALUES (NEW.organization_id, NEW.id,
          (SELECT cb.contact_id FROM api.contact_bookings AS cb
           WHERE cb.booking_id = NEW.id AND cb.organization_id = NEW.organization_id ORDER BY cb.created_at LIMIT 1),
          NEW.currency)
  RETURNING id INTO invoice;
  UPDATE api.line_items SET invoice_id = invoice
  WHERE booking_id = NEW.id AND organization_id = NEW.organization_id AND invoice_id IS NULL;
  IF mode = 'issue' THEN
    UPDATE api.invoices SET status = 'issued' WHERE id = invoice AND organization_id = NEW.organization_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER invoice_on_confirmation AFTER UPDATE ON api.bookings
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.confirmed_at IS NULL AND NEW.confirmed_at IS NOT NULL)
  EXECUTE FUNCTION staykit_internal.bookings_invoice_on_confirmation();

-- ---------------------------------------------------------------------------------------------------------------
-- Privileges: number, total and the moments are the database's.

SELECT staykit_internal.grant_api_access('api.invoices', '{SELECT,INSERT,UPDATE,DELETE}',
                                         '{number,total,issued_at,paid_at}', '{number,total,issued_at,paid_at,credit_for_id}');
SELECT staykit_internal.grant_api_access('api.line_items', '{SELECT,INSERT,UPDATE,DELETE}');
REVOKE ALL ON staykit_internal.invoice_counters FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.invoices_guard() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.invoices_copy_credited_lines() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.line_items_guard() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.line_items_keep_invoice_total() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.line_item_taxes_guard() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.bookings_invoice_on_confirmation() FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.next_invoice_number(uuid, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.invoice_number_pattern(uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.invoice_lines_total(uuid, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.invoice_is_settled(uuid, uuid) FROM PUBLIC;
