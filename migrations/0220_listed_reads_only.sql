-- A transaction that names the tables it reads (the booking flow, the widget's catalogue, the invoice document …:
-- `readable` in src/transaction/tenant-transaction.ts) sets staykit.listed_reads_only. Under 0090's policies a read of
-- a table outside the list sees no rows — right for a key without that scope, silently wrong for a flow whose list
-- forgot a table it needs. Where staykit.unlisted_reads is 'error' (the test databases set it: docs/testing.md),
-- such a read raises instead, so an omission fails the tests loudly. Elsewhere nothing changes.

CREATE FUNCTION staykit_internal.unlisted_read(resource text) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  IF current_setting('staykit.listed_reads_only', true) = 'on' AND current_setting('staykit.unlisted_reads', true) = 'error' THEN
    RAISE EXCEPTION 'This transaction read api.%, which is not in its list of readable tables', resource
      USING HINT = 'Add the table to the list the transaction is given (readable), or do not read it.';
  END IF;
  RETURN false;
END
$$;
COMMENT ON FUNCTION staykit_internal.unlisted_read(text) IS
  'A read of a table outside a listed transaction''s readable tables: false, or an error where staykit.unlisted_reads = ''error'' (tests).';
GRANT EXECUTE ON FUNCTION staykit_internal.unlisted_read(text) TO staykit_api;

CREATE OR REPLACE FUNCTION staykit_internal.may_read(resource text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE coalesce(current_setting('staykit.readable_tables', true), '')
    WHEN '' THEN true
    WHEN '*' THEN true
    ELSE CASE WHEN resource = ANY (current_setting('staykit.readable_tables', true)::text[]) THEN true
              ELSE staykit_internal.unlisted_read(resource) END
  END
$$;
