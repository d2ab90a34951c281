// Planted changes to what the database enforces (row-level security, constraints, triggers, privileges): the
// invariants Stryker cannot mutate because they live in migrations/, not in TypeScript. Each one is applied as
// an extra migration after all the others, and the test files in `tests` must then fail: a change that leaves
// them green "survives" and shows an invariant no test guards.
//
// `sql` runs as the owner of the schema on a freshly migrated database (PGlite or PostgreSQL).

/** @typedef {{ name: string, change: string, sql: string, tests: string[] }} PlantedChange */

const TENANCY = ['test/migrations/tenancy.test.ts', 'test/http/tenant-isolation.test.ts'];
const CALENDAR = ['test/migrations/calendar.test.ts', 'test/booking/overlap-resource-api.test.ts'];

/** The no-overlap constraint as the migrations define it, with one part replaced. */
function noOverlap({
  range = "daterange(start_date, end_date + padding, '[)')",
  where = "status <> 'CANCELLED' AND type IN ('booking', 'blocked period')",
}) {
  return `ALTER TABLE api.calendar_events DROP CONSTRAINT calendar_events_no_overlap;
ALTER TABLE api.calendar_events ADD CONSTRAINT calendar_events_no_overlap EXCLUDE USING gist (
  product_id WITH =, organization_id WITH =, ${range} WITH &&
) WHERE (${where});`;
}

/** @type {PlantedChange[]} */
export const PLANTED_CHANGES = [
  {
    name: 'rls-products-no-tenant-predicate',
    change: 'the tenant predicate of the products policy is dropped (USING and WITH CHECK true)',
    sql: 'ALTER POLICY tenant_isolation ON api.products USING (true) WITH CHECK (true);',
    tests: TENANCY,
  },
  {
    name: 'rls-bookings-read-any-tenant',
    change: 'the bookings policy lets a tenant read every organization\'s rows (USING true)',
    sql: 'ALTER POLICY tenant_isolation ON api.bookings USING (true);',
    tests: TENANCY,
  },
  {
    name: 'rls-capacity-groups-write-any-tenant',
    change: 'the capacity_groups policy lets a tenant write rows of another organization (WITH CHECK true)',
    sql: 'ALTER POLICY tenant_isolation ON api.capacity_groups WITH CHECK (true);',
    tests: TENANCY,
  },
  {
    name: 'rls-coupons-disabled',
    change: 'row-level security is turned off on coupons',
    sql: 'ALTER TABLE api.coupons DISABLE ROW LEVEL SECURITY;',
    tests: TENANCY,
  },
  {
    name: 'read-scope-ignored',
    change: 'the read-scope policies admit every table whatever the key\'s scopes (may_read is always true)',
    sql: `CREATE OR REPLACE FUNCTION staykit_internal.may_read(resource text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT true $$;`,
    tests: ['test/auth/embed-scopes.test.ts'],
  },
  {
    name: 'webhook-secret-readable',
    change: 'the API role may read webhooks.signing_secret back',
    sql: 'GRANT SELECT (signing_secret) ON api.webhooks TO staykit_api;',
    tests: ['test/http/webhook-secrets.test.ts'],
  },
  {
    name: 'grant-organization-id-insert',
    change: 'the API role may set organization_id itself on capacity_groups',
    sql: 'GRANT INSERT (organization_id) ON api.capacity_groups TO staykit_api;',
    tests: ['test/migrations/tenancy.test.ts'],
  },
  {
    name: 'grant-api-keys-select',
    change: 'the API role may read the API key table (key ids and secret hashes)',
    sql: 'GRANT SELECT ON staykit_internal.api_keys TO staykit_api;',
    tests: ['test/migrations/tenancy.test.ts'],
  },
  {
    name: 'no-overlap-dropped',
    change: 'the no-overlap exclusion constraint on calendar_events is dropped',
    sql: 'ALTER TABLE api.calendar_events DROP CONSTRAINT calendar_events_no_overlap;',
    tests: CALENDAR,
  },
  {
    name: 'no-overlap-ignores-padding',
    change: 'the no-overlap constraint forgets the cooldown padding after a stay',
    sql: noOverlap({ range: "daterange(start_date, end_date, '[)')" }),
    tests: CALENDAR,
  },
  {
    name: 'no-overlap-checkout-day-inclusive',
    change: 'the no-overlap constraint counts the checkout day as taken (closed range)',
    sql: noOverlap({ range: "daterange(start_date, end_date + padding, '[]')" }),
    tests: CALENDAR,
  },
  {
    name: 'no-overlap-cancelled-blocks',
    change: 'cancelled events keep blocking their dates',
    sql: noOverlap({ where: "type IN ('booking', 'blocked period')" }),
    tests: CALENDAR,
  },
  {
    name: 'check-event-dates-loosened',
    change: 'a calendar event may end on the day it starts (end_date >= start_date)',
    sql: `ALTER TABLE api.calendar_events DROP CONSTRAINT calendar_events_dates;
ALTER TABLE api.calendar_events ADD CONSTRAINT calendar_events_dates CHECK (end_date >= start_date);`,
    tests: ['test/migrations/checks.test.ts', 'test/migrations/calendar.test.ts'],
  },
  {
    name: 'check-capacity-min-max-dropped',
    change: 'a capacity\'s min may exceed its max',
    sql: 'ALTER TABLE api.capacities DROP CONSTRAINT capacities_min_max;',
    tests: ['test/migrations/checks.test.ts'],
  },
  {
    name: 'check-padding-negative',
    change: 'a calendar event\'s padding may be negative (which would shorten the blocked range)',
    sql: `ALTER TABLE api.calendar_events DROP CONSTRAINT calendar_events_padding_non_negative;
ALTER TABLE api.calendar_events ADD CONSTRAINT calendar_events_padding_non_negative CHECK (padding >= -1);`,
    tests: ['test/migrations/checks.test.ts'],
  },
  {
    name: 'status-move-trigger-disabled',
    change: 'the trigger that refuses forbidden calendar event status moves is disabled',
    sql: 'ALTER TABLE api.calendar_events DISABLE TRIGGER check_status_move;',
    tests: ['test/migrations/calendar.test.ts'],
  },
  {
    name: 'status-move-confirmed-to-tentative',
    change: 'a confirmed event may move back to TENTATIVE',
    sql: `CREATE OR REPLACE FUNCTION staykit_internal.is_allowed_status_move(from_status text, to_status text)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT from_status = to_status
      OR (from_status, to_status) IN (('TENTATIVE', 'CONFIRMED'), ('TENTATIVE', 'CANCELLED'),
                                      ('CONFIRMED', 'CANCELLED'), ('CONFIRMED', 'TENTATIVE'),
                                      ('CANCELLED', 'TENTATIVE'), ('CANCELLED', 'CONFIRMED'))
$$;`,
    tests: ['test/migrations/calendar.test.ts'],
  },
  {
    name: 'confirm-booking-trigger-disabled',
    change: 'confirming a booking\'s event no longer sets bookings.confirmed_at',
    sql: 'ALTER TABLE api.calendar_events DISABLE TRIGGER confirm_booking;',
    tests: ['test/migrations/calendar.test.ts'],
  },
  {
    name: 'event-log-disabled',
    change: 'changes to calendar events are no longer logged to calendar_event_updates',
    sql: 'ALTER TABLE api.calendar_events DISABLE TRIGGER log_change;',
    tests: ['test/migrations/calendar.test.ts'],
  },
  {
    name: 'date-range-check-dropped',
    change: 'a calendar event may start on any date PostgreSQL accepts (infinity, 4713 BC, the year 275760)',
    sql: 'ALTER TABLE api.calendar_events DROP CONSTRAINT calendar_events_start_date_in_range;',
    tests: ['test/migrations/date-ranges.test.ts'],
  },
  {
    name: 'updated-at-trigger-disabled',
    change: 'updating a product no longer moves its updated_at',
    sql: 'ALTER TABLE api.products DISABLE TRIGGER set_updated_at;',
    tests: ['test/migrations/states.test.ts'],
  },
  {
    name: 'coupon-soft-delete-disabled',
    change: 'DELETE removes a coupon instead of soft deleting it',
    sql: 'ALTER TABLE api.coupons DISABLE TRIGGER soft_delete;',
    tests: ['test/migrations/states.test.ts'],
  },
  {
    name: 'booking-log-disabled',
    change: 'updates of a booking are no longer logged to booking_updates',
    sql: 'ALTER TABLE api.bookings DISABLE TRIGGER log_update;',
    tests: ['test/migrations/states.test.ts'],
  },
  {
    name: 'webhook-outbox-bookings-disabled',
    change: 'changes to bookings no longer emit webhook notifications',
    sql: 'ALTER TABLE api.bookings DISABLE TRIGGER webhook_outbox;',
    tests: ['test/webhooks/outbox.test.ts'],
  },
  {
    name: 'money-refund-lock-dropped',
    change: 'a refund no longer locks its payment first, so two concurrent refunds can both pass the sum check',
    sql: `DO $$ BEGIN EXECUTE replace(pg_get_functiondef('staykit_internal.refunds_guard()'::regprocedure), 'FOR UPDATE;', ';'); END $$;`,
    tests: ['test/money/invariants.test.ts'],
  },
  {
    name: 'money-refund-guard-disabled',
    change: 'refunds are no longer checked (moves, sum, paid payment, refunded_at)',
    sql: 'ALTER TABLE api.refunds DISABLE TRIGGER money_guard;',
    tests: ['test/money/invariants.test.ts'],
  },
  {
    name: 'money-payment-guard-disabled',
    change: 'payments are no longer checked (moves, currency, paid_at)',
    sql: 'ALTER TABLE api.payments DISABLE TRIGGER money_guard;',
    tests: ['test/money/invariants.test.ts'],
  },
  {
    name: 'money-invoice-guard-disabled',
    change: 'invoices are no longer checked (numbers, immutability, credit and void)',
    sql: 'ALTER TABLE api.invoices DISABLE TRIGGER money_guard;',
    tests: ['test/money/invoices.test.ts'],
  },
  {
    name: 'money-invoice-total-not-kept',
    change: "an invoice's total no longer follows its lines",
    sql: 'ALTER TABLE api.line_items DISABLE TRIGGER keep_invoice_total;',
    tests: ['test/money/invoices.test.ts'],
  },
  {
    name: 'money-confirm-after-payment-disabled',
    change: 'a paid first payment no longer confirms a request booking',
    sql: 'ALTER TABLE api.payments DISABLE TRIGGER confirm_booking;',
    tests: ['test/money/confirm-after-payment.test.ts'],
  },
  {
    name: 'money-cancelled-booking-keeps-payments',
    change: "a cancelled booking's payments stay to pay",
    sql: 'ALTER TABLE api.calendar_events DISABLE TRIGGER booking_payments;',
    tests: ['test/money/schedule-follows-stay.test.ts'],
  },
  {
    name: 'ical-secret-readable',
    change: 'the API role may read products.ical_export_secret (the feed with guest names)',
    sql: 'GRANT SELECT (ical_export_secret) ON api.products TO staykit_api;',
    tests: ['test/ical/secret-access.test.ts'],
  },
  {
    name: 'change-feed-row-policies-ignored',
    change: "the change feed judges no change by its table's row policies",
    sql: `CREATE OR REPLACE FUNCTION staykit_internal.select_policy_check(target regclass) RETURNS text
LANGUAGE sql STABLE AS $$ SELECT 'true' $$;`,
    tests: ['test/changes/row-policies.test.ts'],
  },
  {
    name: 'webhook-event-scopes-ignored',
    change: "subscribing, repointing and enabling webhooks no longer take their events' read scopes",
    sql: 'DROP TRIGGER webhooks_within_read_scopes ON api.webhooks;',
    tests: ['test/webhooks/event-scopes.test.ts'],
  },
  {
    name: 'member-role-ceiling-disabled',
    change: 'a member may change, add or remove members of a higher role, or raise one above their own (migration 0201)',
    sql: 'ALTER TABLE api.members DISABLE TRIGGER members_within_own_role;',
    tests: ['test/users/role-ceiling.test.ts'],
  },
  {
    name: 'permission-role-ceiling-disabled',
    change: 'a member may change the permissions of a member of a higher role (migration 0201)',
    sql: 'ALTER TABLE api.permissions DISABLE TRIGGER permissions_within_own_role;',
    tests: ['test/users/role-ceiling.test.ts'],
  },
  {
    name: 'older-password-links-kept',
    change: 'a new set-password link no longer voids the older ones (migration 0200)',
    sql: 'ALTER TABLE staykit_internal.password_tokens DISABLE TRIGGER void_older_password_links;',
    tests: ['test/users/sessions.test.ts'],
  },
  {
    name: 'password-links-outlive-password',
    change: 'a new password no longer voids the set-password links made before it (migration 0200)',
    sql: 'ALTER TABLE staykit_internal.users DISABLE TRIGGER void_password_links_of_new_password;',
    tests: ['test/users/sessions.test.ts'],
  },
];
