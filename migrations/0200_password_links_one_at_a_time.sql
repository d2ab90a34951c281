-- One set-password link at a time. A link printed earlier (and perhaps sent to an old mailbox, or left in a chat)
-- must not outlive the one that replaced it or the password it was meant to set: a new link voids the user's other
-- unused links, and a new password — whichever way it was set (a link, `staykit user … --password-stdin`) — voids
-- them all. Voided links are deleted, so nothing can use them; used links stay as the record of their use.

CREATE FUNCTION staykit_internal.void_older_password_links() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM staykit_internal.password_tokens
  WHERE user_id = NEW.user_id AND used_at IS NULL AND id <> NEW.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER void_older_password_links AFTER INSERT ON staykit_internal.password_tokens
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.void_older_password_links();

CREATE FUNCTION staykit_internal.void_password_links_of_new_password() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM staykit_internal.password_tokens WHERE user_id = NEW.id AND used_at IS NULL;
  RETURN NULL;
END
$$;

CREATE TRIGGER void_password_links_of_new_password AFTER UPDATE OF password_hash ON staykit_internal.users
  FOR EACH ROW WHEN (NEW.password_hash IS DISTINCT FROM OLD.password_hash)
  EXECUTE FUNCTION staykit_internal.void_password_links_of_new_password();

REVOKE EXECUTE ON FUNCTION staykit_internal.void_older_password_links(),
  staykit_internal.void_password_links_of_new_password() FROM PUBLIC;
