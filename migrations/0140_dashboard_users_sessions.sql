-- Dashboard users, their sessions and one-time password links; members' write grants held in the database.
--
-- A user is an identity across organizations (e-mail + argon2id hash). In each organization they belong to they have
-- one api.user_profiles row and one api.members row linked to it (members.user_id); the member's role and
-- api.permissions decide what their session may do there (docs/dashboard.md#sessions-api). Users, sessions and
-- password tokens live in staykit_internal: the server reads them before it takes the API role, the role never does.

CREATE TABLE staykit_internal.users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CHECK (staykit_internal.is_email(email)),
  -- NULL until the user sets a password through their one-time link.
  password_hash text CHECK (password_hash LIKE '$argon2id$%'),
  created_at timestamptz NOT NULL DEFAULT now(),
  password_changed_at timestamptz
);
CREATE UNIQUE INDEX users_email_unique ON staykit_internal.users (lower(email));
COMMENT ON TABLE staykit_internal.users IS
  'Dashboard users: e-mail (unique, case-insensitive) and argon2id password hash. Never visible to staykit_api.';

-- Sessions are found by the SHA-256 of the cookie's token, so the table never holds a usable credential. Expiry is
-- computed from created_at/expires_at (absolute) and last_seen_at (idle) against the server's clock.
CREATE TABLE staykit_internal.sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL CONSTRAINT sessions_token_hash_unique UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid NOT NULL REFERENCES staykit_internal.users (id) ON DELETE CASCADE,
  -- The organization the session works in (switched by POST /auth/organization).
  organization_id uuid NOT NULL REFERENCES api.organizations (id) ON DELETE CASCADE,
  csrf_token text NOT NULL CHECK (length(csrf_token) >= 32),
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  CHECK (expires_at > created_at)
);
CREATE INDEX sessions_user_id_idx ON staykit_internal.sessions (user_id);
CREATE INDEX sessions_organization_id_idx ON staykit_internal.sessions (organization_id);
COMMENT ON TABLE staykit_internal.sessions IS
  'Dashboard sessions (cookie staykit_session): SHA-256 of the token, CSRF token, idle and absolute expiry.';

CREATE TABLE staykit_internal.password_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL CONSTRAINT password_tokens_token_hash_unique UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid NOT NULL REFERENCES staykit_internal.users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_tokens_user_id_idx ON staykit_internal.password_tokens (user_id);
COMMENT ON TABLE staykit_internal.password_tokens IS
  'One-time set-password links (/admin/set-password?token=…): SHA-256 of the token, expiry, when used.';

REVOKE ALL ON staykit_internal.users, staykit_internal.sessions, staykit_internal.password_tokens FROM staykit_api;

-- A user is one member of an organization at most: their session's grants are that member's.
CREATE UNIQUE INDEX members_one_per_user ON api.members (organization_id, user_id) WHERE user_id IS NOT NULL;

-- ---------------------------------------------------------------------------------------------------------------
-- Write grants in the database. Like staykit.readable_tables (migration 0090), every API transaction may set
-- staykit.writable_tables: `*`, or an array literal of the tables it may write; unset ('' or NULL) = no restriction
-- beyond tenancy and privileges. Restrictive INSERT/UPDATE/DELETE policies then refuse (INSERT) or do not see
-- (UPDATE, DELETE) the rows of any other table, whatever statement runs. Triggers and the booking flow's functions
-- are SECURITY DEFINER (they run as the tables' owner), so what they write on a request's behalf is not affected.

CREATE FUNCTION staykit_internal.may_write(resource text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE coalesce(current_setting('staykit.writable_tables', true), '')
    WHEN '' THEN true
    WHEN '*' THEN true
    ELSE resource = ANY (current_setting('staykit.writable_tables', true)::text[])
  END
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.may_write(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.may_write(text) TO staykit_api;
COMMENT ON FUNCTION staykit_internal.may_write(text) IS
  'Whether the current API transaction may write table api.<resource> (setting staykit.writable_tables: *, or '
  'an array literal of table names; unset = no restriction).';

-- enforce_write_scope(table): the restrictive write policies on one table; tables added later call it too.
CREATE FUNCTION staykit_internal.enforce_write_scope(target regclass) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  table_name text := (SELECT relname FROM pg_class WHERE oid = target);
  check_expression text := format('(SELECT staykit_internal.may_write(%L))', table_name);
BEGIN
  EXECUTE format('CREATE POLICY write_scope_insert ON %s AS RESTRICTIVE FOR INSERT TO staykit_api WITH CHECK (%s)',
                 target, check_expression);
  EXECUTE format('CREATE POLICY write_scope_update ON %s AS RESTRICTIVE FOR UPDATE TO staykit_api USING (%s) WITH CHECK (%s)',
                 target, check_expression, check_expression);
  EXECUTE format('CREATE POLICY write_scope_delete ON %s AS RESTRICTIVE FOR DELETE TO staykit_api USING (%s)',
                 target, check_expression);
END
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.enforce_write_scope(regclass) FROM PUBLIC;
COMMENT ON FUNCTION staykit_internal.enforce_write_scope(regclass) IS
  'Migration helper: the restrictive INSERT/UPDATE/DELETE policies that limit staykit_api to the writable tables.';

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.oid
    FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p') AND c.relrowsecurity
    ORDER BY c.relname
  LOOP
    PERFORM staykit_internal.enforce_write_scope(t.oid);
  END LOOP;
END
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- The acting user as creator: rows a dashboard user creates name them unless the request says otherwise.

CREATE FUNCTION staykit_internal.set_acting_creator() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
BEGIN
  IF NEW.creator_id IS NULL THEN
    NEW.creator_id := staykit_internal.acting_user_id(NEW.organization_id);
  END IF;
  RETURN NEW;
END
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.set_acting_creator() FROM PUBLIC;

CREATE TRIGGER set_acting_creator BEFORE INSERT ON api.calendar_events
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.set_acting_creator();
CREATE TRIGGER set_acting_creator BEFORE INSERT ON api.tasks
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.set_acting_creator();
