-- Nobody manages a member above their own role. Migration 0190 keeps grants and the all-access roles to whoever holds
-- them, but a staff member with `members:write` could still change the owner's member row — their e-mail address,
-- which receives the owner's task e-mails — and an admin (who holds everything) could demote or remove the owner.
-- Roles rank owner > admin > manager > staff > cleaner = maintenance. A dashboard session (staykit.user_id set by
-- every API transaction of a session) may change, deactivate or remove only members of its own rank or below, give
-- no member (itself included) a role above its own, and change the permission rows of such members only. API keys
-- and the server's own work (no acting user) are held by migration 0190 alone. A session whose user is not a member
-- of the organization ranks below every role and changes nothing.

CREATE FUNCTION staykit_internal.member_role_rank(role text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE role
    WHEN 'owner' THEN 5 WHEN 'admin' THEN 4 WHEN 'manager' THEN 3 WHEN 'staff' THEN 2
    WHEN 'cleaner' THEN 1 WHEN 'maintenance' THEN 1
  END
$$;
COMMENT ON FUNCTION staykit_internal.member_role_rank(text) IS
  'Rank of a member role: owner 5, admin 4, manager 3, staff 2, cleaner and maintenance 1.';

-- The role of a member of the request's organization, read as the tables' owner: the check must not depend on the
-- session's read grants on api.members, nor see a row the statement has changed already.
CREATE FUNCTION staykit_internal.member_role(member uuid) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
  SELECT m.role FROM api.members AS m WHERE m.id = member AND m.organization_id = staykit_internal.current_organization_id()
$$;

-- The acting session's role in the request's organization; NULL without an acting user (API keys, the server).
CREATE FUNCTION staykit_internal.acting_member_role() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
  SELECT m.role FROM api.members AS m
  WHERE m.user_id = staykit_internal.current_user_id() AND m.organization_id = staykit_internal.current_organization_id()
$$;

CREATE FUNCTION staykit_internal.refuse_member_above_own(what text, own_role text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'You may not %, which is above your own role (%)', what, coalesce(own_role, 'none')
    USING ERRCODE = 'SK708', HINT = 'Ask a member of that role or higher';
END
$$;

CREATE FUNCTION staykit_internal.members_within_own_role() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  own_role text;
  own_rank integer;
BEGIN
  IF staykit_internal.current_user_id() IS NOT NULL THEN
    own_role := staykit_internal.acting_member_role();
    own_rank := coalesce(staykit_internal.member_role_rank(own_role), 0);
    IF TG_OP <> 'INSERT' AND staykit_internal.member_role_rank(OLD.role) > own_rank THEN
      PERFORM staykit_internal.refuse_member_above_own(
        format('%s a member with role %s', CASE TG_OP WHEN 'DELETE' THEN 'remove' ELSE 'change' END, OLD.role), own_role);
    END IF;
    IF TG_OP <> 'DELETE' AND staykit_internal.member_role_rank(NEW.role) > own_rank THEN
      PERFORM staykit_internal.refuse_member_above_own(format('give a member the role %s', NEW.role), own_role);
    END IF;
  END IF;
  RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END
$$;

CREATE TRIGGER members_within_own_role BEFORE INSERT OR UPDATE OR DELETE ON api.members
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.members_within_own_role();

CREATE FUNCTION staykit_internal.permissions_within_own_role() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  own_role text;
  own_rank integer;
  member_role text;
BEGIN
  IF staykit_internal.current_user_id() IS NOT NULL THEN
    own_role := staykit_internal.acting_member_role();
    own_rank := coalesce(staykit_internal.member_role_rank(own_role), 0);
    FOREACH member_role IN ARRAY ARRAY[
      CASE WHEN TG_OP <> 'INSERT' THEN staykit_internal.member_role(OLD.member_id) END,
      CASE WHEN TG_OP <> 'DELETE' THEN staykit_internal.member_role(NEW.member_id) END
    ] LOOP
      IF staykit_internal.member_role_rank(member_role) > own_rank THEN
        PERFORM staykit_internal.refuse_member_above_own(format('change the permissions of a member with role %s', member_role), own_role);
      END IF;
    END LOOP;
  END IF;
  RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END
$$;

CREATE TRIGGER permissions_within_own_role BEFORE INSERT OR UPDATE OR DELETE ON api.permissions
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.permissions_within_own_role();

REVOKE EXECUTE ON FUNCTION staykit_internal.member_role_rank(text), staykit_internal.member_role(uuid),
  staykit_internal.acting_member_role(), staykit_internal.refuse_member_above_own(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.member_role_rank(text), staykit_internal.member_role(uuid),
  staykit_internal.acting_member_role(), staykit_internal.refuse_member_above_own(text, text) TO staykit_api;
