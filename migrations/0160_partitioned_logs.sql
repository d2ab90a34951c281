-- The append-only logs are partitioned by month of created_at (native range partitioning), so old months leave as
-- whole partitions (a DROP, no DELETE, no bloat) and reads by created_at touch only the months they ask for. The
-- partitions are created ahead and dropped after each table's retention by staykit_internal.maintain_log_partitions,
-- run by the background workers (src/partitions). See docs/scaling.md#partitioned-logs.
--
-- A partitioned table's primary key and unique constraints must include the partition key: the primary key becomes
-- (id, organization_id, created_at), which also replaces UNIQUE (id, organization_id) (ids are random UUIDs). The one
-- reference into these tables, webhook_queue -> webhook_notifications, therefore carries the notification's
-- created_at too. Everything else about each table (columns, defaults, checks, comments, indexes, foreign keys,
-- triggers, row-level security, policies, privileges) is copied from the table it replaces, and so are its rows.

CREATE SCHEMA staykit_partitions;
COMMENT ON SCHEMA staykit_partitions IS
  'Monthly partitions of the logs (<table>_pYYYY_MM, and <table>_default for rows outside every month). Only the '
  'owner uses them: the API reads through the parent tables in api, with their privileges and row-level security.';
REVOKE ALL ON SCHEMA staykit_partitions FROM PUBLIC;

-- The logs partitioned by month: the names the maintenance accepts.
CREATE FUNCTION staykit_internal.partitioned_logs() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY['api_requests', 'webhook_notifications', 'calendar_event_updates', 'booking_updates', 'message_events']
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- The queue's reference to its notification includes the notification's created_at.

ALTER TABLE staykit_internal.webhook_queue DROP CONSTRAINT webhook_queue_notification_id_fkey;
ALTER TABLE staykit_internal.webhook_queue ADD COLUMN notification_created_at timestamptz;
UPDATE staykit_internal.webhook_queue AS q SET notification_created_at = n.created_at
FROM api.webhook_notifications AS n WHERE n.id = q.notification_id AND n.organization_id = q.organization_id;
ALTER TABLE staykit_internal.webhook_queue ALTER COLUMN notification_created_at SET NOT NULL;
COMMENT ON COLUMN staykit_internal.webhook_queue.notification_created_at IS
  'created_at of the notification: part of the reference to the partitioned webhook_notifications (filled in).';

-- Whoever queues a notification names it by id; its created_at is looked up here, so they need not know.
CREATE FUNCTION staykit_internal.webhook_queue_notification_created_at() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NEW.notification_created_at IS NULL THEN
    SELECT n.created_at INTO NEW.notification_created_at FROM api.webhook_notifications AS n
    WHERE n.id = NEW.notification_id AND n.organization_id = NEW.organization_id;
  END IF;
  RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION staykit_internal.webhook_queue_notification_created_at() FROM PUBLIC;
CREATE TRIGGER webhook_queue_notification_created_at BEFORE INSERT ON staykit_internal.webhook_queue
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.webhook_queue_notification_created_at();

-- ---------------------------------------------------------------------------------------------------------------
-- Partitions.

-- The partition of `log_table` for the month starting `month` (UTC), created if missing: rows of that month that
-- went to the default partition meanwhile move into it. Returns whether it was created.
CREATE FUNCTION staykit_internal.create_log_partition(log_table text, month date) RETURNS boolean
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  name constant text := format('%s_p%s', log_table, to_char(month, 'YYYY_MM'));
  lower_bound constant timestamptz := month::timestamp AT TIME ZONE 'UTC';
  upper_bound constant timestamptz := (month + interval '1 month') AT TIME ZONE 'UTC';
BEGIN
  IF NOT log_table = ANY (staykit_internal.partitioned_logs()) THEN
    RAISE EXCEPTION '% is not a partitioned log', log_table USING ERRCODE = '22023';
  END IF;
  IF extract(day FROM month) <> 1 THEN
    RAISE EXCEPTION 'a partition starts on the first of a month, not %', month USING ERRCODE = '22023';
  END IF;
  IF to_regclass(format('staykit_partitions.%I', name)) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE staykit_partitions.%I (LIKE api.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name, log_table);
  EXECUTE format(
    'WITH moved AS (DELETE FROM staykit_partitions.%I WHERE created_at >= $1 AND created_at < $2 RETURNING *) '
    'INSERT INTO staykit_partitions.%I SELECT * FROM moved', log_table || '_default', name)
  USING lower_bound, upper_bound;
  EXECUTE format('ALTER TABLE api.%I ATTACH PARTITION staykit_partitions.%I FOR VALUES FROM (%L) TO (%L)',
    log_table, name, lower_bound, upper_bound);
  RETURN true;
END
$$;

-- Drops the partition of `log_table` for the month starting `month`. Queued deliveries of notifications in it go
-- first (a notification that old is long past its last retry): the queue's reference would otherwise keep it.
CREATE FUNCTION staykit_internal.drop_log_partition(log_table text, month date) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  name constant text := format('%s_p%s', log_table, to_char(month, 'YYYY_MM'));
BEGIN
  IF NOT log_table = ANY (staykit_internal.partitioned_logs()) THEN
    RAISE EXCEPTION '% is not a partitioned log', log_table USING ERRCODE = '22023';
  END IF;
  IF log_table = 'webhook_notifications' THEN
    DELETE FROM staykit_internal.webhook_queue
    WHERE notification_created_at >= month::timestamp AT TIME ZONE 'UTC'
      AND notification_created_at < (month + interval '1 month') AT TIME ZONE 'UTC';
  END IF;
  EXECUTE format('ALTER TABLE api.%I DETACH PARTITION staykit_partitions.%I', log_table, name);
  EXECUTE format('DROP TABLE staykit_partitions.%I', name);
END
$$;

-- The months of `log_table` that have a partition, oldest first.
CREATE FUNCTION staykit_internal.log_partition_months(log_table text) RETURNS SETOF date
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT to_date(substring(c.relname FROM '_p(\d{4}_\d{2})$'), 'YYYY_MM') AS month
  FROM pg_inherits AS i
  JOIN pg_class AS c ON c.oid = i.inhrelid
  JOIN pg_namespace AS n ON n.oid = c.relnamespace
  WHERE i.inhparent = format('api.%I', log_table)::regclass AND n.nspname = 'staykit_partitions'
    AND c.relname ~ '_p\d{4}_\d{2}$'
  ORDER BY 1
$$;

-- The maintenance: for every partitioned log, the partitions from the month of `clock` to `months_ahead` months later
-- exist, and a partition whose every row is older than the table's retention (`retention`: {"table": months}, 0 or
-- absent = for ever) is dropped, as are such rows in the default partition. One caller at a time (the others return
-- at once, doing nothing). Returns what it did, one row per partition created or dropped.
CREATE FUNCTION staykit_internal.maintain_log_partitions(clock timestamptz, months_ahead integer, retention jsonb)
RETURNS TABLE (log_table text, month date, action text)
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  current_month constant date := date_trunc('month', clock AT TIME ZONE 'UTC')::date;
  keep_months integer;
  cutoff timestamptz;
  m date;
BEGIN
  IF months_ahead < 0 THEN
    RAISE EXCEPTION 'months_ahead must not be negative' USING ERRCODE = '22023';
  END IF;
  -- Any fixed number: concurrent maintenance would only collide on CREATE TABLE.
  IF NOT pg_try_advisory_xact_lock(7242160) THEN
    RETURN;
  END IF;
  FOREACH log_table IN ARRAY staykit_internal.partitioned_logs() LOOP
    FOR i IN 0..months_ahead LOOP
      m := (current_month + make_interval(months => i))::date;
      IF staykit_internal.create_log_partition(log_table, m) THEN
        month := m;
        action := 'created';
        RETURN NEXT;
      END IF;
    END LOOP;
    keep_months := coalesce((retention ->> log_table)::integer, 0);
    CONTINUE WHEN keep_months <= 0;
    cutoff := clock - make_interval(months => keep_months);
    FOR m IN SELECT p.month FROM staykit_internal.log_partition_months(log_table) AS p(month) LOOP
      EXIT WHEN ((m + interval '1 month') AT TIME ZONE 'UTC') > cutoff;
      PERFORM staykit_internal.drop_log_partition(log_table, m);
      month := m;
      action := 'dropped';
      RETURN NEXT;
    END LOOP;
    EXECUTE format('DELETE FROM staykit_partitions.%I WHERE created_at < $1', log_table || '_default') USING cutoff;
  END LOOP;
END
$$;

REVOKE ALL ON FUNCTION staykit_internal.create_log_partition(text, date) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.drop_log_partition(text, date) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.log_partition_months(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION staykit_internal.maintain_log_partitions(timestamptz, integer, jsonb) FROM PUBLIC;

-- ---------------------------------------------------------------------------------------------------------------
-- The conversion of one log, used once below.

CREATE FUNCTION staykit_internal.partition_log_by_month(log_table text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  old_name constant text := log_table || '_unpartitioned';
  parent constant text := format('api.%I', log_table);
  old regclass;
  columns text;
  first_month date;
  r record;
BEGIN
  EXECUTE format('ALTER TABLE api.%I SET SCHEMA staykit_internal', log_table);
  EXECUTE format('ALTER TABLE staykit_internal.%I RENAME TO %I', log_table, old_name);
  old := format('staykit_internal.%I', old_name)::regclass;

  IF EXISTS (
    SELECT 1 FROM pg_index AS i WHERE i.indrelid = old AND i.indisunique AND NOT i.indisprimary
      AND (SELECT array_agg(a.attname::text ORDER BY a.attname) FROM pg_attribute AS a
           WHERE a.attrelid = old AND a.attnum = ANY (i.indkey)) <> ARRAY['id', 'organization_id']
  ) THEN
    RAISE EXCEPTION '% has a unique constraint this migration does not know how to partition', log_table;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_constraint WHERE confrelid = old AND conrelid <> 'staykit_internal.webhook_queue'::regclass) THEN
    RAISE EXCEPTION '% is referenced by a foreign key this migration does not know about', log_table;
  END IF;

  EXECUTE format('CREATE TABLE %s (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMMENTS INCLUDING STORAGE) '
    'PARTITION BY RANGE (created_at)', parent, old);
  EXECUTE format('ALTER TABLE %s ADD PRIMARY KEY (id, organization_id, created_at)', parent);
  EXECUTE format('COMMENT ON TABLE %s IS %L', parent, obj_description(old, 'pg_class'));

  -- Partitions for every month with rows, up to three months ahead; then the rows.
  EXECUTE format('CREATE TABLE staykit_partitions.%I PARTITION OF %s DEFAULT', log_table || '_default', parent);
  EXECUTE format('SELECT date_trunc(''month'', min(created_at) AT TIME ZONE ''UTC'')::date FROM %s', old) INTO first_month;
  first_month := least(coalesce(first_month, current_date), date_trunc('month', now() AT TIME ZONE 'UTC')::date);
  WHILE first_month <= (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months')::date LOOP
    PERFORM staykit_internal.create_log_partition(log_table, first_month);
    first_month := (first_month + interval '1 month')::date;
  END LOOP;
  SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO columns
  FROM pg_attribute WHERE attrelid = old AND attnum > 0 AND NOT attisdropped;
  EXECUTE format('INSERT INTO %s (%s) SELECT %s FROM %s', parent, columns, columns, old);

  -- Indexes (the primary key and UNIQUE (id, organization_id) are replaced by the new primary key).
  FOR r IN SELECT pg_get_indexdef(i.indexrelid) AS definition FROM pg_index AS i
           WHERE i.indrelid = old AND NOT i.indisunique AND NOT i.indisprimary LOOP
    EXECUTE regexp_replace(r.definition, ' ON staykit_internal\.\S+ USING ', format(' ON %s USING ', parent));
  END LOOP;
  -- Reads by created_at within an organization (the API's log views) use an index of their own.
  IF NOT EXISTS (
    SELECT 1 FROM pg_index AS i WHERE i.indrelid = old AND i.indnatts = 2
      AND (SELECT attname FROM pg_attribute WHERE attrelid = old AND attnum = i.indkey[0]) = 'organization_id'
      AND (SELECT attname FROM pg_attribute WHERE attrelid = old AND attnum = i.indkey[1]) = 'created_at'
  ) THEN
    EXECUTE format('CREATE INDEX %I ON %s (organization_id, created_at)', log_table || '_organization_id_created_at_idx', parent);
  END IF;

  -- Foreign keys out, triggers.
  FOR r IN SELECT conname, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = old AND contype = 'f' LOOP
    EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', parent, r.conname, r.definition);
  END LOOP;
  FOR r IN SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE tgrelid = old AND NOT tgisinternal LOOP
    EXECUTE regexp_replace(r.definition, ' ON staykit_internal\.\S+ ', format(' ON %s ', parent));
  END LOOP;

  -- Row-level security, policies and privileges, as they were.
  IF (SELECT relrowsecurity FROM pg_class WHERE oid = old) THEN
    EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', parent);
  END IF;
  IF (SELECT relforcerowsecurity FROM pg_class WHERE oid = old) THEN
    EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', parent);
  END IF;
  FOR r IN SELECT * FROM pg_policies WHERE schemaname = 'staykit_internal' AND tablename = old_name LOOP
    EXECUTE format('CREATE POLICY %I ON %s AS %s FOR %s TO %s%s%s', r.policyname, parent, r.permissive, r.cmd,
      (SELECT string_agg(CASE WHEN role = 'public' THEN 'PUBLIC' ELSE quote_ident(role) END, ', ') FROM unnest(r.roles) AS role),
      CASE WHEN r.qual IS NULL THEN '' ELSE format(' USING (%s)', r.qual) END,
      CASE WHEN r.with_check IS NULL THEN '' ELSE format(' WITH CHECK (%s)', r.with_check) END);
  END LOOP;
  FOR r IN SELECT a.grantee, a.privilege_type, a.is_grantable FROM pg_class AS c, aclexplode(c.relacl) AS a
           WHERE c.oid = old AND a.grantee <> c.relowner LOOP
    EXECUTE format('GRANT %s ON %s TO %s%s', r.privilege_type, parent,
      CASE WHEN r.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(r.grantee)) END,
      CASE WHEN r.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
  END LOOP;
  FOR r IN SELECT at.attname, a.grantee, a.privilege_type FROM pg_attribute AS at, aclexplode(at.attacl) AS a
           WHERE at.attrelid = old AND at.attacl IS NOT NULL LOOP
    EXECUTE format('GRANT %s (%I) ON %s TO %s', r.privilege_type, r.attname, parent,
      CASE WHEN r.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(r.grantee)) END);
  END LOOP;

  IF log_table = 'webhook_notifications' THEN
    ALTER TABLE staykit_internal.webhook_queue
      ADD CONSTRAINT webhook_queue_notification_id_fkey FOREIGN KEY (notification_id, organization_id, notification_created_at)
        REFERENCES api.webhook_notifications (id, organization_id, created_at) ON DELETE CASCADE;
  END IF;
  EXECUTE format('DROP TABLE %s', old);
END
$$;

SELECT staykit_internal.partition_log_by_month(t) FROM unnest(staykit_internal.partitioned_logs()) AS t;
DROP FUNCTION staykit_internal.partition_log_by_month(text);
