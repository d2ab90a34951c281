-- The date money moved, as a manager records it (docs/payments.md#manual-payments): a bank transfer seen on the
-- statement today may have arrived three days ago. Clients may now give `paid_at` (payments) and `refunded_at`
-- (refunds) on create and update; the database still decides what is stored (0120's status_moment, which both
-- guards call):
--
-- - in the status (paid / refunded): the moment given, or now() when none was given, as before;
-- - in any other status: NULL, whatever was given, as before;
-- - a moment in the future is refused (SK679, 422), whoever writes it — the API, the Stripe webhook (the event's
--   moment), a script. Five minutes ahead are allowed: the clock of the writer (a browser, Stripe) and the
--   database's differ by a little.

CREATE OR REPLACE FUNCTION staykit_internal.status_moment(in_status boolean, given timestamptz) RETURNS timestamptz
LANGUAGE plpgsql STABLE AS $$
DECLARE
  clock_skew constant interval := interval '5 minutes';
BEGIN
  IF NOT in_status THEN
    RETURN NULL;
  END IF;
  IF given > now() + clock_skew THEN
    RAISE EXCEPTION 'The moment given, %, is in the future',
      to_char(given AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
      USING ERRCODE = 'SK679',
            HINT = format('paid_at and refunded_at say when the money moved: at most %s after now (%s); '
                          'leave it out for now', clock_skew, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'));
  END IF;
  RETURN coalesce(given, now());
END
$$;

-- The grants follow the rules (0221): without these two exceptions both columns are insertable and updatable.
DELETE FROM staykit_internal.api_access
WHERE (table_name, column_name) IN (('payments', 'paid_at'), ('refunds', 'refunded_at'));
