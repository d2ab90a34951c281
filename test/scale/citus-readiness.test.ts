/**
 * The schema's Citus prerequisites, read from the catalog (docs/scaling.md#citus): every table either carries
 * organization_id (distributed on it) or is one of the named global tables (reference tables, or local to the
 * coordinator); every primary key, unique and exclusion constraint of a tenant table includes organization_id,
 * apart from the named exceptions, each with its plan in docs/scaling.md; no foreign key joins two tenant tables
 * without organization_id on both sides; no global table references a distributed one. A new table or constraint
 * that breaks a rule fails here until the plan says what becomes of it. What Citus itself would say is not tested
 * (no Citus on this machine): see docs/scaling.md#what-was-not-tested.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { forEachBackend } from '../support/databases.js';

/** Tables without organization_id, and what they become (docs/scaling.md). */
const GLOBAL_TABLES: Record<string, string> = {
  'api.organizations': 'distributed on id, the colocation anchor of every tenant table',
  'api.paddle_plans': 'reference table',
  'staykit_internal.users': 'reference table',
  'staykit_internal.password_tokens': 'reference table',
  'staykit_internal.webhook_event_types': 'reference table (the webhook event catalogue, the same for every organization)',
  'staykit_internal.api_access': 'reference table (the API role\'s grant rules, read by create_product; migration 0221)',
  'staykit_internal.report_days': 'reference table (the calendar of days the report views count; migration 0240)',
  'staykit_internal.report_months': 'reference table (the calendar of months the report views count; migration 0240)',
  'staykit_internal.migrations': 'local to the coordinator',
};

/** Tenant tables' constraints without organization_id: the changes or reference tables docs/scaling.md plans. */
const KNOWN_EXCEPTIONS = [
  'api.paddle_subscriptions: UNIQUE (paddle_subscription_id)',
  'staykit_internal.api_keys: PRIMARY KEY (id)',
  'staykit_internal.api_keys: UNIQUE (key_id)',
  'staykit_internal.automation_jobs: PRIMARY KEY (id)',
  'staykit_internal.automation_jobs: UNIQUE INDEX staykit_internal.automation_jobs_delivery_unique',
  'staykit_internal.automation_jobs: UNIQUE INDEX staykit_internal.automation_jobs_moment_unique',
  'staykit_internal.automation_jobs: UNIQUE INDEX staykit_internal.automation_jobs_task_unique',
  'staykit_internal.publishable_keys: PRIMARY KEY (id)',
  'staykit_internal.publishable_keys: UNIQUE (key)',
  'staykit_internal.sessions: PRIMARY KEY (id)',
  'staykit_internal.sessions: UNIQUE (token_hash)',
  'staykit_internal.webhook_queue: PRIMARY KEY (notification_id)',
];

/** Tenant tables that become reference tables (looked up by a global secret before the organization is known). */
const TENANT_REFERENCE_TABLES = ['staykit_internal.api_keys', 'staykit_internal.publishable_keys', 'staykit_internal.sessions'];

const TABLES = `
  SELECT c.oid, n.nspname || '.' || c.relname AS name,
         EXISTS (SELECT 1 FROM pg_attribute AS a WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped) AS tenant
  FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
  WHERE n.nspname IN ('api', 'staykit_internal') AND c.relkind IN ('r', 'p') AND NOT c.relispartition`;

forEachBackend('Citus readiness of the schema', (ctx) => {
  it('names every table without organization_id', async () => {
    const { rows } = await ctx.db.query<{ name: string }>(`SELECT name FROM (${TABLES}) AS t WHERE NOT tenant ORDER BY 1`);
    assert.deepEqual(rows.map((row) => row.name), Object.keys(GLOBAL_TABLES).sort());
  });

  it('includes organization_id in every primary key, unique and exclusion constraint of a tenant table, but the planned exceptions', async () => {
    const { rows } = await ctx.db.query<{ violation: string }>(`
      SELECT t.name || ': ' || pg_get_constraintdef(con.oid) AS violation
      FROM (${TABLES}) AS t JOIN pg_constraint AS con ON con.conrelid = t.oid
      WHERE t.tenant AND con.contype IN ('p', 'u', 'x')
        AND NOT EXISTS (SELECT 1 FROM pg_attribute AS a WHERE a.attrelid = t.oid AND a.attname = 'organization_id' AND a.attnum = ANY (con.conkey))
      UNION ALL
      SELECT t.name || ': UNIQUE INDEX ' || i.indexrelid::regclass::text
      FROM (${TABLES}) AS t JOIN pg_index AS i ON i.indrelid = t.oid
      WHERE t.tenant AND i.indisunique AND NOT EXISTS (SELECT 1 FROM pg_constraint AS con WHERE con.conindid = i.indexrelid)
        AND NOT EXISTS (SELECT 1 FROM pg_attribute AS a WHERE a.attrelid = t.oid AND a.attname = 'organization_id' AND a.attnum = ANY (i.indkey))
      ORDER BY 1`);
    assert.deepEqual(rows.map((row) => row.violation), KNOWN_EXCEPTIONS);
  });

  it('keeps the no-overlap exclusion constraint on organization_id with =', async () => {
    const { rows } = await ctx.db.query<{ definition: string }>(
      `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'calendar_events_no_overlap'`);
    assert.match(rows[0]!.definition, /organization_id WITH =/);
  });

  it('has no foreign key between tenant tables without organization_id on both sides', async () => {
    const { rows } = await ctx.db.query<{ violation: string }>(`
      SELECT f.name || ' -> ' || r.name || ': ' || pg_get_constraintdef(con.oid) AS violation
      FROM pg_constraint AS con
      JOIN (${TABLES}) AS f ON f.oid = con.conrelid
      JOIN (${TABLES}) AS r ON r.oid = con.confrelid
      WHERE con.contype = 'f' AND con.conparentid = 0 AND f.tenant AND r.tenant
        AND f.name <> ALL ($1) AND r.name <> ALL ($1)
        AND NOT EXISTS (
          SELECT 1 FROM generate_subscripts(con.conkey, 1) AS i
          WHERE (SELECT attname FROM pg_attribute WHERE attrelid = con.conrelid AND attnum = con.conkey[i]) = 'organization_id'
            AND (SELECT attname FROM pg_attribute WHERE attrelid = con.confrelid AND attnum = con.confkey[i]) = 'organization_id')
      ORDER BY 1`, [TENANT_REFERENCE_TABLES]);
    assert.deepEqual(rows.map((row) => row.violation), []);
  });

  it('has no foreign key from a global table to a distributed one', async () => {
    const { rows } = await ctx.db.query<{ violation: string }>(`
      SELECT f.name || ' -> ' || r.name AS violation
      FROM pg_constraint AS con
      JOIN (${TABLES}) AS f ON f.oid = con.conrelid
      JOIN (${TABLES}) AS r ON r.oid = con.confrelid
      WHERE con.contype = 'f' AND con.conparentid = 0 AND NOT f.tenant AND f.name <> 'api.organizations'
        AND (r.tenant OR r.name = 'api.organizations') AND r.name <> ALL ($1)
      ORDER BY 1`, [TENANT_REFERENCE_TABLES]);
    assert.deepEqual(rows.map((row) => row.violation), []);
  });

  it('docs/scaling.md plans every global table and every exception', () => {
    const plan = readFileSync('docs/scaling.md', 'utf8');
    const missing = [...Object.keys(GLOBAL_TABLES), ...TENANT_REFERENCE_TABLES, ...KNOWN_EXCEPTIONS.map((entry) => entry.split(':')[0]!)]
      .filter((table) => !plan.includes(`\`${table}\``));
    assert.deepEqual(missing, []);
  });
});
