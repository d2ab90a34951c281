-- Sane dates: every date column, and every timestamptz column a client can write, holds a value between
-- 1900-01-01 and 2199-12-31 — the dates the booking flow accepts. `infinity`, `-infinity`, 4713 BC or the year 275760
-- are valid PostgreSQL values but no stay, price or task is ever on them, and they break what reads the rows (an
-- event ending `infinity` made its unit's iCal export fail until it was removed; years above 9999 were exported
-- wrongly). A violation is a 23514 naming the constraint `<table>_<column>_in_range` (HTTP 400).
--
-- - date: 1900-01-01 … 2199-12-31, except calendar_events.end_date, which is exclusive (the first free date) and may
--   be 2200-01-01, so a daily stay on 2199-12-31 can be stored;
-- - date ranges (configuration and season intervals): every finite bound inside 1900-01-01 … 2200-01-01; an
--   unbounded side (`[2027-01-01,)`) stays allowed, it means "from then on";
-- - timestamptz: from 1900-01-01T00:00:00Z up to, not including, 2200-01-01T00:00:00Z.
--
-- Rows already in the field: each constraint is added NOT VALID (every new or changed row is checked from now on)
-- and then validated only when no existing row breaks it. When some do, the constraint stays NOT VALID, a WARNING
-- names the table and the number of rows, and the migration still succeeds: fix or delete those rows, then run
-- `ALTER TABLE api.<table> VALIDATE CONSTRAINT <name>` (docs/schema.md, "Dates"). An update of such a row must
-- bring the column into the range in the same statement.

DO $$
DECLARE
  c record;
  bad bigint;
BEGIN
  FOR c IN
    SELECT * FROM (VALUES
      ('calendar_events', 'start_date', $c$start_date >= '1900-01-01' AND start_date <= '2199-12-31'$c$),
      ('calendar_events', 'end_date', $c$end_date >= '1900-01-01' AND end_date <= '2200-01-01'$c$),
      ('price_calendar_entries', 'date', $c$date >= '1900-01-01' AND date <= '2199-12-31'$c$),
      ('pricelabs_pricing', 'date', $c$date >= '1900-01-01' AND date <= '2199-12-31'$c$),
      ('product_configurations', 'intervals',
       $c$(lower_inf(intervals) OR lower(intervals) >= '1900-01-01') AND (upper_inf(intervals) OR upper(intervals) <= '2200-01-01')$c$),
      ('seasons', 'intervals',
       $c$(lower_inf(intervals) OR lower(intervals) >= '1900-01-01') AND (upper_inf(intervals) OR upper(intervals) <= '2200-01-01')$c$)
    ) AS dates (table_name, column_name, expression)
    UNION ALL
    SELECT table_name, column_name,
           format($c$%1$I >= '1900-01-01 00:00:00+00' AND %1$I < '2200-01-01 00:00:00+00'$c$, column_name)
    FROM (VALUES
      ('calendar_event_tasks', 'completed_at'), ('calendar_event_tasks', 'due_at'),
      ('external_calendars', 'sync_requested_at'),
      ('invoices', 'due_at'), ('invoices', 'issued_at'), ('invoices', 'paid_at'),
      ('messages', 'scheduled_at'), ('messages', 'sent_at'),
      ('payments', 'due_at'), ('payments', 'paid_at'),
      ('pricelabs_pricing', 'synced_at'),
      ('products', 'deleted_at'),
      ('refunds', 'refunded_at'),
      ('reviews', 'responded_at'), ('reviews', 'reviewed_at'),
      ('tasks', 'completed_at'), ('tasks', 'due_at'),
      ('webhooks', 'disabled_at')
    ) AS stamps (table_name, column_name)
  LOOP
    EXECUTE format('ALTER TABLE api.%I ADD CONSTRAINT %I CHECK (%s) NOT VALID',
                   c.table_name, c.table_name || '_' || c.column_name || '_in_range', c.expression);
    EXECUTE format('SELECT count(*) FROM api.%I WHERE NOT (%s)', c.table_name, c.expression) INTO bad;
    IF bad = 0 THEN
      EXECUTE format('ALTER TABLE api.%I VALIDATE CONSTRAINT %I',
                     c.table_name, c.table_name || '_' || c.column_name || '_in_range');
    ELSE
      RAISE WARNING '% row(s) of api.% have % outside 1900-01-01 … 2199-12-31: constraint % is left NOT VALID',
        bad, c.table_name, c.column_name, c.table_name || '_' || c.column_name || '_in_range'
        USING HINT = 'Fix or delete those rows, then run ALTER TABLE api.' || c.table_name || ' VALIDATE CONSTRAINT '
                     || c.table_name || '_' || c.column_name || '_in_range';
    END IF;
  END LOOP;
END
$$;
