-- Pickup report (docs/reports.md#report_unit_pickup): per unit and month of stay, the nights of that month on the books
-- by the day they were booked, so a month's curve of nights on the books over booking dates can be drawn (the
-- dashboard's pickup chart) without reading a booking row.
--
-- Security as the report views of 0240: a view with its owner's rights that holds the tenant itself — it reads only
-- the units of the request's organization (`p.organization_id = current_organization_id()`), and every event and
-- booking it reads is matched to that unit's organization — and whose rows require may_read('reports'), so a key
-- holding only `reports:read` (every api relation named report_*, src/auth/scopes.ts) reads it and still no booking.
--
-- Dates. As in 0240, the months come from staykit_internal.report_months, so `month=eq…` or a range of months is an
-- index range there, and each unit's stays of that month are found through the calendar's own indexes.

CREATE VIEW api.report_unit_pickup AS
SELECT p.id AS product_id,
       m.month,
       s.booked_on,
       s.booked_nights,
       s.bookings
FROM api.products AS p
CROSS JOIN staykit_internal.report_months AS m
-- The unit's stays on the books (tentative or confirmed) that hold a night of the month, by the day their booking was
-- made in the unit's time zone: the nights of the month each day's bookings hold, and how many stays they are.
CROSS JOIN LATERAL (
  SELECT (b.created_at AT TIME ZONE p.timezone)::date AS booked_on,
         sum(least(c.end_date, m.next_month) - greatest(c.start_date, m.month))::integer AS booked_nights,
         count(*)::integer AS bookings
  FROM api.calendar_events AS c
  JOIN api.bookings AS b ON b.organization_id = c.organization_id AND b.id = c.booking_id
  WHERE c.organization_id = p.organization_id AND c.product_id = p.id
    AND c.type = 'booking' AND c.status <> 'CANCELLED'
    AND daterange(c.start_date, c.end_date, '[)') && daterange(m.month, m.next_month, '[)')
  GROUP BY 1
) AS s
WHERE p.organization_id = (SELECT staykit_internal.current_organization_id()) AND (SELECT staykit_internal.may_read('reports'));
COMMENT ON VIEW api.report_unit_pickup IS
  'Report (docs/reports.md): per unit, month of stay and booking day, the nights of the month that the stays on the books booked that day hold. Filter on month.';
COMMENT ON COLUMN api.report_unit_pickup.product_id IS 'The unit (refers to products.id).';
COMMENT ON COLUMN api.report_unit_pickup.month IS 'The month of stay''s first day.';
COMMENT ON COLUMN api.report_unit_pickup.booked_on IS 'The day the bookings were made, in the unit''s time zone.';
COMMENT ON COLUMN api.report_unit_pickup.booked_nights IS 'Nights of the month held by the tentative or confirmed stays booked that day.';
COMMENT ON COLUMN api.report_unit_pickup.bookings IS 'Stays booked that day that hold a night of the month (a stay over a month end counts in both months).';
GRANT SELECT ON api.report_unit_pickup TO staykit_api;
