-- /book writes the booking's payment schedule as pending payments on the booker's behalf, like the rest of what a
-- booking creates (create_booking is SECURITY DEFINER): a dashboard member who may write `bookings` books a product
-- with a payment schedule without holding `payments:write` too — the restrictive write policies of migration 0140
-- refused that insert for sessions. Tenancy still holds: the payment takes the request's organization, and its
-- booking must be of that organization (the composite foreign key).
CREATE FUNCTION staykit_internal.write_payment_schedule(booking uuid, currency text, zone text, schedule jsonb)
RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
  INSERT INTO api.payments (booking_id, amount, currency, due_at, status, method)
  SELECT booking, s.amount, currency, s.due_date::timestamp AT TIME ZONE zone, 'pending', 'other'
  FROM jsonb_to_recordset(schedule) AS s(amount integer, due_date date)
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.write_payment_schedule(uuid, text, text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.write_payment_schedule(uuid, text, text, jsonb) TO staykit_api;
COMMENT ON FUNCTION staykit_internal.write_payment_schedule(uuid, text, text, jsonb) IS
  'The payment schedule of a new booking as pending payments (amount, due date in the product''s zone), written on the booker''s behalf.';
