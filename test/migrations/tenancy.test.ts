/**
 * Tenant isolation: composite foreign keys keep children in their parent's organization; the API role's table
 * privileges mirror the spec's operation table; server-owned columns cannot be written; row-level security shows
 * and accepts only the request's organization and nothing without one.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { forEachBackend } from '../support/databases.js';
import { asApi, createOrganization, inRollback, rejectsWith, type Organization } from './helpers.js';

const CRUD = 'SELECT,INSERT,UPDATE,DELETE';

/** staykit_api's operations per table: the spec's operation table, and docs/design.md#resource-endpoints beyond it. */
const EXPECTED_OPERATIONS: Record<string, string> = {
  attribute_options: CRUD, attributes: CRUD, booking_details: CRUD, booking_updates: 'SELECT',
  bookings: 'SELECT,UPDATE,DELETE', calendar_event_notes: 'SELECT,INSERT', email_templates: CRUD, calendar_events: CRUD,
  external_calendars: CRUD, line_items: CRUD, site_pages: CRUD, capacity_group_dependencies: CRUD,
  review_products: CRUD, service_payment_moments: CRUD, contact_bookings: CRUD, capacity_groups: CRUD,
  review_widgets: CRUD, coupon_services: CRUD, product_message_templates: CRUD, coupons: CRUD,
  product_configurations: CRUD, products: 'SELECT,UPDATE', calendar_event_tasks: CRUD, webhooks: CRUD,
  webhook_notifications: 'SELECT',
  // Index-only collections.
  api_requests: 'SELECT', calendar_event_updates: 'SELECT', capacities: CRUD, contacts: CRUD, coupon_products: CRUD,
  coupon_uses: 'SELECT', invoices: CRUD, line_item_taxes: CRUD, members: CRUD, message_events: 'SELECT',
  message_templates: CRUD, messages: CRUD, organization_calendar_logs: 'SELECT', organizations: 'SELECT,UPDATE',
  paddle_plans: 'SELECT', paddle_subscriptions: 'SELECT', payments: CRUD, permissions: CRUD,
  price_calendar_entries: CRUD, pricelabs_pricing: CRUD, pricing_widgets: CRUD, product_attribute_options: CRUD,
  product_calendar_logs: 'SELECT', product_reply_to_addresses: CRUD, product_services: CRUD, product_taxes: CRUD,
  product_tasks: CRUD, refunds: CRUD, reply_to_addresses: CRUD, review_widget_listings: CRUD, reviews: CRUD,
  seasons: CRUD, service_options: CRUD, services: CRUD, site_listings: CRUD, site_nav_items: CRUD,
  site_views: 'SELECT', sites: CRUD, task_assignees: CRUD, task_template_assignees: CRUD, task_templates: CRUD,
  tasks: CRUD, taxes: CRUD, user_profiles: 'SELECT,UPDATE', widget_analytics: 'SELECT', widget_listings: CRUD,
  widgets: CRUD,
  // Written by POST /v1/import-booking only.
  booking_imports: 'SELECT',
  // Written by POST /v1/media only (the upload is checked and resized first).
  media: 'SELECT,DELETE',
  // Written by the inbound e-mail path only, with the file it stored.
  message_attachments: 'SELECT',
};

/** Columns a client may never write, beyond organization_id / created_at / updated_at / fts everywhere. */
const NOT_WRITABLE: [table: string, column: string, operation: 'INSERT' | 'UPDATE'][] = [
  ['bookings', 'reference', 'UPDATE'], ['bookings', 'confirmed_at', 'UPDATE'], ['bookings', 'id', 'UPDATE'],
  ['coupons', 'deleted_at', 'INSERT'], ['coupons', 'deleted_at', 'UPDATE'],
  ['calendar_events', 'generated_title', 'INSERT'], ['external_calendars', 'last_synced', 'UPDATE'],
  ['external_calendars', 'updated_at', 'UPDATE'], ['external_calendars', 'error', 'INSERT'],
  ['calendar_event_tasks', 'notification_sent_at', 'UPDATE'], ['reply_to_addresses', 'verified_at', 'UPDATE'],
  ['organizations', 'id', 'UPDATE'], ['user_profiles', 'user_id', 'UPDATE'], ['contacts', 'id', 'UPDATE'],
];

/** Columns a client may write (secrets may be supplied, and set to null to rotate them). */
const WRITABLE: [table: string, column: string, operation: 'INSERT' | 'UPDATE'][] = [
  ['contacts', 'id', 'INSERT'], ['webhooks', 'signing_secret', 'INSERT'], ['webhooks', 'signing_secret', 'UPDATE'],
  ['products', 'ical_export_secret', 'UPDATE'], ['products', 'deleted_at', 'UPDATE'], ['bookings', 'secret', 'UPDATE'],
  ['organizations', 'name', 'UPDATE'], ['organizations', 'settings', 'UPDATE'], ['organizations', 'currency', 'UPDATE'],
  ['organizations', 'language', 'UPDATE'], ['organizations', 'timezone', 'UPDATE'],
  ['external_calendars', 'sync_requested_at', 'UPDATE'],
];

forEachBackend('schema: tenancy, privileges and row-level security', (ctx) => {
  let a: Organization;
  let b: Organization;

  before(async () => {
    a = await createOrganization(ctx.db, 'A');
    b = await createOrganization(ctx.db, 'B');
  });

  it('rejects a child row pointing at another organization\'s parent (23503)', async () => {
    const cases: [table: string, columns: string, values: (a: Organization, b: Organization) => unknown[]][] = [
      ['capacities', 'product_id, capacity_group_id', (x, y) => [x.productId, y.capacityGroupId]],
      ['capacities', 'product_id, capacity_group_id', (x, y) => [y.productId, x.capacityGroupId]],
      ['product_configurations', 'product_id', (_x, y) => [y.productId]],
      ['calendar_events', 'product_id, start_date, end_date', (_x, y) => [y.productId, '2032-01-01', '2032-01-02']],
      ['calendar_events', 'product_id, booking_id, start_date, end_date',
        (x, y) => [x.productId, y.bookingId, '2032-01-01', '2032-01-02']],
      ['calendar_events', 'product_id, creator_id, start_date, end_date',
        (x, y) => [x.productId, y.userId, '2032-01-01', '2032-01-02']],
      ['booking_details', 'booking_id, name', (_x, y) => [y.bookingId, '{"default": "x"}']],
      ['booking_details', 'booking_id, service_id, name', (x, y) => [x.bookingId, y.serviceId, '{"default": "x"}']],
      ['contact_bookings', 'booking_id, contact_id', (x, y) => [x.bookingId, y.contactId]],
      ['coupon_products', 'coupon_id, product_id', (x, y) => [x.couponId, y.productId]],
      ['coupon_services', 'coupon_id, service_id', (x, y) => [y.couponId, x.serviceId]],
      ['line_items', 'booking_id, amount, name', (_x, y) => [y.bookingId, 100, '{"default": "x"}']],
      ['calendar_event_tasks', 'calendar_event_id, label, due_at', (_x, y) => [y.calendarEventId, 'Clean', '2030-06-05T10:00:00Z']],
      ['calendar_event_tasks', 'calendar_event_id, assignee_id, label, due_at',
        (x, y) => [x.calendarEventId, y.memberId, 'Clean', '2030-06-05T10:00:00Z']],
      ['webhook_notifications', 'webhook_id, event_type', (_x, y) => [y.webhookId, 'bookings.created']],
      ['product_taxes', 'product_id, tax_id', (x, y) => [x.productId, y.taxId]],
      ['external_calendars', 'product_id, ical_url', (_x, y) => [y.productId, 'https://cal.example/a.ics']],
      ['site_pages', 'site_id, slug, title', (_x, y) => [y.siteId, '{"default": "a"}', '{"default": "A"}']],
      ['widget_listings', 'widget_id, product_id', (x, y) => [y.widgetId, x.productId]],
      ['members', 'name, user_id', (_x, y) => ['Eve', y.userId]],
      ['booking_updates', 'booking_id', (_x, y) => [y.bookingId]],
      ['bookings', 'site_id', (_x, y) => [y.siteId]],
    ];
    for (const [table, columns, values] of cases) {
      const params = values(a, b);
      const placeholders = params.map((_, i) => `$${i + 2}`).join(', ');
      // Raw here and below: each statement is what is tested (foreign keys across organizations, the API role's grants and policies).
      await rejectsWith(
        inRollback(ctx.db, (tx) =>
          tx.query(`INSERT INTO api.${table} (organization_id, ${columns}) VALUES ($1, ${placeholders})`, [a.id, ...params])),
        '23503',
      );
    }
    // The same rows inside one organization are accepted (the cases fail for the right reason).
    await inRollback(ctx.db, async (tx) => {
      await tx.query(`INSERT INTO api.capacities (organization_id, product_id, capacity_group_id) VALUES ($1, $2, $3)`,
        [a.id, a.productId, a.capacityGroupId]);
      await tx.query(`INSERT INTO api.contact_bookings (organization_id, booking_id, contact_id) VALUES ($1, $2, $3)`,
        [a.id, a.bookingId, a.contactId]);
    });
  });

  it('makes every foreign key between tenant tables include organization_id', async () => {
    const { rows } = await ctx.db.query<{ name: string; columns: string[] }>(`
      SELECT con.conname AS name, array_agg(a.attname::text ORDER BY a.attname) AS columns
      FROM pg_constraint AS con
      JOIN pg_class AS child ON child.oid = con.conrelid
      JOIN pg_namespace AS n ON n.oid = child.relnamespace
      JOIN pg_class AS parent ON parent.oid = con.confrelid
      JOIN pg_attribute AS a ON a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey)
      WHERE con.contype = 'f' AND n.nspname = 'api'
        AND parent.relname NOT IN ('organizations', 'paddle_plans')
        AND child.relname NOT IN ('organizations', 'paddle_plans')
      GROUP BY con.conname`);
    assert.ok(rows.length > 80, `only ${rows.length} foreign keys`);
    const single = rows.filter((r) => !r.columns.includes('organization_id')).map((r) => r.name);
    assert.deepEqual(single, []);
  });

  it('grants staykit_api exactly the operations of docs/schema.md (methods per table)', async () => {
    const { rows } = await ctx.db.query<{ table_name: string; ops: string }>(`
      SELECT c.relname AS table_name,
             concat_ws(',',
               CASE WHEN has_any_column_privilege('staykit_api', c.oid, 'SELECT') THEN 'SELECT' END,
               CASE WHEN has_any_column_privilege('staykit_api', c.oid, 'INSERT') THEN 'INSERT' END,
               CASE WHEN has_any_column_privilege('staykit_api', c.oid, 'UPDATE') THEN 'UPDATE' END,
               CASE WHEN has_table_privilege('staykit_api', c.oid, 'DELETE') THEN 'DELETE' END) AS ops
      FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
      WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p')`);
    assert.deepEqual(Object.fromEntries(rows.map((r) => [r.table_name, r.ops])), EXPECTED_OPERATIONS);
    const { rows: keys } = await ctx.db.query<{ any: boolean }>(`
      SELECT has_table_privilege('staykit_api', 'staykit_internal.api_keys', 'SELECT')
          OR has_any_column_privilege('staykit_api', 'staykit_internal.api_keys', 'SELECT,INSERT,UPDATE') AS any`);
    assert.equal(keys[0]!.any, false);
  });

  it('never lets staykit_api write organization_id, created_at, updated_at or fts, and keeps server-owned columns', async () => {
    const { rows } = await ctx.db.query<{ name: string }>(`
      SELECT c.relname || '.' || a.attname || ':' || op AS name
      FROM pg_class AS c
      JOIN pg_namespace AS n ON n.oid = c.relnamespace
      JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      CROSS JOIN (VALUES ('INSERT'), ('UPDATE')) AS ops (op)
      WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p')
        AND a.attname IN ('organization_id', 'created_at', 'updated_at', 'fts')
        AND has_column_privilege('staykit_api', c.oid, a.attnum, op)`);
    assert.deepEqual(rows, []);
    for (const [table, column, operation] of NOT_WRITABLE) {
      const { rows: r } = await ctx.db.query<{ ok: boolean }>(
        `SELECT has_column_privilege('staykit_api', $1::regclass, $2, $3) AS ok`, [`api.${table}`, column, operation]);
      assert.equal(r[0]!.ok, false, `${table}.${column} must not be granted ${operation}`);
    }
    for (const [table, column, operation] of WRITABLE) {
      const { rows: r } = await ctx.db.query<{ ok: boolean }>(
        `SELECT has_column_privilege('staykit_api', $1::regclass, $2, $3) AS ok`, [`api.${table}`, column, operation]);
      assert.equal(r[0]!.ok, true, `${table}.${column} must be granted ${operation}`);
    }
  });

  it('refuses explicit organization_id and created_at from staykit_api (42501)', async () => {
    await rejectsWith(asApi(ctx.db, a.id, (tx) =>
      tx.query(`INSERT INTO api.capacity_groups (name, organization_id) VALUES ('{"default": "X"}', $1)`, [a.id])), '42501');
    await rejectsWith(asApi(ctx.db, a.id, (tx) =>
      tx.query(`INSERT INTO api.capacity_groups (name, created_at) VALUES ('{"default": "X"}', now())`)), '42501');
    await rejectsWith(asApi(ctx.db, a.id, (tx) =>
      tx.query(`UPDATE api.capacity_groups SET organization_id = $1`, [b.id])), '42501');
    await rejectsWith(asApi(ctx.db, a.id, (tx) => tx.query(`UPDATE api.bookings SET reference = 'AAA-AAAA'`)), '42501');
    await rejectsWith(asApi(ctx.db, a.id, (tx) => tx.query(`INSERT INTO api.bookings DEFAULT VALUES`)), '42501');
    await rejectsWith(asApi(ctx.db, a.id, (tx) => tx.query(`SELECT * FROM staykit_internal.api_keys`)), '42501');
    await rejectsWith(asApi(ctx.db, a.id, (tx) => tx.query(`INSERT INTO api.booking_updates (booking_id) VALUES ($1)`,
      [a.bookingId])), '42501');
  });

  it('shows only the request organization\'s rows and fills organization_id from the setting', async () => {
    const counts = await asApi(ctx.db, a.id, async (tx) => {
      const products = await tx.query<{ organization_id: string }>(`SELECT organization_id FROM api.products`);
      const orgs = await tx.query<{ id: string }>(`SELECT id FROM api.organizations`);
      const inserted = await tx.query<{ organization_id: string }>(
        `INSERT INTO api.capacity_groups (name) VALUES ('{"default": "Dogs"}') RETURNING organization_id`);
      const cross = await tx.query(`SELECT 1 FROM api.bookings WHERE id = $1`, [b.bookingId]);
      const updated = await tx.query(`UPDATE api.products SET cooldown_time = 3 WHERE id = $1`, [b.productId]);
      const deleted = await tx.query(`DELETE FROM api.capacity_groups WHERE id = $1`, [b.capacityGroupId]);
      return { products: products.rows, orgs: orgs.rows, inserted: inserted.rows[0]!, cross: cross.rows.length,
        updated: updated.rowCount, deleted: deleted.rowCount };
    });
    assert.equal(counts.products.length, 2);
    assert.ok(counts.products.every((p) => p.organization_id === a.id));
    assert.deepEqual(counts.orgs, [{ id: a.id }]);
    assert.equal(counts.inserted.organization_id, a.id);
    assert.equal(counts.cross, 0);
    assert.equal(counts.updated, 0);
    assert.equal(counts.deleted, 0);
    const { rows } = await ctx.db.query<{ cooldown_time: number }>(`SELECT cooldown_time FROM api.products WHERE id = $1`, [b.productId]);
    assert.equal(rows[0]!.cooldown_time, 0);
  });

  it('rejects writing a row into another organization even when the column is writable (RLS WITH CHECK)', async () => {
    await rejectsWith(inRollback(ctx.db, async (tx) => {
      await tx.query(`GRANT INSERT (organization_id) ON api.capacity_groups TO staykit_api`);
      await tx.query(`SET LOCAL ROLE staykit_api`);
      await tx.query(`SELECT set_config('staykit.organization_id', $1, true)`, [a.id]);
      await tx.query(`INSERT INTO api.capacity_groups (name, organization_id) VALUES ('{"default": "X"}', $1)`, [b.id]);
    }), '42501', /row-level security/);
    await rejectsWith(inRollback(ctx.db, async (tx) => {
      await tx.query(`GRANT UPDATE (organization_id) ON api.capacity_groups TO staykit_api`);
      await tx.query(`SET LOCAL ROLE staykit_api`);
      await tx.query(`SELECT set_config('staykit.organization_id', $1, true)`, [a.id]);
      await tx.query(`UPDATE api.capacity_groups SET organization_id = $1 WHERE id = $2`, [b.id, a.capacityGroupId]);
    }), '42501', /row-level security/);
  });

  it('shows nothing without an organization setting, and refuses inserts', async () => {
    const result = await asApi(ctx.db, null, async (tx) => {
      const tables = Object.keys(EXPECTED_OPERATIONS).filter((t) => t !== 'paddle_plans');
      let visible = 0;
      for (const table of tables) visible += (await tx.query(`SELECT 1 FROM api.${table} LIMIT 1`)).rows.length;
      return visible;
    });
    assert.equal(result, 0);
    await rejectsWith(asApi(ctx.db, null, (tx) =>
      tx.query(`INSERT INTO api.capacity_groups (name) VALUES ('{"default": "X"}')`)), '42501', /row-level security/);
  });

  it('enables and forces row-level security with a policy on every tenant table', async () => {
    const { rows } = await ctx.db.query<{ table_name: string }>(`
      SELECT c.relname AS table_name
      FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
      WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p') AND c.relname <> 'paddle_plans'
        AND NOT (c.relrowsecurity AND c.relforcerowsecurity
                 AND EXISTS (SELECT 1 FROM pg_policy AS p WHERE p.polrelid = c.oid AND p.polname = 'tenant_isolation'))`);
    assert.deepEqual(rows, []);
  });
});
