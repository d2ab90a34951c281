/**
 * The benchmark's data set, generated inside PostgreSQL with generate_series (seconds, not minutes): organizations,
 * products with a year-round configuration, bookings with line items and details, and calendar events that never
 * overlap (each product's events follow one another).
 */
import type { Database } from '../src/db/types.js';
import { createApiKey } from '../src/auth/api-key-store.js';

export interface DatasetSize {
  organizations: number;
  products: number;
  events: number;
  bookings: number;
}

export const DEFAULT_SIZE: DatasetSize = { organizations: 50, products: 1000, events: 200_000, bookings: 100_000 };

export interface Dataset {
  organizationId: string;
  apiKey: string;
  productIds: string[];
  contactId: string;
  size: DatasetSize;
}

export async function generateDataset(db: Database, size: DatasetSize): Promise<Dataset> {
  const eventsPerProduct = Math.ceil(size.events / size.products);
  const bookingsPerProduct = Math.ceil(size.bookings / size.products);
  await db.exec(`
    CREATE TEMP TABLE bench_orgs AS
      SELECT gen_random_uuid() AS id, n FROM generate_series(0, ${size.organizations - 1}) AS n;
    INSERT INTO api.organizations (id, name) SELECT id, 'Bench org ' || n FROM bench_orgs;
    CREATE TEMP TABLE bench_products AS
      -- The first organization owns half of the products (the scenarios' tenant); the rest are spread out.
      SELECT gen_random_uuid() AS id, p AS n,
             (SELECT id FROM bench_orgs WHERE bench_orgs.n = CASE WHEN p < ${size.products} / 2 THEN 0 ELSE p % ${size.organizations} END) AS org
      FROM generate_series(0, ${size.products - 1}) AS p;
    INSERT INTO api.products (id, organization_id, name, rent_period, timezone, interaction)
      SELECT id, org, jsonb_build_object('default', 'Bench unit ' || n), 'nightly', 'Europe/Amsterdam', 'book' FROM bench_products;
    INSERT INTO api.product_configurations (product_id, organization_id, name, intervals, rates, min_duration, max_advance)
      SELECT id, org, '{"default": "All year"}', '{[2020-01-01,2035-01-01)}',
             '[{"duration": 1, "occupancy": 0, "rate": 10000}, {"duration": 7, "occupancy": 0, "rate": 9000}]', 1, 0
      FROM bench_products;
    CREATE TEMP TABLE bench_events AS
      SELECT p.id AS product_id, p.org, e AS k, CASE WHEN e < ${bookingsPerProduct} THEN gen_random_uuid() END AS booking_id
      FROM bench_products p, generate_series(0, ${eventsPerProduct - 1}) AS e;
    INSERT INTO api.bookings (id, organization_id, method, occupancy)
      SELECT booking_id, org, 'book', '{}' FROM bench_events WHERE booking_id IS NOT NULL;
    INSERT INTO api.calendar_events (product_id, organization_id, booking_id, type, status, start_date, end_date, title)
      SELECT product_id, org, booking_id, CASE WHEN booking_id IS NULL THEN 'blocked period' ELSE 'booking' END,
             CASE WHEN k % 10 = 0 THEN 'TENTATIVE' ELSE 'CONFIRMED' END,
             DATE '2024-01-01' + k * 4, DATE '2024-01-01' + k * 4 + 3, 'Guest ' || k
      FROM bench_events;
    INSERT INTO api.line_items (booking_id, organization_id, item_type, fee_type, name, quantity, amount)
      SELECT booking_id, org, t.item_type, 'fee', jsonb_build_object('default', t.item_type), t.quantity, t.amount
      FROM bench_events, (VALUES ('rent', 3, 10000), ('fee', 1, 5000)) AS t(item_type, quantity, amount)
      WHERE booking_id IS NOT NULL;
    INSERT INTO api.booking_details (booking_id, organization_id, name, value)
      SELECT booking_id, org, '{"default": "Arrival time"}', '15:00' FROM bench_events WHERE booking_id IS NOT NULL;
    ANALYZE;`);
  const { rows: orgs } = await db.query<{ id: string }>('SELECT id FROM bench_orgs WHERE n = 0');
  const organizationId = orgs[0]!.id;
  const { rows: products } = await db.query<{ id: string }>('SELECT id FROM bench_products WHERE org = $1 ORDER BY n', [organizationId]);
  const { rows: contacts } = await db.query<{ id: string }>(
    `INSERT INTO api.contacts (organization_id, first_name, last_name) VALUES ($1, 'Bench', 'Contact') RETURNING id`,
    [organizationId],
  );
  const key = await createApiKey(db, { organizationId, name: 'bench', scopes: ['read', 'write'], expiresAt: null });
  await db.exec('DROP TABLE bench_orgs, bench_products, bench_events');
  return { organizationId, apiKey: key.api_key, productIds: products.map((p) => p.id), contactId: contacts[0]!.id, size };
}
