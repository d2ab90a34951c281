-- Webhook notifications carry their order, and the test message is logged (docs/webhooks.md).
--
-- - `sequence`: increasing in the order the database wrote the notifications — within one transaction the order of
--   its changes (an invoice's `invoices.created` before its `invoices.updated`). Deliveries run in parallel and
--   retries come later, so arrival order is not guaranteed; the delivered body carries `sequence`, and a receiver
--   that needs order applies a notification only when its sequence is higher than the last it applied.
-- - `POST /v1/webhook-test` records its message as a notification (event `webhook.test`, sent or error, one try),
--   so it shows in the delivery log next to the others and can be redelivered; its payload names only the webhook,
--   so reading it takes `webhooks:read`.

CREATE SEQUENCE staykit_internal.webhook_notification_sequence;
GRANT USAGE ON SEQUENCE staykit_internal.webhook_notification_sequence TO staykit_api;
ALTER TABLE api.webhook_notifications
  ADD COLUMN sequence bigint NOT NULL DEFAULT nextval('staykit_internal.webhook_notification_sequence');
COMMENT ON COLUMN api.webhook_notifications.sequence IS
  'Increasing in the order notifications were written (within a transaction, the order of its changes); delivered in the body as "sequence".';
CREATE INDEX webhook_notifications_sequence_idx ON api.webhook_notifications (organization_id, sequence);

-- webhook_event_read_scopes (0207) with the test message's: it carries the webhook's id only.
CREATE OR REPLACE FUNCTION staykit_internal.webhook_event_read_scopes(event_type text) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN event_type IN ('booking.created', 'booking.updated', 'booking.confirmed', 'booking.cancelled')
      THEN ARRAY['bookings', 'calendar_events', 'contact_bookings', 'contacts', 'line_items', 'products']
    WHEN event_type IN ('availability.changed', 'rates.changed') THEN ARRAY['bookings']
    WHEN event_type = 'webhook.test' THEN ARRAY['webhooks']
    ELSE ARRAY[split_part(event_type, '.', 1)]
  END
$$;
