-- One inbox (docs/automations.md#inbox): guests' replies to Staykit's e-mails come back as inbound messages,
-- threaded to their booking, and staff answer them in the same thread.
--
-- - messages.rfc_message_id: the e-mail's RFC 5322 Message-ID. Staykit sets it on an outbound message when it sends
--   it (`<message id@domain of STAYKIT_EMAIL_FROM>`), and on an inbound one from the received header. A mail that is
--   delivered twice (a provider retrying, a sender's server resending) is stored once: an inbound Message-ID is unique
--   per organization. Clients never write it.
-- - messages.in_reply_to_id: the message this one answers (a staff reply to a guest's mail goes out with that mail's
--   Message-ID in In-Reply-To and References). Given on create, never changed.
-- - messages.read_at: when staff read an inbound message; null = unread. The one new column a client changes
--   (PATCH /v1/messages with messages:write): marking read, or unread again. Marking read records a 'read' event.
-- - message_events: 'received' (the inbound mail's story starts there) and 'read'.
-- - The webhook event messages.received, in the transaction that stores an inbound message.

ALTER TABLE api.messages
  ADD COLUMN read_at timestamptz CONSTRAINT messages_read_at_in_range
    CHECK (read_at >= '1900-01-01' AND read_at < '2200-01-01'),
  ADD COLUMN in_reply_to_id uuid,
  ADD COLUMN rfc_message_id text CONSTRAINT messages_rfc_message_id_shape
    CHECK (rfc_message_id ~ '^<[^<>[:space:]]+>$' AND length(rfc_message_id) <= 998),
  ADD CONSTRAINT messages_in_reply_to_id_fkey FOREIGN KEY (in_reply_to_id, organization_id)
    REFERENCES api.messages (id, organization_id) ON DELETE SET NULL (in_reply_to_id);
CREATE INDEX messages_in_reply_to_id_idx ON api.messages (in_reply_to_id);
-- Threading a reply that has no reply address by its In-Reply-To/References: the Message-IDs Staykit sent or stored.
CREATE INDEX messages_rfc_message_id_idx ON api.messages (rfc_message_id) WHERE rfc_message_id IS NOT NULL;
CREATE UNIQUE INDEX messages_inbound_rfc_message_id_unique ON api.messages (organization_id, rfc_message_id)
  WHERE direction = 'inbound' AND rfc_message_id IS NOT NULL;
COMMENT ON COLUMN api.messages.read_at IS 'When staff read this inbound message; null = unread.';
COMMENT ON COLUMN api.messages.in_reply_to_id IS 'The message this one answers (its e-mail goes out In-Reply-To that one''s Message-ID).';
COMMENT ON COLUMN api.messages.rfc_message_id IS
  'The e-mail''s Message-ID (RFC 5322, with its angle brackets): set by Staykit when it sends, or as received.';

INSERT INTO staykit_internal.api_access (table_name, column_name, operations, readable, insertable, updatable, why) VALUES
  ('messages', 'read_at', NULL, NULL, false, NULL, 'staff mark an inbound message read (PATCH); a new message is unread'),
  ('messages', 'in_reply_to_id', NULL, NULL, NULL, false, 'a reply answers the message it was written to, for good'),
  ('messages', 'rfc_message_id', NULL, NULL, false, false, 'set by Staykit when it sends the e-mail, or as received');

ALTER TABLE api.message_events DROP CONSTRAINT message_events_type_check;
ALTER TABLE api.message_events ADD CONSTRAINT message_events_type_check
  CHECK (type IN ('queued', 'sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained', 'failed', 'received', 'read'));

-- Webhook event messages.received: every inbound message stored as received (a guest's e-mail, a cancellation
-- request from the guest page, one an integration records), in the transaction that stores it.
INSERT INTO staykit_internal.webhook_event_types (name, resource, description, read_scopes) VALUES
  ('messages.received', 'messages', 'A message from a guest was received (an e-mail reply, or the guest page''s cancellation request).',
   ARRAY['messages']);

CREATE FUNCTION staykit_internal.inbox_message_received() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM staykit_internal.emit_webhook_event(
    NEW.organization_id, 'messages.received',
    jsonb_build_object('new', staykit_internal.webhook_row_snapshot(to_jsonb(NEW))));
  RETURN NULL;
END
$$;
CREATE TRIGGER inbox_message_received AFTER INSERT ON api.messages
  FOR EACH ROW WHEN (NEW.direction = 'inbound' AND NEW.status = 'received')
  EXECUTE FUNCTION staykit_internal.inbox_message_received();

-- Marking a message read records who read it and when (staykit.user_id: the dashboard user, empty for a key).
CREATE FUNCTION staykit_internal.inbox_message_read() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO api.message_events (organization_id, message_id, type, payload)
  VALUES (NEW.organization_id, NEW.id, 'read',
          jsonb_build_object('read_at', NEW.read_at, 'user_id', nullif(current_setting('staykit.user_id', true), '')));
  RETURN NULL;
END
$$;
CREATE TRIGGER inbox_message_read AFTER UPDATE OF read_at ON api.messages
  FOR EACH ROW WHEN (OLD.read_at IS NULL AND NEW.read_at IS NOT NULL)
  EXECUTE FUNCTION staykit_internal.inbox_message_read();

REVOKE ALL ON FUNCTION staykit_internal.inbox_message_received(), staykit_internal.inbox_message_read() FROM PUBLIC;
