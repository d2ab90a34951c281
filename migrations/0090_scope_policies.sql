-- A key's scopes hold in the database too, not only in the HTTP layer.
--
-- A key limited to some resources (`bookings:read`, `webhooks:write`) may read those tables only. The server
-- answers 403 for any table of a request the key lacks (embeds at any depth included), and every API transaction
-- also sets `staykit.readable_tables`: `*` (every table: `read`/`write` keys) or a PostgreSQL array literal of table
-- names, e.g. `{bookings,contacts}`. A restrictive SELECT policy on every table of the api schema shows rows only
-- when its table is readable, so whatever statement some future code runs in an API transaction — a forgotten
-- check, an embed, a RETURNING, a subquery — a table outside the key's scopes is empty.
--
-- Unset (NULL or ''), there is no restriction beyond tenancy: the server's own work never takes the API role, and
-- the API's one way into a tenant transaction (src/http/tenant-transaction.ts) always sets it.
--
-- The check is an InitPlan, `(SELECT staykit_internal.may_read('<table>'))`: evaluated once per statement, like
-- the tenant predicate (migration 0080), not once per row.

CREATE FUNCTION staykit_internal.may_read(resource text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE coalesce(current_setting('staykit.readable_tables', true), '')
    WHEN '' THEN true
    WHEN '*' THEN true
    ELSE resource = ANY (current_setting('staykit.readable_tables', true)::text[])
  END
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.may_read(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.may_read(text) TO staykit_api;
COMMENT ON FUNCTION staykit_internal.may_read(text) IS
  'Whether the current API transaction may read table api.<resource> (setting staykit.readable_tables: *, or '
  'an array literal of table names; unset = no restriction).';

-- enforce_read_scope(table): the restrictive policy on one table. Every table added to the api schema later needs
-- it too (a test checks that each one has it).
CREATE FUNCTION staykit_internal.enforce_read_scope(target regclass) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  table_name text := (SELECT relname FROM pg_class WHERE oid = target);
BEGIN
  EXECUTE format(
    'CREATE POLICY read_scope ON %s AS RESTRICTIVE FOR SELECT TO staykit_api '
    'USING ((SELECT staykit_internal.may_read(%L)))', target, table_name);
END
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.enforce_read_scope(regclass) FROM PUBLIC;
COMMENT ON FUNCTION staykit_internal.enforce_read_scope(regclass) IS
  'Migration helper: the restrictive SELECT policy that limits staykit_api to the tables of the key''s scopes.';

-- api.paddle_plans is a global catalogue without row-level security so far: every organization may read it, so its
-- permissive policy admits every row, and the restrictive one below still needs the scope. Not forced: its owner
-- keeps full access.
ALTER TABLE api.paddle_plans ENABLE ROW LEVEL SECURITY;
CREATE POLICY catalogue_read ON api.paddle_plans FOR SELECT TO staykit_api USING (true);

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.oid
    FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p')
    ORDER BY c.relname
  LOOP
    PERFORM staykit_internal.enforce_read_scope(t.oid);
  END LOOP;
END
$$;
