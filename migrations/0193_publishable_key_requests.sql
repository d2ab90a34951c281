-- Requests made with a publishable key (the widget's and booking site's visitors) are written to api_requests too,
-- so the organization sees its widget's traffic in its request log. `api_key_id` refers to secret keys
-- (staykit_internal.api_keys) and cannot hold a publishable key's id: such a row names its key in a column of its
-- own, `publishable_key_id`, with both key columns null for a dashboard session. Like every reference between
-- tenant tables it includes organization_id, so a row can only name a key of its own organization; a key that goes
-- (with its widget or site) leaves its rows in the log, without the reference, as a deleted secret key does.

ALTER TABLE staykit_internal.publishable_keys
  ADD CONSTRAINT publishable_keys_id_organization_id_key UNIQUE (id, organization_id);

ALTER TABLE api.api_requests ADD COLUMN publishable_key_id uuid;
ALTER TABLE api.api_requests
  ADD CONSTRAINT api_requests_publishable_key_id_fkey FOREIGN KEY (publishable_key_id, organization_id)
    REFERENCES staykit_internal.publishable_keys (id, organization_id) ON DELETE SET NULL (publishable_key_id);
-- Most rows are secret keys' and name no publishable key: only the others are indexed (for the reference's deletes
-- and for reading one key's requests).
CREATE INDEX api_requests_publishable_key_id_idx ON api.api_requests (publishable_key_id) WHERE publishable_key_id IS NOT NULL;

COMMENT ON TABLE api.api_requests IS
  'Requests made with the organization''s API keys, publishable keys and dashboard sessions (read-only log, written in batches).';
COMMENT ON COLUMN api.api_requests.api_key_id IS
  'Id of the secret API key used (the key itself is never exposed); null for a publishable key or a dashboard session.';
COMMENT ON COLUMN api.api_requests.publishable_key_id IS
  'Id of the publishable key used (GET /v1/publishable-keys lists them), for the widget''s and booking site''s requests.';
