-- Scheduled e-mails go out when people read mail (docs/automations.md#moments): a moment counted from when a booking
-- was made or confirmed (`request`, `confirmation`) with an offset of whole days and no `time` used to fall at the
-- clock time of that moment — a booking made at 02:30 got its "three days later" e-mail at 02:30. Such a moment that
-- falls between 21:00 and 08:00 in the unit's time zone now goes out at 09:00 that morning (the next one after 21:00).
-- An offset of 0 (right after the booking or confirmation) and every moment with a `time` are sent as before.
CREATE OR REPLACE FUNCTION staykit_internal.automation_moment_at(moment jsonb, send_time time without time zone, start_date date, end_date date, confirmed_at timestamp with time zone, requested_at timestamp with time zone, time_zone text)
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE
AS $function$
  SELECT CASE
    WHEN moment ->> 'type' IN ('check-in', 'checkout', 'on-site') THEN
      ((CASE moment ->> 'type' WHEN 'checkout' THEN end_date WHEN 'on-site' THEN start_date + 1 ELSE start_date END)
        + (moment ->> 'offset')::integer + coalesce(send_time, time '09:00')) AT TIME ZONE time_zone
    ELSE (
      SELECT CASE
        WHEN base IS NULL THEN NULL
        WHEN send_time IS NULL AND (moment ->> 'offset')::integer = 0 THEN base
        WHEN send_time IS NULL THEN (
          SELECT CASE
            WHEN local::time >= time '21:00' THEN ((local::date + 1) + time '09:00') AT TIME ZONE time_zone
            WHEN local::time < time '08:00' THEN (local::date + time '09:00') AT TIME ZONE time_zone
            ELSE at
          END
          FROM (SELECT base + make_interval(days => (moment ->> 'offset')::integer) AS at) AS due,
               LATERAL (SELECT due.at AT TIME ZONE time_zone AS local) AS here)
        ELSE (((base AT TIME ZONE time_zone)::date + (moment ->> 'offset')::integer) + send_time) AT TIME ZONE time_zone
      END
      FROM (SELECT CASE moment ->> 'type' WHEN 'confirmation' THEN confirmed_at ELSE requested_at END AS base) AS b)
  END
$function$;
