-- Report views (docs/reports.md): occupancy, revenue and booking figures per unit and day (api.report_unit_days) and
-- per unit and month (api.report_unit_months), computed by PostgreSQL from the calendar, the bookings and their line
-- items whenever they are read, and served under /v1 like every resource (filters, select, aggregates, CSV).
--
-- Security. The two api views run with their owner's rights (not security_invoker) and hold the tenant themselves:
-- each reads only the units of the request's organization (`p.organization_id = current_organization_id()`), and
-- everything else it reads is correlated to that unit's organization, so another organization's rows are never in a
-- report. So the request's role needs no read access to the tables behind a report: a key holding only
-- `reports:read` (src/auth/scopes.ts maps every api relation named report_* to it) reads the figures and still no
-- booking, in the database as at the HTTP layer. Each view's rows also require may_read('reports').
--
-- Dates. A filter may ask for any day or month the calendar can hold (events live between 1900 and 2199): the views
-- are built on two small calendar tables, so `day=gte…&day=lt…` or `month=eq…` becomes an index range on them and
-- the units' events of that range only are read — never a precomputed horizon (availability_days covers one).

-- The days and the months a report can cover: a filter on day or month is an index range here.
CREATE TABLE staykit_internal.report_days (
  day date PRIMARY KEY
);
INSERT INTO staykit_internal.report_days (day)
SELECT d::date FROM generate_series('1900-01-01'::date, '2199-12-31'::date, interval '1 day') AS d;
COMMENT ON TABLE staykit_internal.report_days IS
  'Every day from 1900 to 2199 (the range of calendar_events): the rows of api.report_unit_days per unit (0240).';

CREATE TABLE staykit_internal.report_months (
  month date PRIMARY KEY CONSTRAINT report_months_first_day CHECK (extract(day FROM month) = 1),
  next_month date NOT NULL,
  days integer NOT NULL
);
INSERT INTO staykit_internal.report_months (month, next_month, days)
SELECT m::date, (m + interval '1 month')::date, (m + interval '1 month')::date - m::date
FROM generate_series('1900-01-01'::date, '2199-12-01'::date, interval '1 month') AS m;
COMMENT ON TABLE staykit_internal.report_months IS
  'Every month from 1900 to 2199, its first day, the next month''s first day and its length: the rows of api.report_unit_months per unit (0240).';
GRANT SELECT ON staykit_internal.report_days, staykit_internal.report_months TO staykit_api;

-- A booking's share of `amount` for its nights from_night (inclusive) to to_night (exclusive), numbered from 0 of
-- `nights`: amount * to / nights - amount * from / nights. The shares of consecutive ranges telescope, so the nights
-- of a stay (or its months) add up to the amount exactly, in whole minor units, however it is split.
CREATE FUNCTION staykit_internal.report_share(amount bigint, from_night integer, to_night integer, nights integer)
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN to_night > from_night AND nights > 0
              THEN amount * to_night / nights - amount * from_night / nights ELSE 0 END
$$;
COMMENT ON FUNCTION staykit_internal.report_share(bigint, integer, integer, integer) IS
  'Reports (0240): the share of a stay''s amount for nights [from_night, to_night) of `nights`, exact over a split.';
GRANT EXECUTE ON FUNCTION staykit_internal.report_share(bigint, integer, integer, integer) TO staykit_api;

-- The rate from a booking's currency to its unit's: 1 when they are the same, else the organization's exchange rate
-- (settings.exchange_rates, 0123), or null when it has none (the booking's money is then left out).
CREATE FUNCTION staykit_internal.report_rate(booking_currency text, unit_currency text)
RETURNS numeric LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN booking_currency = unit_currency THEN 1::numeric
              ELSE staykit_internal.exchange_rate(booking_currency, unit_currency) END
$$;
COMMENT ON FUNCTION staykit_internal.report_rate(text, text) IS
  'Reports (0240): 1, or the organization''s rate from a booking''s currency to its unit''s (null without one).';
GRANT EXECUTE ON FUNCTION staykit_internal.report_rate(text, text) TO staykit_api;

-- Per booking, its currency and its line items by kind in that currency (deposits are refundable and not revenue):
-- rent; fees = fee and service; taxes = tax; discounts = discount and coupon (negative); other = adjustment and other.
-- Read only through the report views (with their owner's rights, filtered by their unit's organization): no grant.
CREATE VIEW staykit_internal.report_booking_amounts AS
SELECT b.organization_id, b.id AS booking_id, b.currency, x.rent, x.fees, x.taxes, x.discounts, x.other
FROM api.bookings AS b
CROSS JOIN LATERAL (
  SELECT sum(li.amount) FILTER (WHERE li.item_type = 'rent')::bigint AS rent,
         sum(li.amount) FILTER (WHERE li.item_type IN ('fee', 'service'))::bigint AS fees,
         sum(li.amount) FILTER (WHERE li.item_type = 'tax')::bigint AS taxes,
         sum(li.amount) FILTER (WHERE li.item_type IN ('discount', 'coupon'))::bigint AS discounts,
         sum(li.amount) FILTER (WHERE li.item_type IN ('adjustment', 'other'))::bigint AS other
  FROM api.line_items AS li
  WHERE li.organization_id = b.organization_id AND li.booking_id = b.id AND li.fee_type = 'fee'
) AS x;
COMMENT ON VIEW staykit_internal.report_booking_amounts IS
  'Reports (0240): per booking, its currency and its line items (deposits left out) summed by kind: rent, fees, taxes, discounts, other.';

-- Per unit and day: available, booked or blocked, and the night's share of its booking's rent.
CREATE VIEW api.report_unit_days AS
SELECT p.id AS product_id,
       d.day,
       CASE WHEN e.type = 'booking' AND d.day < e.end_date THEN 'booked'
            WHEN e.id IS NOT NULL THEN 'blocked'
            ELSE 'available' END AS status,
       CASE WHEN e.type = 'booking' AND d.day < e.end_date
            THEN coalesce(round(staykit_internal.report_share(money.rent, d.day - e.start_date, d.day - e.start_date + 1,
                                                                e.end_date - e.start_date) * money.rate)::bigint, 0)
            ELSE 0::bigint END AS revenue,
       p.currency
FROM api.products AS p
CROSS JOIN staykit_internal.report_days AS d
-- The event holding the day: the unit's latest-starting booking or block that starts on or before it, if the day
-- is before its end plus padding (the calendar's no-overlap rule leaves no other candidate).
LEFT JOIN LATERAL (
  SELECT c.id, c.type, c.booking_id, c.start_date, c.end_date, c.padding
  FROM api.calendar_events AS c
  WHERE c.organization_id = p.organization_id AND c.product_id = p.id AND c.start_date <= d.day
    AND c.status <> 'CANCELLED' AND c.type IN ('booking', 'blocked period')
  ORDER BY c.start_date DESC
  LIMIT 1
) AS e ON d.day < e.end_date + e.padding
LEFT JOIN LATERAL (
  SELECT a.rent, staykit_internal.report_rate(a.currency, p.currency) AS rate
  FROM staykit_internal.report_booking_amounts AS a
  WHERE a.organization_id = p.organization_id AND a.booking_id = e.booking_id AND e.type = 'booking' AND d.day < e.end_date
) AS money ON true
WHERE p.organization_id = (SELECT staykit_internal.current_organization_id()) AND (SELECT staykit_internal.may_read('reports'));
COMMENT ON VIEW api.report_unit_days IS
  'Report (docs/reports.md): per unit and day from 1900 to 2199, available, booked or blocked, and the night''s share of its booking''s rent. Filter on day.';
COMMENT ON COLUMN api.report_unit_days.product_id IS 'The unit (refers to products.id).';
COMMENT ON COLUMN api.report_unit_days.day IS 'The day (for a nightly unit: the night that starts on it).';
COMMENT ON COLUMN api.report_unit_days.status IS
  'booked (a tentative or confirmed stay), blocked (a blocked period, an iCal import, or the cooldown padding after an event) or available.';
COMMENT ON COLUMN api.report_unit_days.revenue IS 'Booked days: the night''s share of the booking''s rent in minor units of the unit''s currency; 0 otherwise.';
COMMENT ON COLUMN api.report_unit_days.currency IS 'The unit''s currency (ISO 4217): the currency of revenue.';
GRANT SELECT ON api.report_unit_days TO staykit_api;

-- Per unit and month: nights, occupancy, ADR, RevPAR, revenue by kind, and the stays arriving in the month.
CREATE VIEW api.report_unit_months AS
SELECT p.id AS product_id,
       m.month,
       p.currency,
       m.days - k.blocked_nights AS available_nights,
       k.booked_nights,
       k.blocked_nights,
       round(k.booked_nights::numeric / nullif(m.days - k.blocked_nights, 0), 4) AS occupancy,
       round(k.revenue::numeric / nullif(k.booked_nights, 0)) AS adr,
       round(k.revenue::numeric / nullif(m.days - k.blocked_nights, 0)) AS revpar,
       k.revenue,
       k.fees,
       k.taxes,
       k.discounts,
       k.other_revenue,
       k.revenue + k.fees + k.taxes + k.discounts + k.other_revenue AS total_revenue,
       coalesce(a.bookings, 0)::integer AS bookings,
       coalesce(a.cancellations, 0)::integer AS cancellations,
       a.average_lead_time,
       a.average_length_of_stay,
       coalesce(a.refunds, 0)::bigint AS refunds,
       coalesce(a.bookings_api, 0)::integer AS bookings_api,
       coalesce(a.bookings_dashboard, 0)::integer AS bookings_dashboard,
       coalesce(a.bookings_site, 0)::integer AS bookings_site,
       coalesce(a.bookings_widget, 0)::integer AS bookings_widget,
       coalesce(a.bookings_import, 0)::integer AS bookings_import
FROM api.products AS p
CROSS JOIN staykit_internal.report_months AS m
-- The unit's bookings and blocks that hold a night of the month (with their padding): the calendar's own
-- no-overlap index answers the range test. Each night counts in the month it starts in.
LEFT JOIN LATERAL (
  SELECT sum(greatest(0, least(s.end_date, m.next_month) - greatest(s.start_date, m.month)))
           FILTER (WHERE s.type = 'booking') AS booked,
         sum(round(staykit_internal.report_share(s.rent, s.first_night, s.last_night, s.nights) * s.rate)) AS rent,
         sum(round(staykit_internal.report_share(s.fees, s.first_night, s.last_night, s.nights) * s.rate)) AS fees,
         sum(round(staykit_internal.report_share(s.taxes, s.first_night, s.last_night, s.nights) * s.rate)) AS taxes,
         sum(round(staykit_internal.report_share(s.discounts, s.first_night, s.last_night, s.nights) * s.rate)) AS discounts,
         sum(round(staykit_internal.report_share(s.other, s.first_night, s.last_night, s.nights) * s.rate)) AS other,
         coalesce(sum(greatest(0, least(s.end_date, m.next_month) - greatest(s.start_date, m.month)))
                    FILTER (WHERE s.type = 'blocked period'), 0)
           + coalesce(sum(greatest(0, least(s.end_date + s.padding, m.next_month) - greatest(s.end_date, m.month))), 0) AS blocked
  FROM (
    SELECT c.type, c.start_date, c.end_date, c.padding,
           greatest(c.start_date, m.month) - c.start_date AS first_night,
           least(c.end_date, m.next_month) - c.start_date AS last_night,
           c.end_date - c.start_date AS nights,
           money.rent, money.fees, money.taxes, money.discounts, money.other, money.rate
    FROM api.calendar_events AS c
    LEFT JOIN LATERAL (
      SELECT a.rent, a.fees, a.taxes, a.discounts, a.other, staykit_internal.report_rate(a.currency, p.currency) AS rate
      FROM staykit_internal.report_booking_amounts AS a
      WHERE a.organization_id = c.organization_id AND a.booking_id = c.booking_id AND c.type = 'booking'
    ) AS money ON true
    WHERE c.organization_id = p.organization_id AND c.product_id = p.id
      AND c.status <> 'CANCELLED' AND c.type IN ('booking', 'blocked period')
      AND daterange(c.start_date, c.end_date + c.padding, '[)') && daterange(m.month, m.next_month, '[)')
  ) AS s
) AS n ON true
-- The stays arriving in the month, cancelled ones included: counts, lead time, length, refunds and sources.
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE NOT s.cancelled) AS bookings,
         count(*) FILTER (WHERE s.cancelled) AS cancellations,
         round(avg(s.lead_time) FILTER (WHERE NOT s.cancelled), 2) AS average_lead_time,
         round(avg(s.length_of_stay) FILTER (WHERE NOT s.cancelled), 2) AS average_length_of_stay,
         sum(round(s.refunded * s.rate)) AS refunds,
         count(*) FILTER (WHERE NOT s.cancelled AND s.source = 'api') AS bookings_api,
         count(*) FILTER (WHERE NOT s.cancelled AND s.source = 'dashboard') AS bookings_dashboard,
         count(*) FILTER (WHERE NOT s.cancelled AND s.source = 'site') AS bookings_site,
         count(*) FILTER (WHERE NOT s.cancelled AND s.source = 'widget') AS bookings_widget,
         count(*) FILTER (WHERE NOT s.cancelled AND s.source = 'import') AS bookings_import
  FROM (
    SELECT c.status = 'CANCELLED' AS cancelled,
           c.start_date - (b.created_at AT TIME ZONE p.timezone)::date AS lead_time,
           c.end_date - c.start_date AS length_of_stay,
           staykit_internal.report_rate(b.currency, p.currency) AS rate,
           (SELECT sum(f.amount) FROM api.payments AS pay
            JOIN api.refunds AS f ON f.organization_id = pay.organization_id AND f.payment_id = pay.id
            WHERE pay.organization_id = b.organization_id AND pay.booking_id = b.id AND f.status = 'refunded') AS refunded,
           CASE WHEN c.origin = 'import' THEN 'import'
                WHEN b.widget_id IS NOT NULL THEN 'widget'
                WHEN b.site_id IS NOT NULL THEN 'site'
                WHEN c.creator_id IS NOT NULL THEN 'dashboard'
                ELSE 'api' END AS source
    FROM api.calendar_events AS c
    JOIN api.bookings AS b ON b.organization_id = c.organization_id AND b.id = c.booking_id
    WHERE c.organization_id = p.organization_id AND c.product_id = p.id AND c.type = 'booking'
      AND c.start_date >= m.month AND c.start_date < m.next_month
  ) AS s
) AS a ON true
-- The nights and amounts with nothing in them as 0.
CROSS JOIN LATERAL (
  SELECT coalesce(n.booked, 0)::integer AS booked_nights,
         least(coalesce(n.blocked, 0), m.days)::integer AS blocked_nights,
         coalesce(n.rent, 0)::bigint AS revenue,
         coalesce(n.fees, 0)::bigint AS fees,
         coalesce(n.taxes, 0)::bigint AS taxes,
         coalesce(n.discounts, 0)::bigint AS discounts,
         coalesce(n.other, 0)::bigint AS other_revenue
) AS k
WHERE p.organization_id = (SELECT staykit_internal.current_organization_id()) AND (SELECT staykit_internal.may_read('reports'));
COMMENT ON VIEW api.report_unit_months IS
  'Report (docs/reports.md): per unit and month from 1900 to 2199, nights, occupancy, ADR, RevPAR, revenue by kind and the stays arriving in the month. Filter on month.';
COMMENT ON COLUMN api.report_unit_months.product_id IS 'The unit (refers to products.id).';
COMMENT ON COLUMN api.report_unit_months.month IS 'The month''s first day.';
COMMENT ON COLUMN api.report_unit_months.currency IS 'The unit''s currency (ISO 4217): the currency of every amount.';
COMMENT ON COLUMN api.report_unit_months.available_nights IS 'Nights of the month minus blocked nights: the nights the unit was for sale.';
COMMENT ON COLUMN api.report_unit_months.booked_nights IS 'Nights of tentative or confirmed stays in the month (a daily unit: days).';
COMMENT ON COLUMN api.report_unit_months.blocked_nights IS 'Nights of blocked periods, iCal imports and cooldown padding in the month.';
COMMENT ON COLUMN api.report_unit_months.occupancy IS 'booked_nights / available_nights (0 to 1, 4 decimals); null without available nights.';
COMMENT ON COLUMN api.report_unit_months.adr IS 'Average daily rate: revenue / booked_nights, in minor units (rounded); null without booked nights.';
COMMENT ON COLUMN api.report_unit_months.revpar IS 'Revenue per available night: revenue / available_nights, in minor units (rounded); null without available nights.';
COMMENT ON COLUMN api.report_unit_months.revenue IS 'Rent of the month''s booked nights (each night''s share of its stay''s rent), in minor units.';
COMMENT ON COLUMN api.report_unit_months.fees IS 'Fee and service line items of the month''s booked nights (shared per night), in minor units.';
COMMENT ON COLUMN api.report_unit_months.taxes IS 'Tax line items of the month''s booked nights (shared per night), in minor units.';
COMMENT ON COLUMN api.report_unit_months.discounts IS 'Discount and coupon line items of the month''s booked nights (shared per night; negative), in minor units.';
COMMENT ON COLUMN api.report_unit_months.other_revenue IS 'Adjustment and other line items of the month''s booked nights (shared per night), in minor units.';
COMMENT ON COLUMN api.report_unit_months.total_revenue IS 'revenue + fees + taxes + discounts + other_revenue (deposits are not revenue).';
COMMENT ON COLUMN api.report_unit_months.bookings IS 'Stays arriving in the month that are not cancelled.';
COMMENT ON COLUMN api.report_unit_months.cancellations IS 'Cancelled stays that were to arrive in the month.';
COMMENT ON COLUMN api.report_unit_months.average_lead_time IS 'Average days from booking (in the unit''s time zone) to arrival, of the month''s arriving stays.';
COMMENT ON COLUMN api.report_unit_months.average_length_of_stay IS 'Average nights of the month''s arriving stays.';
COMMENT ON COLUMN api.report_unit_months.refunds IS 'Refunded amounts (refunds in status refunded) of the stays arriving in the month, cancelled ones included.';
COMMENT ON COLUMN api.report_unit_months.bookings_api IS 'Of bookings: made through the API with a secret key.';
COMMENT ON COLUMN api.report_unit_months.bookings_dashboard IS 'Of bookings: made by a dashboard user.';
COMMENT ON COLUMN api.report_unit_months.bookings_site IS 'Of bookings: made on a Staykit site.';
COMMENT ON COLUMN api.report_unit_months.bookings_widget IS 'Of bookings: made in a booking widget.';
COMMENT ON COLUMN api.report_unit_months.bookings_import IS 'Of bookings: imported from a channel (POST /v1/import-booking).';
GRANT SELECT ON api.report_unit_months TO staykit_api;
