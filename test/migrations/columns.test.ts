/**
 * Every resource of the spec exists in schema `api` with every field the spec lists, in the type it gives; every
 * collection the spec only names exists too; the conventions hold on every table (uuid id with a default,
 * created_at, organization_id on tenant tables, fts generated, comments for the spec's resources); and the
 * fields a client must give on POST are exactly the documented ones.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend } from '../support/databases.js';
import { fixtures, organization } from '../support/fixtures.js';

const UUID = 'uuid';
const TS = 'timestamp with time zone';
const TEXT = 'text';
const JSONB = 'jsonb';
const BOOL = 'boolean';
const INT = 'integer';
const FTS = 'tsvector';

/** The spec's resources, field by field (MultiLanguageString, Currency, Language and SiteNode as stored). */
const SPEC_COLUMNS: Record<string, Record<string, string>> = {
  attribute_options: { id: UUID, attribute_id: UUID, created_at: TS, name: JSONB, order: INT },
  attributes: { id: UUID, organization_id: UUID, created_at: TS, name: JSONB, order: INT, type: TEXT },
  booking_details: {
    id: UUID, booking_id: UUID, option_id: UUID, service_id: UUID, created_at: TS, updated_at: TS,
    attachment: TEXT, description: JSONB, name: JSONB, value: TEXT,
  },
  booking_updates: { id: UUID, booking_id: UUID, user_id: UUID, created_at: TS },
  bookings: {
    id: UUID, organization_id: UUID, site_id: UUID, widget_id: UUID, created_at: TS, updated_at: TS,
    confirmed_at: TS, currency: TEXT, display_currency: TEXT, exchange_rate: 'real', fts: FTS, method: TEXT,
    occupancy: JSONB, reference: TEXT, secret: TEXT, silent: BOOL,
  },
  calendar_event_notes: {
    id: UUID, author_id: UUID, calendar_event_id: UUID, created_at: TS, updated_at: TS, note: TEXT,
  },
  email_templates: {
    id: UUID, organization_id: UUID, created_at: TS, updated_at: TS, attachments: JSONB, body: JSONB, fts: FTS,
    include_booking_details: BOOL, include_booking_link: BOOL, include_ical_data: BOOL, include_product_image: BOOL,
    moment: JSONB, past_schedule_behavior: TEXT, status: TEXT, subject: JSONB, time: 'time without time zone',
    trigger: TEXT, type: TEXT, payment_due_offset: INT,
  },
  calendar_events: {
    id: UUID, booking_id: UUID, calendar_id: UUID, creator_id: UUID, product_id: UUID, created_at: TS,
    updated_at: TS, start_date: 'date', end_date: 'date', fts: FTS, generated_title: TEXT, notes: TEXT,
    origin: TEXT, padding: 'smallint', status: TEXT, title: TEXT, type: TEXT, uid: TEXT,
  },
  external_calendars: {
    id: UUID, product_id: UUID, created_at: TS, updated_at: TS, active: BOOL, error: TEXT, ical_url: TEXT,
    last_synced: TS, name: TEXT, sync_requested_at: TS, time_offset: INT, tld: TEXT, update_fields: 'text[]',
  },
  line_items: {
    id: UUID, booking_id: UUID, invoice_id: UUID, service_id: UUID, created_at: TS, updated_at: TS, amount: INT,
    fee_type: TEXT, item_type: TEXT, name: JSONB, quantity: INT,
  },
  site_pages: {
    id: UUID, site_id: UUID, created_at: TS, updated_at: TS, custom_html: TEXT, description: JSONB, node: JSONB,
    slug: JSONB, status: TEXT, title: JSONB,
  },
  capacity_group_dependencies: { id: UUID, accumulator_id: UUID, element_id: UUID, created_at: TS },
  review_products: { id: UUID, product_id: UUID, review_id: UUID, created_at: TS },
  service_payment_moments: {
    id: UUID, service_id: UUID, created_at: TS, updated_at: TS, moment: JSONB, value: JSONB,
  },
  contact_bookings: { id: UUID, booking_id: UUID, contact_id: UUID, created_at: TS },
  capacity_groups: {
    id: UUID, organization_id: UUID, created_at: TS, updated_at: TS, description: JSONB, name: JSONB,
    name_singular: JSONB, order: INT, requires_explicit_input: BOOL, type: TEXT,
  },
  review_widgets: {
    id: UUID, organization_id: UUID, created_at: TS, updated_at: TS, color_background: TEXT, color_primary: TEXT,
    color_text: TEXT, font: TEXT, fts: FTS, language: TEXT, layout: TEXT, number_of_items: INT, show_branding: BOOL,
    title: TEXT,
  },
  coupon_services: { id: UUID, coupon_id: UUID, service_id: UUID, created_at: TS },
  product_message_templates: {
    id: UUID, message_template_id: UUID, product_id: UUID, created_at: TS, order: INT,
  },
  coupons: {
    id: UUID, organization_id: UUID, created_at: TS, updated_at: TS, deleted_at: TS, code: TEXT, definition: JSONB,
    description: TEXT, fts: FTS, quota: INT, scope: TEXT, stackable: BOOL,
  },
  product_configurations: {
    id: UUID, product_id: UUID, created_at: TS, updated_at: TS, check_in_days: 'boolean[]',
    checkout_days: 'boolean[]', color: TEXT, cooldown_time: INT, early_bird_adjustments: JSONB, fts: FTS,
    intervals: 'datemultirange', last_minute_adjustments: JSONB, long_rent_adjustments: JSONB, max_advance: INT,
    max_duration: INT, min_advance: INT, min_duration: INT, name: JSONB, order: INT, rates: JSONB,
  },
  products: {
    id: UUID, ac_id: TEXT, organization_id: UUID, parent_id: UUID, created_at: TS, updated_at: TS, deleted_at: TS,
    approximate_address: TEXT, approximate_coordinates: JSONB, cancel_after_initial_payment_error: BOOL,
    confirm_after_initial_payment: BOOL, confirmation_message: JSONB, cooldown_time: INT, cta: JSONB,
    currency: TEXT, description: JSONB, exact_address: TEXT, exact_coordinates: JSONB, fts: FTS,
    hide_exact_address: BOOL, ical_export_secret: TEXT, ical_export_secret_no_details: TEXT, images: 'json',
    interaction: TEXT, latest_arrival_time: 'time without time zone', name: JSONB,
    price_breakdown_specificity: TEXT, rent_period: TEXT, rent_pricing_definition: TEXT, request_status: TEXT,
    timezone: TEXT,
  },
  calendar_event_tasks: {
    id: UUID, assignee_id: UUID, calendar_event_id: UUID, product_task_id: UUID, created_at: TS, updated_at: TS,
    completed_at: TS, due_at: TS, label: TEXT, notification_sent_at: TS, schedule: TEXT,
  },
  webhooks: {
    id: UUID, organization_id: UUID, created_at: TS, updated_at: TS, description: TEXT, endpoint: TEXT,
    events: 'text[]', signing_secret: TEXT, source: TEXT,
  },
  webhook_notifications: {
    id: UUID, webhook_id: UUID, created_at: TS, updated_at: TS, event_type: TEXT, payload: JSONB, response: TEXT,
    status: TEXT, tries: INT,
  },
};

/** Collections the spec only names in its resource index, plus the three the schema needs besides. */
const INDEX_ONLY = [
  'api_requests', 'calendar_event_updates', 'capacities', 'contacts', 'coupon_products', 'coupon_uses', 'invoices',
  'line_item_taxes', 'members', 'message_events', 'message_templates', 'messages', 'organization_calendar_logs',
  'organizations', 'paddle_plans', 'paddle_subscriptions', 'payments', 'permissions', 'price_calendar_entries',
  'pricelabs_pricing', 'pricing_widgets', 'product_attribute_options', 'product_calendar_logs',
  'product_reply_to_addresses', 'product_services', 'refunds', 'reply_to_addresses', 'review_widget_listings',
  'reviews', 'seasons', 'services', 'site_listings', 'site_nav_items', 'site_views', 'sites', 'task_assignees',
  'task_template_assignees', 'task_templates', 'tasks', 'taxes', 'user_profiles', 'widget_analytics',
  'widget_listings', 'widgets', 'product_tasks', 'service_options', 'product_taxes', 'booking_imports',
  'media', 'message_attachments',
];

/** Not tenant-owned: the tenants themselves and the global plan catalogue. */
const GLOBAL_TABLES = new Set(['organizations', 'paddle_plans']);

/** NOT NULL columns without a default: what a client must give on POST (docs/schema.md). */
const REQUIRED_ON_CREATE: Record<string, string[]> = {
  api_requests: ['method', 'path', 'status'],
  attribute_options: ['attribute_id', 'name'],
  attributes: ['name'],
  booking_details: ['booking_id', 'name'],
  booking_updates: ['booking_id'],
  bookings: [],
  calendar_event_notes: ['calendar_event_id', 'note'],
  calendar_event_tasks: ['calendar_event_id', 'due_at', 'label'],
  calendar_event_updates: ['calendar_event_id', 'kind', 'snapshot'],
  calendar_events: ['product_id', 'start_date', 'end_date'],
  capacities: ['product_id', 'capacity_group_id'],
  capacity_group_dependencies: ['accumulator_id', 'element_id'],
  capacity_groups: ['name'],
  contact_bookings: ['booking_id', 'contact_id'],
  contacts: [],
  coupon_products: ['coupon_id', 'product_id'],
  coupon_services: ['coupon_id', 'service_id'],
  coupon_uses: ['coupon_id', 'booking_id'],
  coupons: ['code', 'definition'],
  email_templates: ['body', 'subject'],
  external_calendars: ['product_id', 'ical_url'],
  invoices: [],
  line_item_taxes: ['line_item_id', 'name', 'percentage', 'amount'],
  line_items: ['booking_id', 'amount', 'name'],
  members: ['name'],
  message_events: ['message_id', 'type'],
  message_attachments: ['message_id', 'filename', 'content_type', 'bytes', 'sha256', 'storage_key'],
  message_templates: ['name'],
  messages: ['to_address'],
  organization_calendar_logs: ['kind'],
  organizations: ['name'],
  paddle_plans: ['paddle_price_id', 'name'],
  paddle_subscriptions: ['paddle_plan_id', 'paddle_subscription_id'],
  payments: ['amount'],
  permissions: ['member_id'],
  price_calendar_entries: ['product_id', 'date'],
  pricelabs_pricing: ['product_id', 'date', 'price'],
  pricing_widgets: ['name'],
  product_attribute_options: ['product_id', 'attribute_option_id'],
  product_calendar_logs: ['product_id', 'kind'],
  product_configurations: ['product_id'],
  product_message_templates: ['message_template_id', 'product_id'],
  product_reply_to_addresses: ['product_id', 'reply_to_address_id'],
  product_services: ['product_id', 'service_id'],
  product_tasks: ['product_id', 'label'],
  booking_imports: ['channel', 'external_id', 'booking_id', 'payload'],
  media: ['hash', 'content_type', 'bytes', 'width', 'height', 'url', 'variants', 'dominant_color'],
  product_taxes: ['product_id', 'tax_id'],
  products: ['name', 'rent_period', 'timezone'],
  refunds: ['payment_id', 'amount'],
  reply_to_addresses: ['email'],
  review_products: ['product_id', 'review_id'],
  review_widget_listings: ['review_widget_id', 'product_id'],
  review_widgets: [],
  reviews: ['author_name', 'rating'],
  seasons: ['name'],
  service_options: ['service_id', 'name'],
  service_payment_moments: ['service_id'],
  services: ['name'],
  site_listings: ['site_id', 'product_id'],
  site_nav_items: ['site_id', 'label'],
  site_pages: ['site_id', 'slug', 'title'],
  site_views: ['site_id'],
  sites: ['name'],
  task_assignees: ['task_id', 'member_id'],
  task_template_assignees: ['task_template_id', 'member_id'],
  task_templates: ['label'],
  tasks: ['title'],
  taxes: ['name', 'percentage'],
  user_profiles: ['user_id'],
  webhook_notifications: ['webhook_id', 'event_type'],
  webhooks: ['endpoint', 'events'],
  widget_analytics: ['widget_id', 'event'],
  widget_listings: ['widget_id', 'product_id'],
  widgets: ['name'],
};

interface ColumnRow {
  table_name: string;
  column_name: string;
  type: string;
  not_null: boolean;
  has_default: boolean;
  generated: string;
}

forEachBackend('schema: tables and columns', (ctx) => {
  let columns: ColumnRow[] = [];
  const byTable = new Map<string, ColumnRow[]>();

  it('loads the catalogue of schema api', async () => {
    const { rows } = await ctx.db.query<ColumnRow>(`
      SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type,
             a.attnotnull AS not_null, a.atthasdef AS has_default, a.attgenerated::text AS generated
      FROM pg_attribute AS a
      JOIN pg_class AS c ON c.oid = a.attrelid
      JOIN pg_namespace AS n ON n.oid = c.relnamespace
      WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`);
    columns = rows;
    for (const row of rows) byTable.set(row.table_name, [...(byTable.get(row.table_name) ?? []), row]);
    assert.ok(rows.length > 500);
  });

  it('has every spec field with the type the spec gives', () => {
    const problems: string[] = [];
    for (const [table, expected] of Object.entries(SPEC_COLUMNS)) {
      const actual = new Map((byTable.get(table) ?? []).map((c) => [c.column_name, c.type]));
      if (actual.size === 0) problems.push(`missing table api.${table}`);
      for (const [column, type] of Object.entries(expected)) {
        if (!actual.has(column)) problems.push(`missing api.${table}.${column}`);
        else if (actual.get(column) !== type) problems.push(`api.${table}.${column} is ${actual.get(column)}, expected ${type}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('has every collection of the resource index, and no table nobody asked for', () => {
    const expected = [...Object.keys(SPEC_COLUMNS), ...INDEX_ONLY].sort();
    assert.deepEqual([...byTable.keys()].sort(), expected);
  });

  it('gives every table a uuid id with a default and created_at', () => {
    const problems: string[] = [];
    for (const [table, cols] of byTable) {
      const id = cols.find((c) => c.column_name === 'id');
      if (!id || id.type !== UUID || !id.has_default || !id.not_null) problems.push(`${table}.id`);
      const created = cols.find((c) => c.column_name === 'created_at');
      if (!created || created.type !== TS || !created.has_default || !created.not_null) problems.push(`${table}.created_at`);
    }
    assert.deepEqual(problems, []);
  });

  it('gives every tenant table organization_id uuid NOT NULL with the request default', async () => {
    const { rows } = await ctx.db.query<{ table_name: string; default_expr: string | null; not_null: boolean; type: string }>(`
      SELECT c.relname AS table_name, pg_get_expr(d.adbin, d.adrelid) AS default_expr, a.attnotnull AS not_null,
             format_type(a.atttypid, a.atttypmod) AS type
      FROM pg_class AS c
      JOIN pg_namespace AS n ON n.oid = c.relnamespace
      LEFT JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attname = 'organization_id'
      LEFT JOIN pg_attrdef AS d ON d.adrelid = c.oid AND d.adnum = a.attnum
      WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p')`);
    const problems = rows
      .filter((r) => !GLOBAL_TABLES.has(r.table_name))
      .filter((r) => r.type !== UUID || !r.not_null || !/current_organization_id\(\)/.test(r.default_expr ?? ''))
      .map((r) => r.table_name);
    assert.deepEqual(problems, []);
  });

  it('makes fts a stored generated tsvector wherever it exists, and keeps updated_at NOT NULL except on external_calendars', () => {
    const fts = columns.filter((c) => c.column_name === 'fts');
    assert.ok(fts.length >= 8);
    for (const c of fts) assert.equal(c.generated, 's', `${c.table_name}.fts must be GENERATED ALWAYS … STORED`);
    for (const c of columns.filter((col) => col.column_name === 'updated_at')) {
      assert.equal(c.not_null, c.table_name !== 'external_calendars', `${c.table_name}.updated_at nullability`);
    }
  });

  it('requires on create exactly the documented fields', () => {
    const actual: Record<string, string[]> = {};
    for (const [table, cols] of byTable) {
      actual[table] = cols.filter((c) => c.not_null && !c.has_default && c.generated === '').map((c) => c.column_name);
    }
    assert.deepEqual(actual, REQUIRED_ON_CREATE);
  });

  it('fills fts from the text fields, including every language of localized fields', async () => {
    const { rows } = await ctx.db.transaction(async (tx) => {
      const product = await fixtures(tx, await organization(tx, { name: 'fts' })).product({
        name: { default: 'Seaside cabin', 'nl-NL': 'Strandhuisje' }, description: { default: 'Quiet dunes' } });
      return tx.query<{ fts: string }>(`SELECT fts::text AS fts FROM api.products WHERE id = $1`, [product]);
    });
    for (const word of ['seaside', 'cabin', 'strandhuisje', 'quiet', 'dunes']) assert.match(rows[0]!.fts, new RegExp(`'${word}'`));
  });

  it('indexes the leading column of every foreign key', async () => {
    const { rows } = await ctx.db.query<{ name: string }>(`
      SELECT con.conrelid::regclass::text || ' ' || con.conname AS name
      FROM pg_constraint AS con JOIN pg_namespace AS n ON n.oid = con.connamespace
      WHERE con.contype = 'f' AND n.nspname IN ('api', 'staykit_internal')
        AND NOT EXISTS (SELECT 1 FROM pg_index AS i WHERE i.indrelid = con.conrelid AND i.indkey[0] = con.conkey[1])`);
    assert.deepEqual(rows, []);
  });

  it('keeps updated_at with a trigger on every table that has it, except external_calendars', async () => {
    const { rows } = await ctx.db.query<{ table_name: string; has_trigger: boolean }>(`
      SELECT c.relname AS table_name,
             EXISTS (SELECT 1 FROM pg_trigger AS t WHERE t.tgrelid = c.oid AND t.tgname = 'set_updated_at') AS has_trigger
      FROM pg_class AS c
      JOIN pg_namespace AS n ON n.oid = c.relnamespace
      JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attname = 'updated_at' AND NOT a.attisdropped
      WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p')`);
    assert.ok(rows.length > 40);
    const wrong = rows.filter((r) => r.has_trigger !== (r.table_name !== 'external_calendars')).map((r) => r.table_name);
    assert.deepEqual(wrong, []);
  });

  it('describes every spec resource and its described fields with comments', async () => {
    const { rows } = await ctx.db.query<{ table_name: string; comment: string | null }>(`
      SELECT c.relname AS table_name, obj_description(c.oid, 'pg_class') AS comment
      FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
      WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p')`);
    const missing = rows.filter((r) => !r.comment).map((r) => r.table_name);
    assert.deepEqual(missing, []);
    const { rows: cols } = await ctx.db.query<{ comment: string | null }>(`
      SELECT col_description('api.calendar_events'::regclass, a.attnum) AS comment
      FROM pg_attribute AS a WHERE a.attrelid = 'api.calendar_events'::regclass AND a.attname = 'padding'`);
    assert.match(cols[0]!.comment ?? '', /cooldown/);
  });
});
