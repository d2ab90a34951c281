-- Display currencies (docs/payments.md#display-currency): the organization keeps its own exchange rates in
-- organizations.settings.exchange_rates, {"EUR": {"USD": 1.0825}} = 1 EUR is 1.0825 USD (no network source is
-- assumed), written with PATCH /v1/organizations. The booking flow reads one rate through this function: it may
-- not read the organization row itself, and needs no more than the rate.

CREATE FUNCTION staykit_internal.exchange_rate(base text, quote text) RETURNS numeric
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
  WITH rates AS (
    SELECT o.settings -> 'exchange_rates' AS r FROM api.organizations AS o
    WHERE o.id = staykit_internal.current_organization_id()
  ), candidates AS (
    SELECT 1 AS preference, r -> base -> quote AS rate, false AS inverse FROM rates
    UNION ALL
    SELECT 2, r -> quote -> base, true FROM rates
  )
  SELECT CASE WHEN inverse THEN 1 / rate::text::numeric ELSE rate::text::numeric END
  FROM candidates
  WHERE jsonb_typeof(rate) = 'number' AND rate::text::numeric > 0
  ORDER BY preference LIMIT 1
$$;
COMMENT ON FUNCTION staykit_internal.exchange_rate(text, text) IS
  'The organization''s rate from base to quote currency (settings.exchange_rates[base][quote], else 1 / the inverse), or null.';
REVOKE ALL ON FUNCTION staykit_internal.exchange_rate(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.exchange_rate(text, text) TO staykit_api;
