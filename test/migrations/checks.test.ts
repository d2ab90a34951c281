/**
 * Every CHECK constraint rejects a bad value: table-driven. For each case a valid row is inserted first (it must
 * succeed, so the case tests what it claims), then the same row with one bad value, which must fail with 23514.
 * A final test proves that the cases together violated every CHECK constraint of the schema.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { forEachBackend } from '../support/databases.js';
import { fixtures, insert } from '../support/fixtures.js';
import { createOrganization, inRollback, type Organization } from './helpers.js';

/** Column → SQL expression. */
type Row = Record<string, string>;

interface Case {
  table: string;
  base: (o: Organization, p: Parents) => Row;
  /** Rows of bad values, or a function giving them when they depend on the fixture. */
  bad: Row[] | ((o: Organization, p: Parents) => Row[]);
}

interface Parents {
  lineItemId: string;
  paymentId: string;
  messageId: string;
  sitePageId: string;
  taskTemplateId: string;
  planId: string;
}

const q = (value: string): string => `'${value.replace(/'/g, "''")}'`;
const mls = (text: string): string => q(JSON.stringify({ default: text }));

const CASES: Case[] = [
  {
    table: 'api.organizations',
    base: () => ({ name: q('Org') }),
    bad: [{ name: q('  ') }, { settings: q('[]') }, { currency: q('eur') }, { language: q('English') },
      { timezone: q('Mars/Olympus') }, { settings: q('{"invoices": {"seller": {"vat_id": 1}}}') },
      { settings: q('{"booking_terms": {"nl": "Geen huisdieren"}}') }, { settings: q('{"brand_color": "red"}') },
      { settings: q('{"brand_color": "#12345"}') }, { settings: q('{"logo_media_id": "the-logo"}') }],
  },
  {
    table: 'api.user_profiles',
    base: (o) => ({ organization_id: q(o.id), user_id: 'gen_random_uuid()' }),
    bad: [{ email: q('nope') }, { avatar_url: q('ftp://x') }, { language: q('EN') }],
  },
  {
    table: 'api.members',
    base: (o) => ({ organization_id: q(o.id), name: q('Cleo') }),
    bad: [{ name: q('') }, { email: q('a@b') }, { role: q('boss') }, { notify: "ARRAY['booking.exploded']" }],
  },
  {
    table: 'api.permissions',
    base: (o) => ({ organization_id: q(o.id), member_id: q(o.memberId), resource: q('bookings') }),
    bad: [{ resource: q('Bookings!') }, { access: q('admin') }],
  },
  {
    table: 'api.contacts',
    base: (o) => ({ organization_id: q(o.id) }),
    bad: [{ email: q('x') }, { address: q('"street"') }, { country: q('nl') }, { language: q('dutch') }, { vat_id: q('NL 12/3') }],
  },
  {
    table: 'api.products',
    base: (o) => ({ organization_id: q(o.id), name: mls('Villa'), rent_period: q('nightly'), timezone: q('UTC') }),
    bad: [
      { approximate_coordinates: q('{"lat": 91, "lng": 0}') }, { confirmation_message: q('{"en": "hi"}') },
      { cooldown_time: '-1' }, { cta: q('[]') }, { currency: q('EURO') }, { description: q('"text"') },
      { exact_coordinates: q('{"lat": 52}') }, { ical_export_secret: q('short') }, { cancellation_policy: q('[{"refund_percentage": 101, "days_before_arrival": 1}]') },
      { ical_export_secret_no_details: q('short') }, { images: q('{}') }, { interaction: q('instant') },
      { name: q('{"default": 1}') }, { price_breakdown_specificity: q('itemized') }, { rent_period: q('weekly') },
      { rent_pricing_definition: q('manual') }, { request_status: q('PENDING') }, { timezone: q('Nowhere/Town') },
      { id: q('00000000-0000-4000-8000-0000000000aa'), parent_id: q('00000000-0000-4000-8000-0000000000aa') },
      { deleted_at: q('infinity') },
    ],
  },
  {
    table: 'api.capacity_groups',
    base: (o) => ({ organization_id: q(o.id), name: mls('Children') }),
    bad: [{ description: q('{}') }, { name: q('{"nl": "Kinderen"}') }, { name_singular: q('null') }, { type: q('max') }],
  },
  {
    table: 'api.capacity_group_dependencies',
    base: (o) => ({ organization_id: q(o.id), accumulator_id: q(o.capacityGroupId),
      element_id: `(SELECT id FROM api.capacity_groups WHERE organization_id = ${q(o.id)} AND name ->> 'default' = 'Pets')` }),
    bad: (o) => [{ element_id: q(o.capacityGroupId) }],
  },
  {
    table: 'api.capacities',
    base: (o) => ({ organization_id: q(o.id), product_id: q(o.productId), capacity_group_id: q(o.capacityGroupId) }),
    bad: [{ min: '-1' }, { max: '-1' }, { min: '3', max: '2' }],
  },
  {
    table: 'api.attributes',
    base: (o) => ({ organization_id: q(o.id), name: mls('View') }),
    bad: [{ name: q('"View"') }, { type: q('radio') }],
  },
  {
    table: 'api.attribute_options',
    base: (o) => ({ organization_id: q(o.id), name: mls('Sea'),
      attribute_id: `(SELECT id FROM api.attributes WHERE organization_id = ${q(o.id)} LIMIT 1)` }),
    bad: [{ name: q('{"default": ["Sea"]}') }],
  },
  {
    table: 'api.product_configurations',
    base: (o) => ({ organization_id: q(o.id), product_id: q(o.productId) }),
    bad: [
      { check_in_days: q('{t,t,t,t,t,t}') }, { checkout_days: q('{t,t,t,t,t,t,NULL}') }, { color: q('blue') },
      { cooldown_time: '-2' }, { early_bird_adjustments: q('[{"min_advance": 30}]') },
      { last_minute_adjustments: q('[{"max_advance": -1, "percentage": 10}]') },
      { long_rent_adjustments: q('{"min_duration": 7, "percentage": -10}') }, { max_advance: '-1' },
      { max_duration: '-1' }, { min_advance: '-1' }, { min_duration: '-1' }, { name: q('{}') },
      { rates: q('[{"duration": 1, "occupancy": 2, "rate": 99.5}]') }, { min_duration: '7', max_duration: '3' },
      { min_advance: '10', max_advance: '5' }, { intervals: q('{[-infinity,2027-01-01)}') },
    ],
  },
  {
    table: 'api.seasons',
    base: (o) => ({ organization_id: q(o.id), name: mls('High') }),
    bad: [{ name: q('"High"') }, { color: q('#12') }, { intervals: q('{[2027-01-01,infinity)}') }],
  },
  {
    table: 'api.services',
    base: (o) => ({ organization_id: q(o.id), name: mls('Towels') }),
    bad: [{ name: q('1') }, { description: q('[]') }, { type: q('date') }, { pricing: q('{"per": "week", "amount": 100}') },
      { max_quantity: '0' }],
  },
  {
    table: 'api.service_options',
    base: (o) => ({ organization_id: q(o.id), service_id: q(o.serviceId), name: mls('Large') }),
    bad: [{ name: q('{}') }, { pricing: q('{"per": "stay", "amount": -5}') }],
  },
  {
    table: 'api.service_payment_moments',
    base: (o) => ({ organization_id: q(o.id), service_id: q(o.serviceId) }),
    bad: [{ moment: q('{"type": "arrival", "offset": 0}') }, { value: q('{"type": "percentage", "value": 150}') }],
  },
  {
    table: 'api.taxes',
    base: (o) => ({ organization_id: q(o.id), name: q('Tourist tax'), percentage: '5' }),
    bad: [{ name: q(' ') }, { percentage: '101' }, { applies_to: q('fees') }],
  },
  {
    table: 'api.price_calendar_entries',
    base: (o) => ({ organization_id: q(o.id), product_id: q(o.productId), date: q('2031-01-01') }),
    bad: [{ rate: '-1' }, { min_duration: '-1' }, { date: q('infinity') }],
  },
  {
    table: 'api.pricelabs_pricing',
    base: (o) => ({ organization_id: q(o.id), product_id: q(o.productId), date: q('2031-01-01'), price: '100' }),
    bad: [{ price: '-1' }, { min_stay: '-1' }, { currency: q('E') }, { date: q('4713-01-01 BC') },
      { synced_at: q('infinity') }],
  },
  {
    table: 'api.coupons',
    base: (o) => ({ organization_id: q(o.id), code: q('SPRING'), definition: q('{"type": "percentage", "value": 10}') }),
    bad: [{ code: q('TWO WORDS') }, { definition: q('{"type": "percentage", "value": 110}') },
      { definition: q('{"type": "fixed", "value": 10, "stay_from": "2030-02-01", "stay_until": "2030-01-01"}') },
      { quota: '-1' }, { scope: q('booking') }],
  },
  {
    table: 'api.bookings',
    base: (o) => ({ organization_id: q(o.id) }),
    bad: [{ currency: q('usd') }, { display_currency: q('US') }, { exchange_rate: '0' }, { language: q('x') },
      { method: q('phone') }, { occupancy: q('{"adults": 2}') },
      { occupancy: q('{"6f1c3a52-8d0e-4c8e-9a51-1d1f4c7f8a10": -1}') }, { reference: q('a b') },
      { secret: q('tiny') }, { cancellation_reason: q('x'.repeat(2001)) }],
  },
  {
    table: 'api.booking_details',
    base: (o) => ({ organization_id: q(o.id), booking_id: q(o.bookingId), name: mls('Arrival time') }),
    bad: [{ name: q('"Arrival time"') }],
  },
  {
    table: 'api.external_calendars',
    base: (o) => ({ organization_id: q(o.id), product_id: q(o.productId), ical_url: q('https://airbnb.example/cal.ics') }),
    bad: [{ ical_url: q('file:///etc/passwd') }, { time_offset: '5000' }, { update_fields: q('{start_date,price}') },
      { sync_requested_at: q('infinity') }],
  },
  {
    table: 'api.calendar_events',
    base: (o) => ({ organization_id: q(o.id), product_id: q(o.otherProductId), start_date: q('2031-03-01'),
      end_date: q('2031-03-03') }),
    bad: [{ end_date: q('2031-03-01') }, { padding: '-1' }, { status: q('DONE') }, { type: q('holiday') },
      { start_date: q('1899-12-31') }, { end_date: q('infinity') }],
  },
  {
    table: 'api.calendar_event_updates',
    base: (o) => ({ organization_id: q(o.id), calendar_event_id: q(o.calendarEventId), kind: q('updated'),
      snapshot: q('{}') }),
    bad: [{ kind: q('moved') }, { status: q('OPEN') }, { previous_status: q('OPEN') }],
  },
  {
    table: 'api.coupon_uses',
    base: (o) => ({ organization_id: q(o.id), coupon_id: q(o.couponId), booking_id: q(o.bookingId) }),
    bad: [{ amount: '-1' }],
  },
  {
    table: 'api.invoices',
    base: (o) => ({ organization_id: q(o.id), number: q('2031-0001') }),
    bad: [{ number: q('') }, { status: q('sent') }, { currency: q('12A') }, { due_at: q('infinity') },
      { status: q('issued'), issued_at: q('-infinity') }, { status: q('paid'), paid_at: q('10000-01-01T00:00:00Z') }],
  },
  {
    table: 'api.line_items',
    base: (o) => ({ organization_id: q(o.id), booking_id: q(o.bookingId), amount: '1000', name: mls('Rent') }),
    bad: [{ fee_type: q('tax') }, { item_type: q('gift') }, { name: q('"Rent"') }, { quantity: '0' }],
  },
  {
    table: 'api.line_item_taxes',
    base: (o, p) => ({ organization_id: q(o.id), line_item_id: q(p.lineItemId), name: q('VAT'), percentage: '9',
      amount: '90' }),
    bad: [{ name: q('') }, { percentage: '-1' }],
  },
  {
    table: 'api.payments',
    base: (o) => ({ organization_id: q(o.id), amount: '1000' }),
    bad: [{ amount: '0' }, { currency: q('Euro') }, { status: q('done') }, { method: q('cheque') },
      { due_at: q('infinity') }, { status: q('paid'), paid_at: q('1899-12-31T23:59:59Z') }],
  },
  {
    table: 'api.refunds',
    base: (o, p) => ({ organization_id: q(o.id), payment_id: q(p.paymentId), amount: '100' }),
    bad: [{ amount: '0' }, { status: q('done') }, { status: q('refunded'), refunded_at: q('-infinity') }],
  },
  {
    table: 'api.paddle_plans',
    base: () => ({ paddle_price_id: 'gen_random_uuid()::text', name: q('Pro') }),
    bad: [{ name: q('') }, { billing_interval: q('week') }, { amount: '-1' }, { currency: q('eu') },
      { max_products: '0' }, { features: q('[]') }],
  },
  {
    table: 'api.paddle_subscriptions',
    base: (o, p) => ({ organization_id: q(o.id), paddle_plan_id: q(p.planId), paddle_subscription_id: 'gen_random_uuid()::text' }),
    bad: [{ status: q('expired') }, { quantity: '0' }],
  },
  {
    table: 'api.sites',
    base: (o) => ({ organization_id: q(o.id), name: q('Beach houses') }),
    bad: [{ name: q('') }, { domain: q('Not A Domain') }, { default_language: q('english') }, { languages: q('{}') },
      { theme: q('"dark"') }, { status: q('live') }, { allowed_origins: q('{HTTPS://Example.com}') }],
  },
  {
    table: 'api.site_pages',
    base: (o) => ({ organization_id: q(o.id), site_id: q(o.siteId), slug: mls('about'), title: mls('About') }),
    bad: [{ description: q('""') }, { node: q('[]') }, { slug: q('"about"') }, { status: q('hidden') },
      { title: q('{"default": null}') }],
  },
  {
    table: 'api.site_nav_items',
    base: (o) => ({ organization_id: q(o.id), site_id: q(o.siteId), label: mls('Home') }),
    bad: (_o, p): Row[] => [{ label: q('"Home"') }, { site_page_id: q(p.sitePageId), url: q('https://x.example') },
      { id: q('00000000-0000-4000-8000-0000000000bb'), parent_id: q('00000000-0000-4000-8000-0000000000bb') }],
  },
  {
    table: 'api.site_views',
    base: (o) => ({ organization_id: q(o.id), site_id: q(o.siteId) }),
    bad: [{ country: q('NLD') }],
  },
  {
    table: 'api.widgets',
    base: (o) => ({ organization_id: q(o.id), name: q('Main') }),
    bad: [{ name: q('') }, { type: q('popup') }, { language: q('EN') }, { settings: q('1') },
      { allowed_origins: q('{https://example.com/path}') }],
  },
  {
    table: 'api.widget_analytics',
    base: (o) => ({ organization_id: q(o.id), widget_id: q(o.widgetId), event: q('view') }),
    bad: [{ event: q('click') }],
  },
  {
    table: 'api.pricing_widgets',
    base: (o) => ({ organization_id: q(o.id), name: q('Prices') }),
    bad: [{ name: q('') }, { language: q('_') }, { settings: q('[]') }],
  },
  {
    table: 'api.reviews',
    base: (o) => ({ organization_id: q(o.id), author_name: q('Dan'), rating: '5' }),
    bad: [{ author_name: q('') }, { rating: '6' }, { rating: '0' }, { language: q('Dutch') }, { source: q('tripadvisor') },
      { reviewed_at: q('-infinity') }, { responded_at: q('infinity') }],
  },
  {
    table: 'api.review_widgets',
    base: (o) => ({ organization_id: q(o.id) }),
    bad: [{ color_background: q('white') }, { color_primary: q('#ggg') }, { color_text: q('000') },
      { language: q('en_US') }, { layout: q('masonry') }, { number_of_items: '0' }],
  },
  {
    table: 'api.email_templates',
    base: (o) => ({ organization_id: q(o.id), subject: mls('Welcome'), body: mls('Hello') }),
    bad: [{ attachments: q('{}') }, { body: q('"Hello"') }, { moment: q('{"type": "check-in", "offset": 1.5}') },
      { moment: q('{"type": "checkin", "offset": 1}') }, { past_schedule_behavior: q('queue') },
      { status: q('SENT') }, { subject: q('{}') }, { trigger: q('daily') }, { type: q('sms') },
      { payment_due_offset: '366' }, { trigger: q('payment_due'), moment: q('{"type": "check-in", "offset": -3}') }],
  },
  {
    table: 'api.message_templates',
    base: (o) => ({ organization_id: q(o.id), name: q('Reminder') }),
    bad: [{ name: q('') }, { channel: q('fax') }, { subject: q('1') }, { body: q('[]') },
      { moment: q('{"type": "request"}') }],
  },
  {
    table: 'api.reply_to_addresses',
    base: (o) => ({ organization_id: q(o.id), email: 'gen_random_uuid()::text || \'@mail.example\'' }),
    bad: [{ email: q('hello') }],
  },
  {
    table: 'api.messages',
    base: (o) => ({ organization_id: q(o.id), to_address: q('guest@mail.example') }),
    bad: [{ channel: q('pigeon') }, { direction: q('both') }, { status: q('read') }, { to_address: q(' ') },
      { scheduled_at: q('infinity') }, { sent_at: q('-infinity') }, { read_at: q('infinity') },
      { rfc_message_id: q('no-brackets@mail.example') }, { rfc_message_id: q('<two words@mail.example>') }],
  },
  {
    table: 'api.message_events',
    base: (o, p) => ({ organization_id: q(o.id), message_id: q(p.messageId), type: q('opened') }),
    bad: [{ type: q('seen') }],
  },
  {
    table: 'api.task_templates',
    base: (o) => ({ organization_id: q(o.id), label: q('Clean') }),
    bad: [{ label: q('') }, { schedule: q('weekly') }],
  },
  {
    table: 'api.booking_imports',
    base: (o) => ({ organization_id: q(o.id), channel: q('airbnb'), external_id: q('HM1'), booking_id: q(o.bookingId), payload: q('{}') }),
    bad: [{ channel: q('Air BnB') }, { external_id: q('') }],
  },
  {
    table: 'api.media',
    base: (o) => ({
      organization_id: q(o.id), hash: q('0123456789abcdef0123456789abcdef'), content_type: q('image/jpeg'), bytes: '1000',
      width: '400', height: '300', url: q('/media/0123456789abcdef0123456789abcdef/400.jpeg'),
      variants: q('[{"width": 400}]'), dominant_color: q('#a0b1c2'),
    }),
    bad: [{ hash: q('../etc') }, { content_type: q('image/svg+xml') }, { filename: q('') }, { bytes: '0' }, { width: '0' },
      { height: '-1' }, { url: q('https://evil.example/x.jpeg') }, { variants: q('[]') }, { dominant_color: q('red') }],
  },
  {
    table: 'api.message_attachments',
    base: (o, p) => ({
      organization_id: q(o.id), message_id: q(p.messageId), filename: q('passport.pdf'), content_type: q('application/pdf'),
      bytes: '1000', sha256: q('a'.repeat(64)), storage_key: `'attachments/' || ${q(o.id)} || '/' || repeat('a', 64)`,
    }),
    bad: [{ filename: q('') }, { content_type: q('PDF') }, { bytes: '-1' }, { sha256: q('abc') },
      { storage_key: q('../../etc/passwd') }],
  },
  {
    table: 'api.product_tasks',
    base: (o) => ({ organization_id: q(o.id), product_id: q(o.productId), label: q('Clean') }),
    bad: [{ label: q(' ') }, { schedule: q('noon') }],
  },
  {
    table: 'api.calendar_event_tasks',
    base: (o) => ({ organization_id: q(o.id), calendar_event_id: q(o.calendarEventId), label: q('Clean'),
      due_at: q('2030-06-05T10:00:00Z') }),
    bad: [{ label: q('') }, { schedule: q('later') }, { due_at: q('infinity') }, { completed_at: q('-infinity') }],
  },
  {
    table: 'api.tasks',
    base: (o) => ({ organization_id: q(o.id), title: q('Fix tap') }),
    bad: [{ title: q('') }, { priority: q('critical') }, { due_at: q('infinity') }, { completed_at: q('2200-01-01T00:00:00Z') }],
  },
  {
    table: 'api.webhooks',
    base: (o) => ({ organization_id: q(o.id), endpoint: q('https://hooks.example.com/in'), events: q('{bookings.created}') }),
    bad: [{ endpoint: q('hooks.example.com') }, { events: q('{bookings.exploded}') }, { events: q('{NULL}') },
      { signing_secret: q('secret') }, { source: q('zapier') }, { disabled_at: q('infinity') }],
  },
  {
    table: 'api.webhook_notifications',
    base: (o) => ({ organization_id: q(o.id), webhook_id: q(o.webhookId), event_type: q('bookings.created') }),
    bad: [{ event_type: q('Bookings Created') }, { status: q('failed') }, { tries: '-1' }],
  },
  {
    table: 'api.api_requests',
    base: (o) => ({ organization_id: q(o.id), method: q('GET'), path: q('/v1/products'), status: '200' }),
    bad: [{ method: q('FETCH') }, { status: '600' }, { duration_ms: '-1' }],
  },
  {
    table: 'api.product_calendar_logs',
    base: (o) => ({ organization_id: q(o.id), product_id: q(o.productId), kind: q('import') }),
    bad: [{ kind: q('sync') }, { status: q('ok') }, { events_created: '-1' }, { events_updated: '-1' },
      { events_cancelled: '-1' }],
  },
  {
    table: 'api.organization_calendar_logs',
    base: (o) => ({ organization_id: q(o.id), kind: q('export') }),
    bad: [{ kind: q('sync') }, { status: q('ok') }, { calendars_synced: '-1' }, { calendars_failed: '-1' }],
  },
  {
    table: 'staykit_internal.api_keys',
    base: (o) => ({ organization_id: q(o.id), key_id: `substr(translate(gen_random_uuid()::text, '-0189', 'abcde'), 1, 12)`,
      secret_hash: q('a'.repeat(64)) }),
    bad: [{ key_id: q('ABCDEFGHIJKL') }, { secret_hash: q('xyz') }, { scopes: q('{admin}') }, { scopes: q('{}') }],
  },
];

function insertSql(table: string, row: Row): string {
  const columns = Object.keys(row);
  return `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((c) => row[c]).join(', ')})`;
}

forEachBackend('schema: CHECK constraints', (ctx) => {
  let o: Organization;
  let parents: Parents;
  const violated = new Set<string>();

  before(async () => {
    o = await createOrganization(ctx.db);
    parents = await ctx.db.transaction(async (tx) => {
      const f = fixtures(tx, o.id);
      const one = async (table: string, fields: Record<string, unknown> = {}) => (await f.row(table, fields)).id;
      await f.group('Pets');
      await f.row('attributes', { name: { default: 'View' } });
      return {
        lineItemId: await one('line_items', { booking_id: o.bookingId, amount: 1000 }),
        // Paid: only a paid payment can be refunded (migration 0120).
        paymentId: await one('payments', { amount: 500, status: 'paid' }),
        messageId: await one('messages', { to_address: 'g@mail.example' }),
        sitePageId: await one('site_pages', { site_id: o.siteId, slug: { default: 'a' }, title: { default: 'A' } }),
        taskTemplateId: await one('task_templates'),
        planId: (await insert(tx, 'paddle_plans', {})).id,
      };
    });
  });

  for (const testCase of CASES) {
    it(`${testCase.table}: rejects each bad value`, async () => {
      const base = testCase.base(o, parents);
      await inRollback(ctx.db, (tx) => tx.query(insertSql(testCase.table, base)));
      const bads = typeof testCase.bad === 'function' ? testCase.bad(o, parents) : testCase.bad;
      for (const bad of bads) {
        const sql = insertSql(testCase.table, { ...base, ...bad });
        await assert.rejects(inRollback(ctx.db, (tx) => tx.query(sql)), (error: unknown) => {
          const e = error as { code?: string; message?: string };
          assert.equal(e.code, '23514', `${sql}\n→ ${e.code} ${e.message}`);
          const name = /check constraint "([^"]+)"/.exec(e.message ?? '')?.[1];
          if (name) violated.add(`${testCase.table.split('.')[1]}.${name}`);
          return true;
        });
      }
    });
  }

  it('has violated every CHECK constraint of the schema at least once', async () => {
    const { rows } = await ctx.db.query<{ name: string }>(`
      SELECT c.relname || '.' || con.conname AS name
      FROM pg_constraint AS con
      JOIN pg_class AS c ON c.oid = con.conrelid
      JOIN pg_namespace AS n ON n.oid = c.relnamespace
      WHERE con.contype = 'c' AND (n.nspname = 'api' OR (n.nspname = 'staykit_internal' AND c.relname = 'api_keys'))
      ORDER BY 1`);
    const untested = rows.map((r) => r.name).filter((name) => !violated.has(name));
    assert.deepEqual(untested, []);
  });
});
