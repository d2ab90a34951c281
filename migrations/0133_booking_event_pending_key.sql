-- The bookings a transaction touched (0131) keyed with their organization, like every other tenant table: a
-- booking belongs to one organization, so the key means the same, and the table can be distributed by
-- organization_id with the rest (docs/scaling.md). Rows live only until their transaction commits.
ALTER TABLE staykit_internal.booking_event_pending DROP CONSTRAINT booking_event_pending_pkey;
ALTER TABLE staykit_internal.booking_event_pending ADD PRIMARY KEY (organization_id, booking_id, kind);
