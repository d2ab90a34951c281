-- A guest's e-mail reply notifies the host (docs/automations.md#host-notifications): the host notification
-- `messages.received`, named like the webhook event of 0242, e-mailed to the members who get it (owners and admins by
-- default, as every notification). A guest page's cancellation request, also an inbound message, has its own
-- notification (booking.cancellation_requested) and does not send this one too. Several replies before the job runs
-- make one e-mail (the job is one per booking and notification until done, 0219), with the latest message.

CREATE OR REPLACE FUNCTION staykit_internal.host_notification_kinds() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY['booking.created', 'booking.requested', 'booking.cancelled', 'booking.cancellation_requested', 'messages.received']
$$;
COMMENT ON COLUMN api.members.notify IS
  'The notifications this member gets by e-mail: booking.created, booking.requested, booking.cancelled, '
  'booking.cancellation_requested, messages.received; null = the role''s default (owners and admins: all, others: none).';

CREATE OR REPLACE FUNCTION staykit_internal.inbox_message_received() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM staykit_internal.emit_webhook_event(
    NEW.organization_id, 'messages.received',
    jsonb_build_object('new', staykit_internal.webhook_row_snapshot(to_jsonb(NEW))));
  IF NEW.booking_id IS NOT NULL AND NOT EXISTS (
       SELECT 1 FROM staykit_internal.cancellation_requests AS r
       WHERE r.message_id = NEW.id AND r.organization_id = NEW.organization_id) THEN
    PERFORM staykit_internal.queue_host_notification(NEW.organization_id, NEW.booking_id, 'messages.received');
  END IF;
  RETURN NULL;
END
$$;
