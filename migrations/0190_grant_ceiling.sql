-- Nobody grants more than they hold. Whoever may write api.permissions or api.members could otherwise raise their
-- own grants (a staff member with `permissions:write` inserting `{"resource": "*", "access": "write"}` for
-- themselves) or make themselves `admin`. The ceiling is the request's own grants: the tables it may read
-- (staykit.readable_tables, migration 0090) and write (staykit.write_grants, set for API keys and dashboard
-- sessions alike by every API transaction), so it holds for both; transactions that set neither (migrations, the
-- CLI, the seed) are unrestricted, as they are for the row-level-security policies. docs/dashboard.md documents it.

-- Whether the transaction may read and write every table: `*` or unset for both settings.
CREATE FUNCTION staykit_internal.holds_all_access() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(current_setting('staykit.readable_tables', true), '') IN ('', '*')
     AND coalesce(current_setting('staykit.write_grants', true), '') IN ('', '*')
$$;

-- Whether the transaction holds the grant {resource, access} of an api.permissions row itself (`*`: every table).
CREATE FUNCTION staykit_internal.holds_grant(resource text, access text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN held IN ('', '*') THEN true
    WHEN resource = '*' THEN false
    ELSE resource = ANY (held::text[])
  END
  FROM coalesce(current_setting(CASE access WHEN 'write' THEN 'staykit.write_grants' ELSE 'staykit.readable_tables' END,
                                true), '') AS held
$$;

CREATE FUNCTION staykit_internal.refuse_grant_above_own(what text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'You may not %, which is more than your own grants', what
    USING ERRCODE = 'SK408', HINT = 'Ask an owner or admin, or someone who holds that grant';
END
$$;

-- A permission row may be created, changed or removed only by whoever holds it (before and after the change).
CREATE FUNCTION staykit_internal.permissions_within_own_grants() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND NOT staykit_internal.holds_grant(OLD.resource, OLD.access) THEN
    PERFORM staykit_internal.refuse_grant_above_own(format('change the grant %s:%s', OLD.resource, OLD.access));
  END IF;
  IF TG_OP <> 'DELETE' AND NOT staykit_internal.holds_grant(NEW.resource, NEW.access) THEN
    PERFORM staykit_internal.refuse_grant_above_own(format('grant %s:%s', NEW.resource, NEW.access));
  END IF;
  RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END
$$;

CREATE TRIGGER permissions_within_own_grants BEFORE INSERT OR UPDATE OR DELETE ON api.permissions
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.permissions_within_own_grants();

-- Roles `owner` and `admin` hold everything, so only a transaction that holds everything gives, changes or removes
-- them; and moving a member row to another login (user_id) moves its grants to that person, so it takes the same.
CREATE FUNCTION staykit_internal.members_within_own_grants() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  all_access_roles CONSTANT text[] := ARRAY['owner', 'admin'];
BEGIN
  IF staykit_internal.holds_all_access() THEN
    RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'INSERT' AND NEW.role = ANY (all_access_roles) THEN
    PERFORM staykit_internal.refuse_grant_above_own(format('add a member with role %s', NEW.role));
  ELSIF TG_OP = 'DELETE' AND OLD.role = ANY (all_access_roles) THEN
    PERFORM staykit_internal.refuse_grant_above_own(format('remove a member with role %s', OLD.role));
  ELSIF TG_OP = 'UPDATE' THEN
    IF NEW.role IS DISTINCT FROM OLD.role AND (NEW.role = ANY (all_access_roles) OR OLD.role = ANY (all_access_roles)) THEN
      PERFORM staykit_internal.refuse_grant_above_own(format('change role %s to %s', OLD.role, NEW.role));
    ELSIF OLD.role = ANY (all_access_roles) AND NEW.active IS DISTINCT FROM OLD.active THEN
      PERFORM staykit_internal.refuse_grant_above_own(format('deactivate or reactivate a member with role %s', OLD.role));
    ELSIF NEW.user_id IS DISTINCT FROM OLD.user_id THEN
      PERFORM staykit_internal.refuse_grant_above_own('link a member to another login');
    END IF;
  END IF;
  RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END
$$;

CREATE TRIGGER members_within_own_grants BEFORE INSERT OR UPDATE OR DELETE ON api.members
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.members_within_own_grants();

REVOKE EXECUTE ON FUNCTION staykit_internal.holds_all_access(), staykit_internal.holds_grant(text, text),
  staykit_internal.refuse_grant_above_own(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.holds_all_access(), staykit_internal.holds_grant(text, text),
  staykit_internal.refuse_grant_above_own(text) TO staykit_api;
