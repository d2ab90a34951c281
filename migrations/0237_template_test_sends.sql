-- The test-send limit holds across server processes (docs/automations.md#test-send): each user may send
-- TEST_SENDS_PER_WINDOW template tests per window within an organization, counted here instead of in each process's
-- memory, so two API processes behind one load balancer refuse the 11th together. A row per test sent; rows older
-- than the window are deleted when the same user sends next. Internal: the API role neither reads nor writes it.

CREATE TABLE staykit_internal.template_test_sends (
  organization_id uuid NOT NULL REFERENCES api.organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL,
  sent_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX template_test_sends_user_idx ON staykit_internal.template_test_sends (organization_id, user_id, sent_at);
COMMENT ON TABLE staykit_internal.template_test_sends IS
  'Template test-sends of the last window, per user and organization: the limit of POST /v1/template-test-send.';
REVOKE ALL ON staykit_internal.template_test_sends FROM PUBLIC;

-- take_template_test_send(org, user, at, limit, window): records a test-send at `at` and answers NULL, or answers
-- the seconds until the user may send again when `limit` tests were sent in the `window` seconds before `at`. Sends
-- of one user take turns on an advisory lock (for the rest of the transaction), so two at once cannot both pass.
CREATE FUNCTION staykit_internal.take_template_test_send(org uuid, sender uuid, at timestamptz, max_sends integer, window_seconds integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  window_start constant timestamptz := at - make_interval(secs => window_seconds);
  oldest timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('staykit-test-send:' || org || ':' || sender, 0));
  DELETE FROM staykit_internal.template_test_sends
  WHERE organization_id = org AND user_id = sender AND sent_at <= window_start;
  IF (SELECT count(*) FROM staykit_internal.template_test_sends WHERE organization_id = org AND user_id = sender) >= max_sends THEN
    SELECT min(sent_at) INTO oldest FROM staykit_internal.template_test_sends WHERE organization_id = org AND user_id = sender;
    RETURN greatest(1, ceil(extract(epoch FROM (oldest + make_interval(secs => window_seconds)) - at))::integer);
  END IF;
  INSERT INTO staykit_internal.template_test_sends (organization_id, user_id, sent_at) VALUES (org, sender, at);
  RETURN NULL;
END
$$;
COMMENT ON FUNCTION staykit_internal.take_template_test_send(uuid, uuid, timestamptz, integer, integer) IS
  'POST /v1/template-test-send: records a test (NULL) or answers the seconds to wait when the user is at the limit.';
REVOKE ALL ON FUNCTION staykit_internal.take_template_test_send(uuid, uuid, timestamptz, integer, integer) FROM PUBLIC;
