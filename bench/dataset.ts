/**
 * The benchmark's data set, generated inside the database with set-based SQL (generate_series, window functions).
 *
 * - Organization 0 is the tenant under test and owns `products` units; the other organizations share
 *   `otherProducts` units (round robin), so tenant isolation has other tenants' rows to skip.
 * - Calendar events and bookings are spread over all products. Each product has a timeline laid out around the run
 *   date: it starts about six months before today and runs stays of 2–7 nights separated by gaps of 0–14 days (so
 *   some weeks stay free), never overlapping (the exclusion constraint `calendar_events_no_overlap` checks it).
 *   The timeline holds the bookings (10 % TENTATIVE, 90 % CONFIRMED, each with its booking event, two line items
 *   and a booking detail) and blocked periods; the remaining events are notes, which never block.
 * - Nothing is generated after `freeFrom`: the contention scenario books there.
 *
 * Speed: the row triggers (`calendar_events.log_change`, `confirm_booking`, `webhook_outbox`,
 * `bookings_fill_generated`, `products_fill_secrets`, …) cost one PL/pgSQL call (or more: `confirm_booking` runs an
 * UPDATE, which fires the bookings triggers again) per row. The load disables the *user* triggers of the tables it
 * fills, inside its one transaction, and writes what they would have written itself, set-based: booking
 * references and secrets, `bookings.confirmed_at`, the `calendar_event_updates` and `booking_updates` log rows. No
 * organization has a webhook, so the outbox would have written nothing. Foreign keys (internal constraint
 * triggers), CHECK, UNIQUE and exclusion constraints stay enforced, and `verifyDataset` checks the result.
 */
import type { Database, Queryable } from '../src/db/types.js';
import { createApiKey } from '../src/auth/api-key-store.js';

export interface DatasetSize {
  organizations: number;
  /** Products of the tenant under test (organization 0). */
  products: number;
  /** Products of the other organizations, in total. */
  otherProducts: number;
  /** Calendar events over all products: one per booking, then blocked periods and notes. */
  events: number;
  /** Bookings over all products, each with its calendar event, two line items and one booking detail. */
  bookings: number;
}

export const DEFAULT_SIZE: DatasetSize = { organizations: 50, products: 1000, otherProducts: 250, events: 200_000, bookings: 100_000 };

/** Days before the run date at which every product's timeline starts. */
const TIMELINE_START_DAYS_BEFORE = 182;
/** Share of the events that are not bookings which are blocked periods (the rest are notes). */
const BLOCKED_SHARE = 0.25;

export interface Dataset {
  organizationId: string;
  apiKey: string;
  /** The key's row id and public id (the direct-SQL side runs as the same principal). */
  keyRowId: string;
  keyId: string;
  /** The tenant's products, in generation order. */
  productIds: string[];
  contactId: string;
  size: DatasetSize;
  /** The run date (UTC), the origin of every generated and queried date. */
  today: string;
  /** First date after every generated event: the contention scenario books from here. */
  freeFrom: string;
  /** A week about four months ahead (search and quote) and a tenant product that is free during it. */
  week: { start: string; end: string };
  quoteProductId: string;
  /**
   * Extra organizations for the search and availability scale scenarios (bench/search-scale.ts), each with its own
   * key: `SEARCH_TENANT_PRODUCTS` units apiece (scaled like the tenant under test), calendars alone.
   */
  searchTenants: SearchTenant[];
  /**
   * An organization of its own, with one booking and nothing else, for the isolation part (bench/isolation.ts): it does the heavy work, so
   * what that writes (templates, a 1,000-line invoice of its one booking) lands where no scenario reads.
   */
  heavyTenant: { organizationId: string; apiKey: string; bookingId: string };
  /** Seconds per generation step, and in total. */
  steps: { name: string; seconds: number }[];
  seconds: number;
  /** How the triggers were kept out of the load: replica role (superuser) or the tables' user triggers disabled. */
  mode: 'replica' | 'user triggers disabled';
  /** Counts checked after generation. */
  verified: Record<string, number>;
}

export interface SearchTenant {
  organizationId: string;
  apiKey: string;
  productIds: string[];
}

/** Units of each search tenant at the default size (the tenant under test has `DEFAULT_SIZE.products`). */
export const SEARCH_TENANT_PRODUCTS = [100, 5000];

/** Days after the run date the search tenants' calendars reach (the availability index's horizon is 400). */
const SEARCH_TENANT_DAYS = 420;

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return isoDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000));
}

/** Checks a size before anything is created; returns a message for the first problem. */
export function sizeProblem(size: DatasetSize): string | undefined {
  for (const [name, value] of Object.entries(size)) {
    if (!Number.isInteger(value) || value < 0) return `${name} must be a non-negative integer, got ${value}`;
  }
  if (size.organizations < 1) return 'organizations must be at least 1';
  if (size.products < 1) return 'products must be at least 1';
  if (size.organizations === 1 && size.otherProducts > 0) return 'other products need at least 2 organizations';
  if (size.events < size.bookings) return `events (${size.events}) must be at least bookings (${size.bookings}): every booking has its event`;
  return undefined;
}

/** Tables the load fills whose user triggers it replaces with set-based writes. */
const LOADED_TABLES = ['organizations', 'products', 'product_configurations', 'bookings', 'calendar_events', 'line_items', 'booking_details'];
/** Tables the load writes (the loaded ones and the two logs): their secondary indexes are built after the load. */
const FILLED_TABLES = [...LOADED_TABLES, 'calendar_event_updates', 'booking_updates'];

function steps(size: DatasetSize, today: string): { name: string; sql: string }[] {
  const totalProducts = size.products + size.otherProducts;
  const nonBooking = size.events - size.bookings;
  const timelineStart = addDays(today, -TIMELINE_START_DAYS_BEFORE);
  const configFrom = addDays(today, -2 * 365);
  const configTo = addDays(today, 20 * 365);
  /** Share `total` over the products: product n gets floor((n+1)·total/P) − floor(n·total/P). */
  const share = (total: number) => `(((p.n + 1)::bigint * ${total}) / ${totalProducts} - (p.n::bigint * ${total}) / ${totalProducts})::int`;
  /** A deterministic pseudo-random integer in [0, modulo) from a seed expression. */
  const pick = (seed: string, modulo: number) => `(((hashtext(${seed})::bigint + 2147483648) % ${modulo})::int)`;
  return [
    {
      name: 'organizations and products',
      sql: `
        CREATE TEMP TABLE bench_orgs ON COMMIT DROP AS
          SELECT gen_random_uuid() AS id, n FROM generate_series(0, ${size.organizations - 1}) AS n;
        INSERT INTO api.organizations (id, name) SELECT id, 'Bench org ' || n FROM bench_orgs;
        CREATE TEMP TABLE bench_products ON COMMIT DROP AS
          SELECT gen_random_uuid() AS id, p.n, o.n AS org_n, o.id AS org
          FROM (SELECT p AS n, CASE WHEN p < ${size.products} THEN 0 ELSE 1 + (p - ${size.products}) % greatest(${size.organizations - 1}, 1) END AS org_n
                FROM generate_series(0, ${totalProducts - 1}) AS p) AS p
          JOIN bench_orgs AS o ON o.n = p.org_n;
        -- ical_export_secret*: what products_fill_secrets (and the column defaults) would generate, set-based.
        INSERT INTO api.products (id, organization_id, name, rent_period, timezone, interaction,
                                  ical_export_secret, ical_export_secret_no_details)
          SELECT id, org, jsonb_build_object('default', 'Bench unit ' || n), 'nightly', 'Europe/Amsterdam', 'book',
                 replace(gen_random_uuid()::text, '-', ''), replace(gen_random_uuid()::text, '-', '')
          FROM bench_products;
        INSERT INTO api.product_configurations (product_id, organization_id, name, intervals, rates, min_duration, max_advance)
          SELECT id, org, '{"default": "All year"}', '{[${configFrom},${configTo})}',
                 '[{"duration": 1, "occupancy": 0, "rate": 10000}, {"duration": 7, "occupancy": 0, "rate": 9000}]', 1, 0
          FROM bench_products;`,
    },
    {
      name: 'timelines',
      sql: `
        CREATE TEMP TABLE bench_counts ON COMMIT DROP AS
          SELECT product_id, org, n, bookings, blocked, others - blocked AS notes
          FROM (SELECT product_id, org, n, bookings, others, round(others * ${BLOCKED_SHARE})::int AS blocked
                FROM (SELECT p.id AS product_id, p.org, p.n, ${share(size.bookings)} AS bookings, ${share(nonBooking)} AS others
                      FROM bench_products AS p) AS c) AS c;
        -- One slot per blocking event (bookings and blocked periods, blocked periods spread evenly), each with a
        -- stay of 2–7 nights and the gap after it: 0 (30 %), 1–3 (40 %), 4–6 (15 %) or 7–14 days (15 %). k numbers
        -- the bookings.
        CREATE TEMP TABLE bench_stays ON COMMIT DROP AS
          SELECT product_id, org, n, j, is_blocked, nights,
                 DATE '${timelineStart}' + ${pick(`'offset' || n`, 7)}
                   + coalesce(sum(nights + gap) OVER (PARTITION BY n ORDER BY j ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::int
                   AS start_date,
                 CASE WHEN is_blocked THEN NULL ELSE gen_random_uuid() END AS booking_id,
                 CASE WHEN is_blocked THEN NULL ELSE count(*) FILTER (WHERE NOT is_blocked) OVER (ORDER BY n, j ROWS UNBOUNDED PRECEDING) - 1 END AS k
          FROM (
            SELECT c.product_id, c.org, c.n, s.j,
                   ((s.j + 1) * c.blocked) / (c.bookings + c.blocked) > (s.j * c.blocked) / (c.bookings + c.blocked) AS is_blocked,
                   2 + ${pick(`'nights' || c.n || ':' || s.j`, 6)} AS nights,
                   CASE WHEN r < 30 THEN 0 WHEN r < 70 THEN 1 + r % 3 WHEN r < 85 THEN 4 + r % 3 ELSE 7 + r % 8 END AS gap
            FROM bench_counts AS c, generate_series(0, c.bookings + c.blocked - 1) AS s(j),
                 LATERAL (SELECT ${pick(`'gap' || c.n || ':' || s.j`, 100)} AS r) AS g
          ) AS slots;`,
    },
    {
      name: 'bookings',
      // reference: 7 characters of new_booking_reference()'s alphabet from a bijection of the booking number
      // (k·M + C mod 2^35, M odd), so unique without the per-row lookup; secret: 32 random hex characters;
      // confirmed_at: what confirm_booking sets when the CONFIRMED event is inserted (now()).
      sql: `
        INSERT INTO api.bookings (id, organization_id, method, occupancy, reference, secret, confirmed_at)
          SELECT s.booking_id, s.org, 'book', '{}',
                 substr(a, ((x >> 0) & 31)::int + 1, 1) || substr(a, ((x >> 5) & 31)::int + 1, 1) || substr(a, ((x >> 10) & 31)::int + 1, 1)
                   || '-' || substr(a, ((x >> 15) & 31)::int + 1, 1) || substr(a, ((x >> 20) & 31)::int + 1, 1) || substr(a, ((x >> 25) & 31)::int + 1, 1) || substr(a, ((x >> 30) & 31)::int + 1, 1),
                 replace(gen_random_uuid()::text, '-', ''),
                 CASE WHEN s.k % 10 = 0 THEN NULL ELSE now() END
          FROM bench_stays AS s,
               LATERAL (SELECT 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789' AS a, (s.k * 2654435761 + 97531) & 34359738367 AS x) AS r
          WHERE s.booking_id IS NOT NULL;`,
    },
    {
      name: 'calendar events',
      sql: `
        INSERT INTO api.calendar_events (product_id, organization_id, booking_id, type, status, start_date, end_date,
                                         title, generated_title, origin)
          SELECT s.product_id, s.org, s.booking_id,
                 CASE WHEN s.is_blocked THEN 'blocked period' ELSE 'booking' END,
                 CASE WHEN s.k % 10 = 0 THEN 'TENTATIVE' ELSE 'CONFIRMED' END,
                 s.start_date, s.start_date + s.nights,
                 CASE WHEN s.is_blocked THEN (ARRAY['Owner stay', 'Maintenance', 'Painting'])[1 + s.j % 3] ELSE 'Guest ' || s.k END,
                 CASE WHEN s.is_blocked THEN '' ELSE 'Bench unit ' || s.n || ' – Guest ' || s.k END,
                 CASE WHEN s.is_blocked THEN NULL ELSE 'api' END
          FROM bench_stays AS s
          ORDER BY s.product_id, s.start_date;
        -- Notes never block: one every nine days from the start of the timeline, on the changeover day.
        INSERT INTO api.calendar_events (product_id, organization_id, type, status, start_date, end_date, title, notes)
          SELECT c.product_id, c.org, 'note', 'CONFIRMED',
                 DATE '${timelineStart}' + i * 9, DATE '${timelineStart}' + i * 9 + 1, 'Cleaning', 'Key in the box'
          FROM bench_counts AS c, generate_series(0, c.notes - 1) AS i;`,
    },
    {
      name: 'line items and details',
      sql: `
        INSERT INTO api.line_items (booking_id, organization_id, item_type, fee_type, name, quantity, amount)
          SELECT s.booking_id, s.org, t.item_type, 'fee', t.name, t.quantity, t.amount
          FROM bench_stays AS s,
               LATERAL (VALUES ('rent', '{"default": "Rent"}'::jsonb, s.nights, s.nights * CASE WHEN s.nights >= 7 THEN 9000 ELSE 10000 END),
                               ('fee', '{"default": "Cleaning"}'::jsonb, 1, 5000)) AS t(item_type, name, quantity, amount)
          WHERE s.booking_id IS NOT NULL;
        INSERT INTO api.booking_details (booking_id, organization_id, name, value)
          SELECT booking_id, org, '{"default": "Arrival time"}', (ARRAY['14:00', '15:00', '16:30', '20:00'])[1 + k % 4]
          FROM bench_stays WHERE booking_id IS NOT NULL;`,
    },
    {
      name: 'logs the triggers would write',
      // log_change: one 'created' row per event with its snapshot; confirm_booking's UPDATE of confirmed_at makes
      // log_update write one booking_updates row per confirmed booking.
      sql: `
        INSERT INTO api.calendar_event_updates (organization_id, calendar_event_id, booking_id, kind, status, snapshot)
          SELECT e.organization_id, e.id, e.booking_id, 'created', e.status, to_jsonb(e) - 'fts'
          FROM api.calendar_events AS e;
        INSERT INTO api.booking_updates (organization_id, booking_id, changed_fields, changes)
          SELECT organization_id, id, '{confirmed_at}',
                 jsonb_build_object('confirmed_at', jsonb_build_object('old', NULL, 'new', to_jsonb(confirmed_at)))
          FROM api.bookings WHERE confirmed_at IS NOT NULL;`,
    },
  ];
}

/**
 * One query per foreign key of the filled tables: rows whose (non-null) key has no parent row. The replica-role
 * load skips the foreign-key triggers, so this is what proves the keys.
 */
async function foreignKeyViolations(db: Queryable): Promise<Record<string, number>> {
  const { rows: keys } = await db.query<{ name: string; child: string; parent: string; child_columns: string[]; parent_columns: string[] }>(
    `SELECT k.conname AS name, k.conrelid::regclass::text AS child, k.confrelid::regclass::text AS parent,
            array(SELECT quote_ident(a.attname) FROM unnest(k.conkey) WITH ORDINALITY AS u(n, i)
                  JOIN pg_attribute AS a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i) AS child_columns,
            array(SELECT quote_ident(a.attname) FROM unnest(k.confkey) WITH ORDINALITY AS u(n, i)
                  JOIN pg_attribute AS a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i) AS parent_columns
     FROM pg_constraint AS k JOIN pg_class AS c ON c.oid = k.conrelid
     WHERE k.contype = 'f' AND c.relnamespace = 'api'::regnamespace AND c.relname = ANY($1::text[])
     ORDER BY 1`,
    [FILLED_TABLES],
  );
  const checks = keys.map((key) => {
    const present = key.child_columns.map((column) => `c.${column} IS NOT NULL`).join(' AND ');
    const match = key.child_columns.map((column, i) => `p.${key.parent_columns[i]} = c.${column}`).join(' AND ');
    return `(SELECT count(*) FROM ${key.child} AS c WHERE ${present} AND NOT EXISTS (SELECT 1 FROM ${key.parent} AS p WHERE ${match}))::int AS "${key.name}"`;
  });
  if (checks.length === 0) return {};
  const { rows } = await db.query<Record<string, number>>(`SELECT ${checks.join(',\n')}`);
  return { foreign_keys: keys.length, ...Object.fromEntries(Object.entries(rows[0]!).filter(([, n]) => n !== 0)) };
}

/** Checks what the skipped triggers and the generator promise; throws on any inconsistency. */
export async function verifyDataset(db: Queryable, size: DatasetSize, searchTenantSizes: number[] = []): Promise<Record<string, number>> {
  const { rows } = await db.query<Record<string, number>>(`
    WITH booking_events AS (
      SELECT booking_id, count(*) AS n, bool_and(status = 'CONFIRMED') AS confirmed
      FROM api.calendar_events WHERE type = 'booking' GROUP BY booking_id
    )
    SELECT
      (SELECT count(*) FROM api.organizations)::int AS organizations,
      (SELECT count(*) FROM api.products)::int AS products,
      (SELECT count(*) FROM api.bookings)::int AS bookings,
      (SELECT count(*) FROM api.calendar_events AS e JOIN api.organizations AS o ON o.id = e.organization_id
        WHERE o.name NOT LIKE 'Bench search tenant %')::int AS events,
      (SELECT count(*) FROM api.calendar_events WHERE type = 'blocked period')::int AS blocked_periods,
      (SELECT count(*) FROM api.calendar_events WHERE type = 'note')::int AS notes,
      (SELECT count(*) FROM api.calendar_events WHERE type = 'booking' AND status = 'TENTATIVE')::int AS tentative,
      (SELECT count(*) FROM api.line_items)::int AS line_items,
      (SELECT count(*) FROM api.booking_details)::int AS booking_details,
      -- every booking has exactly one booking event, and confirmed_at exactly when it is CONFIRMED (confirm_booking)
      (SELECT count(*) FROM api.bookings AS b LEFT JOIN booking_events AS e ON e.booking_id = b.id
        WHERE e.n IS DISTINCT FROM 1 OR e.confirmed <> (b.confirmed_at IS NOT NULL))::int AS booking_event_mismatches,
      -- one 'created' log row per event (log_change) and one booking_updates row per confirmation (log_update)
      ((SELECT count(*) FROM api.calendar_events)
        - (SELECT count(DISTINCT calendar_event_id) FROM api.calendar_event_updates WHERE kind = 'created'))::int AS events_without_log,
      ((SELECT count(*) FROM api.bookings WHERE confirmed_at IS NOT NULL) - (SELECT count(*) FROM api.booking_updates))::int AS confirmations_without_log,
      -- blocking events of a product never overlap (the exclusion constraint, checked again)
      (SELECT count(*) FROM (
        SELECT start_date, lag(end_date + padding) OVER (PARTITION BY product_id ORDER BY start_date) AS previous_end
        FROM api.calendar_events WHERE status <> 'CANCELLED' AND type IN ('booking', 'blocked period')) AS t
        WHERE previous_end > start_date)::int AS overlaps,
      (SELECT count(*) - count(DISTINCT reference) FROM api.bookings)::int AS duplicate_references,
      (SELECT count(*) FROM pg_trigger AS t JOIN pg_class AS c ON c.oid = t.tgrelid
        WHERE t.tgenabled = 'D' AND c.relnamespace = 'api'::regnamespace)::int AS disabled_triggers`);
  const counts = rows[0]!;
  const expected: Record<string, number> = {
    organizations: size.organizations + searchTenantSizes.length,
    products: size.products + size.otherProducts + searchTenantSizes.reduce((sum, n) => sum + n, 0),
    bookings: size.bookings,
    events: size.events,
    line_items: 2 * size.bookings,
    booking_details: size.bookings,
  };
  const keys = await foreignKeyViolations(db);
  const problems = [
    ...Object.entries(expected).filter(([name, value]) => counts[name] !== value).map(([name, value]) => `${name}: ${counts[name]}, expected ${value}`),
    ...['booking_event_mismatches', 'events_without_log', 'confirmations_without_log', 'overlaps', 'duplicate_references', 'disabled_triggers']
      .filter((name) => counts[name] !== 0)
      .map((name) => `${name}: ${counts[name]}`),
    ...Object.entries(keys).filter(([name]) => name !== 'foreign_keys').map(([name, n]) => `${n} rows break ${name}`),
  ];
  if (problems.length > 0) throw new Error(`generated data set is inconsistent: ${problems.join('; ')}`);
  return { ...counts, foreign_keys_checked: keys.foreign_keys ?? 0 };
}

/**
 * One search tenant of `products` units, set-based: each unit has an all-year configuration and, from two weeks
 * before the run date to `SEARCH_TENANT_DAYS` after it, stays of 2–7 nights with gaps of 0–14 days as the tenant
 * under test has (bookings without booking rows, 10 % TENTATIVE, and blocked periods). Run before the triggers are
 * back, like the other steps; the availability index is built for every unit afterwards.
 */
function searchTenantSql(products: number, today: string, tenant: number): string {
  const pick = (seed: string, modulo: number) => `(((hashtext(${seed})::bigint + 2147483648) % ${modulo})::int)`;
  const first = addDays(today, -14);
  return `
    INSERT INTO api.organizations (id, name) SELECT gen_random_uuid(), 'Bench search tenant ${tenant}';
    CREATE TEMP TABLE bench_search_${tenant} ON COMMIT DROP AS
      SELECT gen_random_uuid() AS id, n, (SELECT id FROM api.organizations WHERE name = 'Bench search tenant ${tenant}') AS org
      FROM generate_series(0, ${products - 1}) AS n;
    INSERT INTO api.products (id, organization_id, name, rent_period, timezone, interaction,
                              ical_export_secret, ical_export_secret_no_details, created_at)
      SELECT id, org, jsonb_build_object('default', 'Search unit ' || n), 'nightly', 'Europe/Amsterdam', 'book',
             replace(gen_random_uuid()::text, '-', ''), replace(gen_random_uuid()::text, '-', ''),
             now() + n * interval '1 microsecond'
      FROM bench_search_${tenant};
    INSERT INTO api.product_configurations (product_id, organization_id, name, intervals, rates, min_duration, max_advance)
      SELECT id, org, '{"default": "All year"}', '{[${addDays(today, -365)},${addDays(today, 5 * 365)})}',
             '[{"duration": 1, "occupancy": 0, "rate": 10000}, {"duration": 7, "occupancy": 0, "rate": 9000}]', 1, 0
      FROM bench_search_${tenant};
    INSERT INTO api.calendar_events (product_id, organization_id, type, status, start_date, end_date, title)
      SELECT id, org, CASE WHEN j % 4 = 3 THEN 'blocked period' ELSE 'booking' END,
             CASE WHEN j % 10 = 1 THEN 'TENTATIVE' ELSE 'CONFIRMED' END, start_date, start_date + nights, 'Stay'
      FROM (SELECT p.id, p.org, s.j, s.nights,
                   DATE '${first}' + coalesce(sum(s.nights + s.gap) OVER (PARTITION BY p.n ORDER BY s.j
                     ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::int AS start_date
            FROM bench_search_${tenant} AS p,
                 LATERAL (SELECT j, 2 + ${pick(`'n' || p.n || ':' || j`, 6)} AS nights,
                                 ${pick(`'g' || p.n || ':' || j`, 15)} AS gap
                          FROM generate_series(0, ${Math.ceil(SEARCH_TENANT_DAYS / 2)}) AS j) AS s) AS stays
      WHERE start_date < DATE '${addDays(today, SEARCH_TENANT_DAYS)}';
    -- log_change's 'created' row per event, as for the tenant under test.
    INSERT INTO api.calendar_event_updates (organization_id, calendar_event_id, booking_id, kind, status, snapshot)
      SELECT e.organization_id, e.id, e.booking_id, 'created', e.status, to_jsonb(e) - 'fts'
      FROM api.calendar_events AS e WHERE e.organization_id = (SELECT org FROM bench_search_${tenant} LIMIT 1);`;
}

export async function generateDataset(db: Database, size: DatasetSize, today = isoDate(new Date())): Promise<Dataset> {
  const problem = sizeProblem(size);
  if (problem) throw new Error(problem);
  const started = performance.now();
  const timings: { name: string; seconds: number }[] = [];
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const result = await fn();
    timings.push({ name, seconds: (performance.now() - t0) / 1000 });
    return result;
  };
  const week = { start: addDays(today, 120), end: addDays(today, 127) };
  const searchTenantSizes = SEARCH_TENANT_PRODUCTS.map((products) => Math.max(1, Math.round((products * size.products) / DEFAULT_SIZE.products)));
  let mode: Dataset['mode'] = 'replica';
  const generated = await db.transaction(async (tx) => {
    const { rows: roles } = await tx.query<{ superuser: boolean }>(`SELECT current_setting('is_superuser') = 'on' AS superuser`);
    mode = roles[0]?.superuser ? 'replica' : 'user triggers disabled';
    await timed('drop secondary indexes', async () => {
      await tx.query(
        `CREATE TEMP TABLE bench_indexes ON COMMIT DROP AS
           SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
           FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indrelid
           WHERE c.relnamespace = 'api'::regnamespace AND c.relname = ANY($1::text[])
             AND NOT i.indisunique AND NOT i.indisprimary AND NOT i.indisexclusion`,
        [FILLED_TABLES],
      );
      await tx.exec(`DO $$ DECLARE r record; BEGIN
        FOR r IN SELECT name FROM bench_indexes LOOP EXECUTE 'DROP INDEX ' || r.name; END LOOP; END $$`);
    });
    // Superuser: no trigger fires in this transaction (replica role), foreign keys included, which
    // verifyDataset checks afterwards. Otherwise the table owner disables the user triggers; foreign keys stay on.
    if (mode === 'replica') await tx.exec('SET LOCAL session_replication_role = replica');
    else await tx.exec(LOADED_TABLES.map((table) => `ALTER TABLE api.${table} DISABLE TRIGGER USER;`).join('\n'));
    for (const step of steps(size, today)) await timed(step.name, () => tx.exec(step.sql));
    for (const [tenant, products] of searchTenantSizes.entries()) {
      await timed(`search tenant of ${products} units`, () => tx.exec(searchTenantSql(products, today, tenant)));
    }
    // The products' triggers did not fill the availability index during the load: one set-based pass does (its
    // foreign key is true by construction, so it is loaded with the others), its indexes built afterwards — three
    // million rows inserted into live indexes take four times as long.
    await timed('availability index', async () => {
      const { rows: indexes } = await tx.query<{ drop: string; create: string }>(
        `SELECT format('ALTER TABLE %s DROP CONSTRAINT %I', conrelid::regclass, conname) AS drop,
                format('ALTER TABLE %s ADD CONSTRAINT %I %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) AS create
         FROM pg_constraint WHERE conrelid = 'staykit_internal.availability_days'::regclass AND contype = 'p'
         UNION ALL
         SELECT format('DROP INDEX %s', indexrelid::regclass), pg_get_indexdef(indexrelid)
         FROM pg_index WHERE indrelid = 'staykit_internal.availability_days'::regclass AND NOT indisprimary`);
      for (const index of indexes) await tx.exec(index.drop);
      await tx.query('SELECT staykit_internal.roll_availability_days($1::date)', [today]);
      for (const index of indexes) await tx.exec(index.create);
    });
    if (mode === 'replica') await tx.exec('SET LOCAL session_replication_role = origin');
    else await tx.exec(LOADED_TABLES.map((table) => `ALTER TABLE api.${table} ENABLE TRIGGER USER;`).join('\n'));
    await timed('create secondary indexes', () =>
      tx.exec(`DO $$ DECLARE r record; BEGIN
        FOR r IN SELECT definition FROM bench_indexes LOOP EXECUTE r.definition; END LOOP; END $$`),
    );
    const { rows: searchOrgs } = await tx.query<{ id: string; products: string[] }>(
      `SELECT o.id, array_agg(p.id ORDER BY p.created_at, p.id) AS products
       FROM api.organizations AS o JOIN api.products AS p ON p.organization_id = o.id
       WHERE o.name LIKE 'Bench search tenant %' GROUP BY o.id, o.name ORDER BY o.name`);
    const { rows: orgs } = await tx.query<{ id: string }>('SELECT id FROM bench_orgs WHERE n = 0');
    const { rows: products } = await tx.query<{ id: string }>('SELECT id FROM bench_products WHERE org_n = 0 ORDER BY n');
    const { rows: horizon } = await tx.query<{ last: string | null }>(`SELECT max(end_date + padding)::text AS last FROM api.calendar_events`);
    // The first tenant product free during the search/quote week (most timelines have gaps of a week or more).
    const { rows: free } = await tx.query<{ id: string }>(
      `SELECT p.id FROM bench_products AS p
       WHERE p.org_n = 0 AND NOT EXISTS (
         SELECT 1 FROM api.calendar_events AS e
         WHERE e.product_id = p.id AND e.status <> 'CANCELLED' AND e.type IN ('booking', 'blocked period')
           AND daterange(e.start_date, e.end_date + e.padding) && daterange($1::date, $2::date))
       ORDER BY p.n LIMIT 1`,
      [week.start, week.end],
    );
    return {
      searchOrgs,
      organizationId: orgs[0]!.id,
      productIds: products.map((p) => p.id),
      lastEnd: horizon[0]?.last ?? today,
      quoteProductId: free[0]?.id ?? products[0]!.id,
    };
  });
  // VACUUM as autovacuum would have by then: statistics, and a visibility map so index-only scans stay index-only.
  await timed('vacuum analyze', () => db.exec('VACUUM ANALYZE'));
  const verified = await timed('verify', () => verifyDataset(db, size, searchTenantSizes));
  const { organizationId, productIds } = generated;
  const { rows: contacts } = await db.query<{ id: string }>(
    `INSERT INTO api.contacts (organization_id, first_name, last_name) VALUES ($1, 'Bench', 'Contact') RETURNING id`,
    [organizationId],
  );
  const key = await createApiKey(db, { organizationId, name: 'bench', scopes: ['read', 'write'], expiresAt: null });
  const lastEnd = generated.lastEnd > today ? generated.lastEnd : today;
  const searchTenants: SearchTenant[] = [];
  for (const org of generated.searchOrgs) {
    const searchKey = await createApiKey(db, { organizationId: org.id, name: 'bench search', scopes: ['read'], expiresAt: null });
    searchTenants.push({ organizationId: org.id, apiKey: searchKey.api_key, productIds: org.products });
  }
  const { rows: heavy } = await db.query<{ id: string }>(`INSERT INTO api.organizations (name) VALUES ('Bench heavy tenant') RETURNING id`);
  // The API creates bookings only through /book, which needs a bookable unit: the invoice's booking is written here.
  const { rows: heavyBooking } = await db.query<{ id: string }>('INSERT INTO api.bookings (organization_id) VALUES ($1) RETURNING id', [heavy[0]!.id]);
  const heavyKey = await createApiKey(db, { organizationId: heavy[0]!.id, name: 'bench heavy work', scopes: ['read', 'write'], expiresAt: null });
  return {
    organizationId,
    apiKey: key.api_key,
    keyRowId: key.id,
    keyId: key.key_id,
    productIds,
    contactId: contacts[0]!.id,
    size,
    today,
    freeFrom: addDays(lastEnd, 7),
    week,
    quoteProductId: generated.quoteProductId,
    searchTenants,
    heavyTenant: { organizationId: heavy[0]!.id, apiKey: heavyKey.api_key, bookingId: heavyBooking[0]!.id },
    steps: timings,
    mode,
    seconds: (performance.now() - started) / 1000,
    verified,
  };
}
