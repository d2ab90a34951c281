-- The change feed holds the table's own row policies (docs/webhooks.md#change-feed): GET /v1/changes returns exactly
-- the changes of rows the principal may read from the tables — a cleaner whose GET /v1/calendar_event_tasks shows
-- their own tasks (migration 0141) reads only their own tasks' changes — for every table and every policy, not as a
-- special case of tasks.
--
-- How: the feed is read inside the request's transaction, as its API role with its settings, and each change's row
-- version is put through the SELECT policies that apply to that role on its table (the expressions PostgreSQL itself
-- would apply, read from pg_policy), evaluated on the version the change recorded rather than on the live row:
--   - a created or updated row is shown when the row as that change committed it passes;
--   - a deletion (a tombstone, data null) is shown when the row as it was just before passes: each change now also
--     records that version, `prior` (never sent);
--   - an update after which the row no longer passes, but before which it did (a task reassigned to someone else),
--     is shown with data null, like a tombstone: the row left the reader's view, and a mirror drops it;
--   - the row's columns the role may not read (column privileges, e.g. migration 0205) are left out of data.
-- Changes recorded before this migration have no `prior`: their tombstones are judged on the row's id and
-- organization alone (shown unless a policy needs more of the row), their updates on the new version alone.

ALTER TABLE staykit_internal.changes ADD COLUMN prior jsonb;
COMMENT ON COLUMN staykit_internal.changes.prior IS
  'The row just before an update or deletion (webhook_row_snapshot); null for a creation. Only judges who may see '
  'the change (readable_change_page); never part of the feed.';

-- The outbox trigger of 0130, now also recording the row before the change (prior).
CREATE OR REPLACE FUNCTION staykit_internal.webhook_outbox() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  resource text := TG_TABLE_NAME;
  organization uuid;
  new_row jsonb;
  old_row jsonb;
  event_types text[];
  event_type text;
  payload jsonb;
  change_event uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN
    organization := OLD.organization_id;
  ELSE
    organization := NEW.organization_id;
  END IF;
  IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;

  IF TG_OP = 'INSERT' THEN
    event_types := ARRAY[resource || '.created'];
  ELSIF TG_OP = 'DELETE' THEN
    event_types := ARRAY[resource || '.deleted'];
  ELSE
    IF new_row - staykit_internal.webhook_quiet_columns() = old_row - staykit_internal.webhook_quiet_columns() THEN
      RETURN NULL;
    END IF;
    -- Soft deletes (coupons, products): setting deleted_at is the deletion.
    IF new_row ? 'deleted_at' AND old_row ->> 'deleted_at' IS NULL AND new_row ->> 'deleted_at' IS NOT NULL THEN
      event_types := ARRAY[resource || '.deleted'];
    ELSE
      event_types := ARRAY[resource || '.updated'];
    END IF;
  END IF;

  INSERT INTO staykit_internal.changes (organization_id, event_type, resource, resource_id, data, prior)
  VALUES (organization, event_types[1], resource, coalesce(new_row, old_row) ->> 'id',
          CASE WHEN event_types[1] LIKE '%.deleted' THEN NULL ELSE staykit_internal.webhook_row_snapshot(new_row) END,
          staykit_internal.webhook_row_snapshot(old_row))
  RETURNING event_id INTO change_event;

  -- Most organizations have no webhook: stop before building any more JSON.
  IF NOT EXISTS (SELECT 1 FROM api.webhooks AS w WHERE w.organization_id = organization AND w.disabled_at IS NULL) THEN
    RETURN NULL;
  END IF;

  -- Semantic events: a row entering a state, by INSERT or UPDATE.
  IF resource = 'calendar_events' AND TG_OP <> 'DELETE' THEN
    IF new_row ->> 'status' = 'CONFIRMED' AND (old_row ->> 'status') IS DISTINCT FROM 'CONFIRMED' THEN
      event_types := event_types || 'calendar_events.confirmed'::text;
    ELSIF new_row ->> 'status' = 'CANCELLED' AND (old_row ->> 'status') IS DISTINCT FROM 'CANCELLED' THEN
      event_types := event_types || 'calendar_events.cancelled'::text;
    END IF;
  ELSIF resource = 'calendar_event_tasks' AND TG_OP <> 'DELETE' THEN
    IF new_row ->> 'completed_at' IS NOT NULL AND old_row ->> 'completed_at' IS NULL THEN
      event_types := event_types || 'calendar_event_tasks.completed'::text;
    END IF;
  ELSIF resource = 'payments' AND TG_OP <> 'DELETE' THEN
    IF new_row ->> 'status' = 'paid' AND (old_row ->> 'status') IS DISTINCT FROM 'paid' THEN
      event_types := event_types || 'payments.paid'::text;
    END IF;
  ELSIF resource = 'external_calendars' AND TG_OP <> 'DELETE' THEN
    -- The sync records a failure in error: a new or different message is a new failure.
    IF new_row ->> 'error' IS NOT NULL AND (old_row ->> 'error') IS DISTINCT FROM (new_row ->> 'error') THEN
      event_types := event_types || 'external_calendars.sync_failed'::text;
    END IF;
  END IF;

  payload := jsonb_build_object('new', staykit_internal.webhook_row_snapshot(new_row),
                                'old', staykit_internal.webhook_row_snapshot(old_row));
  FOREACH event_type IN ARRAY event_types LOOP
    PERFORM staykit_internal.emit_webhook_event(organization, event_type, payload, change_event);
  END LOOP;
  RETURN NULL;
END
$$;

-- The API role reads the change table under row-level security, like an api table: its organization's changes, of
-- the tables its scopes may read (staykit.readable_tables, migration 0090). Not forced: the owner (the triggers that
-- write it, the retention) is not limited.
GRANT SELECT ON staykit_internal.changes TO staykit_api;
ALTER TABLE staykit_internal.changes ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON staykit_internal.changes FOR SELECT TO staykit_api
  USING (organization_id = staykit_internal.current_organization_id());
CREATE POLICY read_scope ON staykit_internal.changes AS RESTRICTIVE FOR SELECT TO staykit_api
  USING (staykit_internal.may_read(resource));

-- The row check of SELECT on target for the current role, as SQL over target's columns: (any permissive policy) AND
-- (every restrictive one), of the policies for SELECT or ALL whose roles the current role has the privileges of —
-- exactly what PostgreSQL adds to a SELECT of the table. 'true' when the table has no row-level security.
CREATE FUNCTION staykit_internal.select_policy_check(target regclass) RETURNS text
LANGUAGE sql STABLE AS $$
  WITH applicable AS (
    SELECT p.polpermissive AS permissive, '(' || pg_get_expr(p.polqual, p.polrelid) || ')' AS qual
    FROM pg_policy AS p
    WHERE p.polrelid = target AND p.polcmd IN ('r', '*') AND p.polqual IS NOT NULL
      AND EXISTS (SELECT 1 FROM unnest(p.polroles) AS r (oid) WHERE r.oid = 0 OR pg_has_role(current_user, r.oid, 'USAGE'))
  )
  SELECT CASE WHEN NOT (SELECT c.relrowsecurity FROM pg_class AS c WHERE c.oid = target) THEN 'true'
    ELSE format('(%s) AND (%s)',
                coalesce((SELECT string_agg(qual, ' OR ') FROM applicable WHERE permissive), 'false'),
                coalesce((SELECT string_agg(qual, ' AND ') FROM applicable WHERE NOT permissive), 'true'))
  END
$$;
COMMENT ON FUNCTION staykit_internal.select_policy_check(regclass) IS
  'The row-level-security check PostgreSQL applies to a SELECT of target by the current role, as SQL text over its columns.';

-- One page of the feed as the current API transaction may read it: its organization's changes after (after_xid,
-- after_position) of the given resources (and event types), in (xid, seq) order, only those whose row version
-- passes the table's policies (see the top of this file), with data cut to the readable columns. Runs as the
-- request's role (SECURITY INVOKER): the policies and privileges are that role's. Resource names become
-- identifiers only through format's %I and to_regclass.
CREATE FUNCTION staykit_internal.readable_change_page(after_xid xid8, after_position bigint, resources text[],
                                                      event_types text[], page_size integer)
RETURNS TABLE (xid xid8, seq bigint, event_id uuid, event_type text, resource text, resource_id text,
               data jsonb, changed_at timestamptz)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  resource_name text;
  target regclass;
  hidden text[];
  checks text := '';
  shown text := '';
BEGIN
  -- Per resource: its policies' check of a row version (version.row_data), and its columns the role may not read.
  -- The policies' SQL is only ever an argument of format, never part of its format string.
  FOREACH resource_name IN ARRAY resources LOOP
    target := to_regclass(format('api.%I', resource_name));
    CONTINUE WHEN target IS NULL;
    checks := checks || format(' WHEN %L THEN (SELECT %s FROM jsonb_populate_record(NULL::%s, version.row_data) AS %I)',
                               resource_name, staykit_internal.select_policy_check(target), target, resource_name);
    hidden := staykit_internal.columns_hidden_from(current_user, target);
    IF cardinality(hidden) > 0 THEN
      shown := shown || format(' WHEN %L THEN %L::text[]', resource_name, hidden);
    END IF;
  END LOOP;
  IF checks = '' THEN
    RETURN;
  END IF;
  shown := CASE WHEN shown = '' THEN 'c.data' ELSE format('c.data - CASE c.resource %s ELSE ''{}''::text[] END', shown) END;
  RETURN QUERY EXECUTE format(
    $query$
    SELECT c.xid, c.seq, c.event_id, c.event_type, c.resource, c.resource_id,
           CASE WHEN v.after THEN %s END, c.changed_at
    FROM staykit_internal.changes AS c
    CROSS JOIN LATERAL (
      SELECT coalesce(bool_or(passed) FILTER (WHERE version.which = 'after'), false) AS after,
             coalesce(bool_or(passed) FILTER (WHERE version.which = 'before'), false) AS before
      FROM (VALUES ('after', c.data),
                   -- A tombstone recorded before `prior` existed is judged on its id and organization.
                   ('before', coalesce(c.prior, CASE WHEN c.data IS NULL
                                                     THEN jsonb_build_object('id', c.resource_id, 'organization_id', c.organization_id) END)))
             AS version (which, row_data)
      CROSS JOIN LATERAL (SELECT version.row_data IS NOT NULL AND coalesce(CASE c.resource %s END, false) AS passed) AS judged
    ) AS v
    WHERE c.organization_id = staykit_internal.current_organization_id()
      AND (c.xid, c.seq) > ($1, $2)
      AND c.xid < pg_snapshot_xmin(pg_current_snapshot())
      AND c.resource = ANY ($3)
      AND ($4 IS NULL OR c.event_type = ANY ($4))
      AND (v.after OR v.before)
    ORDER BY c.xid, c.seq
    LIMIT $5
    $query$, shown, checks)
  USING after_xid, after_position, resources, event_types, page_size;
END
$$;
COMMENT ON FUNCTION staykit_internal.readable_change_page(xid8, bigint, text[], text[], integer) IS
  'GET /v1/changes: a page of the feed as the calling API transaction may read it (row policies, readable columns).';

REVOKE ALL ON FUNCTION staykit_internal.select_policy_check(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.readable_change_page(xid8, bigint, text[], text[], integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.select_policy_check(regclass),
  staykit_internal.readable_change_page(xid8, bigint, text[], text[], integer),
  staykit_internal.columns_hidden_from(text, regclass) TO staykit_api;

-- The feed's page is no longer read as the owner.
DROP FUNCTION staykit_internal.change_page(uuid, xid8, bigint, text[], text[], integer);
