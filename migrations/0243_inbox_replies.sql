-- Staff answer a guest's message (docs/automations.md#inbox): POST /v1/messages with in_reply_to_id. The answer
-- belongs to the answered message's booking and guest, and says what it answers: before it is stored, what the client
-- left out is taken from the answered message — booking_id, contact_id, the guest's address as to_address (for an
-- inbound message: its sender), and `Re: <its subject>` as subject when the client left the subject blank. An answer
-- that names another booking than the answered message's is refused: a thread is one booking's.
CREATE FUNCTION staykit_internal.inbox_reply_defaults() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  answered record;
BEGIN
  -- The answered message of the same organization (the row's own, which row-level security checked): the foreign key
  -- refuses any other.
  SELECT m.booking_id, m.contact_id, m.direction, m.from_address, m.to_address, m.subject INTO answered
  FROM api.messages AS m WHERE m.id = NEW.in_reply_to_id AND m.organization_id = NEW.organization_id;
  IF NOT FOUND THEN
    RETURN NEW;
  END IF;
  IF NEW.booking_id IS NOT NULL AND answered.booking_id IS NOT NULL AND NEW.booking_id <> answered.booking_id THEN
    RAISE EXCEPTION 'new row for relation "messages" violates check constraint "messages_reply_same_booking"'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'messages_reply_same_booking', TABLE = 'messages', SCHEMA = 'api',
            DETAIL = format('Message %s belongs to booking %s; a reply to it belongs to that booking too.', NEW.in_reply_to_id, answered.booking_id);
  END IF;
  NEW.booking_id := coalesce(NEW.booking_id, answered.booking_id);
  NEW.contact_id := coalesce(NEW.contact_id, answered.contact_id);
  NEW.to_address := coalesce(NEW.to_address, CASE answered.direction WHEN 'inbound' THEN answered.from_address ELSE answered.to_address END);
  IF btrim(NEW.subject) = '' THEN
    NEW.subject := CASE WHEN answered.subject ~* '^\s*re:' THEN answered.subject ELSE btrim('Re: ' || answered.subject) END;
  END IF;
  RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION staykit_internal.inbox_reply_defaults() FROM PUBLIC;
CREATE TRIGGER inbox_reply_defaults BEFORE INSERT ON api.messages
  FOR EACH ROW WHEN (NEW.in_reply_to_id IS NOT NULL) EXECUTE FUNCTION staykit_internal.inbox_reply_defaults();
