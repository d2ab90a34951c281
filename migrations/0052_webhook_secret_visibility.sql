-- A webhook's signing_secret is shown only in the response of the request that sets it (creation, or a PATCH
-- that rotates it): the API role may write the column but never read it back.
REVOKE SELECT ON api.webhooks FROM staykit_api;
DO $$
BEGIN
  EXECUTE (
    SELECT format('GRANT SELECT (%s) ON api.webhooks TO staykit_api', string_agg(quote_ident(attname), ', ' ORDER BY attnum))
    FROM pg_attribute
    WHERE attrelid = 'api.webhooks'::regclass AND attnum > 0 AND NOT attisdropped AND attname <> 'signing_secret'
  );
END
$$;
COMMENT ON COLUMN api.webhooks.signing_secret IS
  'Secret that signs every notification (Standard Webhooks, whsec_ + base64 of 32 bytes); generated when absent. '
  'Returned only in the response of the request that creates or rotates it (PATCH to null generates a new one).';
