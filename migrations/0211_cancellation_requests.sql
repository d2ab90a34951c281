-- A guest's cancellation request (POST /g/<secret>/cancellation-request, docs/widget.md#the-guests-booking-page) is
-- made once per booking while it is open, also when the form is sent many times at once: each request first takes
-- the booking's row here (its primary key), so of parallel requests one writes the host's message and the others
-- write nothing — no second message, no second webhook. The request is open while its message exists: the host
-- deleting the message (e.g. once answered) closes it, and the guest may ask again.

CREATE TABLE staykit_internal.cancellation_requests (
  organization_id uuid NOT NULL,
  booking_id uuid NOT NULL,
  message_id uuid NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, booking_id),
  CONSTRAINT cancellation_requests_booking_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE CASCADE,
  -- Deferred: the request is taken before its message is written, in the same transaction.
  CONSTRAINT cancellation_requests_message_fkey FOREIGN KEY (message_id, organization_id)
    REFERENCES api.messages (id, organization_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX cancellation_requests_booking_idx ON staykit_internal.cancellation_requests (booking_id);
CREATE INDEX cancellation_requests_message_idx ON staykit_internal.cancellation_requests (message_id);
COMMENT ON TABLE staykit_internal.cancellation_requests IS
  'The open cancellation request of a booking (one at most), with the inbound message that tells the host; deleting the message closes it.';
REVOKE ALL ON staykit_internal.cancellation_requests FROM PUBLIC;
REVOKE ALL ON staykit_internal.cancellation_requests FROM staykit_api;

-- Requests made before: the first request message of each booking.
INSERT INTO staykit_internal.cancellation_requests (organization_id, booking_id, message_id, requested_at)
SELECT DISTINCT ON (m.organization_id, m.booking_id) m.organization_id, m.booking_id, m.id, m.created_at
FROM api.messages AS m
WHERE m.booking_id IS NOT NULL AND m.direction = 'inbound' AND m.subject LIKE 'Cancellation request%'
ORDER BY m.organization_id, m.booking_id, m.created_at, m.id;
