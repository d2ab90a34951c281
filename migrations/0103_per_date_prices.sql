-- Per-date prices and closures in the booking flow (docs/booking.md#prices-per-date).
--
-- price_calendar_entries (a manual override per unit and date: rate, minimum stay, closed) and pricelabs_pricing
-- (prices pushed by PriceLabs) already exist; the booking flow reads them from now on. Whether a unit takes
-- PriceLabs' prices is a setting of the unit: pricelabs_enabled (off by default, so rows pushed for a unit that
-- is not switched over change nothing).

ALTER TABLE api.products ADD COLUMN pricelabs_enabled boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN api.products.pricelabs_enabled IS
  'Whether the nightly prices and minimum stays of pricelabs_pricing apply to this unit (a manual '
  'price_calendar_entries row still wins).';
-- The new column is client-settable like the unit's other settings (PATCH /products).
SELECT staykit_internal.grant_api_access('api.products', '{SELECT,UPDATE}');
