/**
 * The one way tests write data: rows inserted as the database owner (row-level security does not apply), each table's
 * NOT NULL columns filled from DEFAULTS below, so a test names only the columns it is about and a new NOT NULL
 * column is one edit here. A test file writes its own INSERT statement only when that statement is what it tests
 * (test/docs/test-data.test.ts holds the list of those files).
 */
import type { Queryable } from '../../src/db/types.js';

type Fields = Record<string, unknown>;

/** An inserted row as the database returns it. */
export interface Row {
  id: string;
  [column: string]: unknown;
}

let serial = 0;
/** A value no other call of this process returns: for columns unique per organization (or overall). */
const unique = (prefix: string) => `${prefix}${(serial += 1)}`;

/**
 * Per table, a valid value for each NOT NULL column without a database default (other than the links to other rows,
 * which a test passes), and the few choices most tests share (a product is booked instantly). A function when the value
 * must differ between rows. Rates cover 2027–2028, the booking tests' pinned clock (test/booking/support.ts).
 */
const DEFAULTS: Record<string, Fields | (() => Fields)> = {
  organizations: { name: 'Test organization' },
  products: { name: { default: 'Dune House' }, rent_period: 'nightly', timezone: 'Europe/Amsterdam', interaction: 'book' },
  product_configurations: { intervals: '{[2027-01-01,2028-12-31)}', rates: [{ duration: 1, occupancy: 1, rate: 10000 }], min_duration: 1 },
  capacity_groups: { name: { default: 'Adults' } },
  services: { name: { default: 'Service' } },
  service_options: { name: { default: 'Option' } },
  taxes: { name: 'VAT', percentage: 9 },
  coupons: () => ({ code: unique('COUPON'), definition: { type: 'percentage', value: 10 } }),
  calendar_events: { type: 'booking', status: 'CONFIRMED' },
  calendar_event_tasks: { due_at: '2027-03-01T10:00:00Z', label: 'Clean' },
  external_calendars: { ical_url: 'https://calendar.example/unit.ics' },
  line_items: { amount: 10000, name: { default: 'Rent' } },
  payments: { amount: 10000 },
  refunds: { amount: 1000 },
  pricelabs_pricing: { price: 10000 },
  attributes: { name: { default: 'Features' } },
  attribute_options: { name: { default: 'Option' } },
  members: { name: 'Bea' },
  user_profiles: { name: 'Owner' },
  webhooks: { endpoint: 'https://example.com/hook', events: ['*'] },
  webhook_notifications: { event_type: 'contacts.created' },
  api_requests: { method: 'GET', path: '/v1/products', status: 200 },
  email_templates: { subject: { default: 'Your stay' }, body: { default: 'See you soon' } },
  message_templates: { name: 'Template' },
  reply_to_addresses: { email: 'host@example.com' },
  messages: { to_address: 'guest@example.com' },
  task_templates: { label: 'Clean' },
  product_tasks: { label: 'Clean' },
  tasks: { title: 'Clean' },
  sites: { name: 'Site' },
  site_pages: { slug: { default: 'page' }, title: { default: 'Page' } },
  widgets: { name: 'Widget' },
  paddle_plans: () => ({ paddle_price_id: unique('pri_'), name: 'Basic' }),
};

const defaultsOf = (table: string): Fields => {
  const defaults = DEFAULTS[table] ?? {};
  return typeof defaults === 'function' ? defaults() : defaults;
};

/** Per table, which columns are jsonb and which are arrays: a JS array is JSON for the one, a PostgreSQL array for the other. */
const columnKinds = new Map<string, Map<string, 'json' | 'array'>>();

async function kindsOf(db: Queryable, table: string): Promise<Map<string, 'json' | 'array'>> {
  let kinds = columnKinds.get(table);
  if (!kinds) {
    const { rows } = await db.query<{ name: string; kind: 'json' | 'array' | null }>(
      `SELECT attname AS name, CASE WHEN t.typcategory = 'A' THEN 'array' WHEN t.typname IN ('json', 'jsonb') THEN 'json' END AS kind
         FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
        WHERE a.attrelid = to_regclass('api.' || $1) AND a.attnum > 0 AND NOT a.attisdropped`, [table]);
    kinds = new Map(rows.flatMap((row) => (row.kind ? [[row.name, row.kind] as const] : [])));
    columnKinds.set(table, kinds);
  }
  return kinds;
}

const arrayElement = (item: unknown) =>
  item === null ? 'NULL' : typeof item === 'boolean' ? (item ? 't' : 'f') : `"${String(item).replace(/["\\]/g, '\\$&')}"`;

/** A value as a parameter: JSON text for jsonb (a string is taken as JSON already), a PostgreSQL array literal for arrays. */
function parameter(kind: 'json' | 'array' | undefined, value: unknown): unknown {
  if (value === null || typeof value === 'string') return value;
  if (kind === 'array' && Array.isArray(value)) return `{${value.map(arrayElement).join(',')}}`;
  if (kind === 'json' || (typeof value === 'object' && !(value instanceof Date))) return JSON.stringify(value);
  return value;
}

/** Inserts rows into one table in one statement, each with the table's DEFAULTS, and returns them in order. */
export async function insertRows<R = Row>(db: Queryable, table: string, rows: Fields[]): Promise<R[]> {
  if (rows.length === 0) return [];
  // An undefined field is one not given (the default applies); null is NULL.
  const full = rows.map((row) => ({ ...defaultsOf(table), ...Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined)) }));
  const columns = [...new Set(full.flatMap((row) => Object.keys(row)))];
  const kinds = await kindsOf(db, table);
  const values: unknown[] = [];
  // A column some rows do not name takes its database default in those.
  const tuples = full.map((row) => `(${columns.map((column) => {
    if (!(column in row)) return 'DEFAULT';
    values.push(parameter(kinds.get(column), row[column]));
    return `$${values.length}`;
  }).join(', ')})`);
  const { rows: inserted } = await db.query<R>(
    `INSERT INTO api.${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')} RETURNING *`, values);
  return inserted;
}

/** Inserts one row (with the table's DEFAULTS) and returns it. */
export async function insert<R = Row>(db: Queryable, table: string, row: Fields): Promise<R> {
  return (await insertRows<R>(db, table, [row]))[0]!;
}

/** A new organization; its id. */
export async function organization(db: Queryable, fields: Fields = {}): Promise<string> {
  return (await insert(db, 'organizations', fields)).id;
}

/** Builders of one organization's rows; each returns the new row's id unless it says otherwise. */
export interface Fixtures {
  /** Any table's row with its DEFAULTS, whole (for a generated column: a reference, a secret). */
  row<R extends Row = Row>(table: string, fields?: Fields): Promise<R>;
  /** Several rows of one table in one statement. */
  rows<R extends Row = Row>(table: string, fields: Fields[]): Promise<R[]>;
  product(fields?: Fields): Promise<string>;
  configuration(productId: string, fields?: Fields): Promise<string>;
  group(name: string, fields?: Fields): Promise<string>;
  dependency(accumulatorId: string, elementId: string): Promise<void>;
  capacity(productId: string, groupId: string, min: number, max: number | null): Promise<void>;
  /** A service offered with the product (services + product_services). */
  service(productId: string, fields: Fields): Promise<string>;
  option(serviceId: string, name: string, pricing: Fields | null): Promise<string>;
  /** A tax charged on the product (taxes + product_taxes). */
  tax(productId: string, fields: Fields): Promise<string>;
  /** A coupon, limited to the given products and services when any are given. */
  coupon(fields: Fields, productIds?: string[], serviceIds?: string[]): Promise<string>;
  /** A calendar event of the product: a confirmed booking's unless `fields` say otherwise; dates are the test's. */
  event(productId: string, fields: Fields): Promise<string>;
  booking(fields?: Fields): Promise<string>;
  contact(fields?: Fields): Promise<string>;
  /** A contact who is a guest of the booking (contacts + contact_bookings). */
  guest(bookingId: string, fields?: Fields): Promise<string>;
  webhook(fields?: Fields): Promise<string>;
  member(fields?: Fields): Promise<string>;
  externalCalendar(productId: string, fields?: Fields): Promise<string>;
}

export function fixtures(db: Queryable, organizationId: string): Fixtures {
  let order = 0;
  const row = <R extends Row = Row>(table: string, fields: Fields = {}) => insert<R>(db, table, { organization_id: organizationId, ...fields });
  const id = (table: string, fields: Fields = {}) => row(table, fields).then((r) => r.id);
  return {
    row,
    rows: <R extends Row = Row>(table: string, fields: Fields[]) =>
      insertRows<R>(db, table, fields.map((f) => ({ organization_id: organizationId, ...f }))),
    product: (fields) => id('products', fields),
    configuration: (productId, fields = {}) => id('product_configurations', { product_id: productId, ...fields }),
    group: (name, fields = {}) => id('capacity_groups', { name: { default: name }, ...fields }),
    dependency: async (accumulatorId, elementId) => {
      await row('capacity_group_dependencies', { accumulator_id: accumulatorId, element_id: elementId });
    },
    capacity: async (productId, groupId, min, max) => {
      await row('capacities', { product_id: productId, capacity_group_id: groupId, min, max });
    },
    service: async (productId, fields) => {
      const serviceId = await id('services', fields);
      await row('product_services', { product_id: productId, service_id: serviceId, order: (order += 1) });
      return serviceId;
    },
    option: (serviceId, name, pricing) => id('service_options', { service_id: serviceId, name: { default: name }, pricing }),
    tax: async (productId, fields) => {
      const taxId = await id('taxes', fields);
      await row('product_taxes', { product_id: productId, tax_id: taxId });
      return taxId;
    },
    coupon: async (fields, productIds = [], serviceIds = []) => {
      const couponId = await id('coupons', fields);
      for (const productId of productIds) await row('coupon_products', { coupon_id: couponId, product_id: productId });
      for (const serviceId of serviceIds) await row('coupon_services', { coupon_id: couponId, service_id: serviceId });
      return couponId;
    },
    event: (productId, fields) => id('calendar_events', { product_id: productId, ...fields }),
    booking: (fields) => id('bookings', fields),
    contact: (fields) => id('contacts', fields),
    guest: async (bookingId, fields) => {
      const contactId = await id('contacts', fields);
      await row('contact_bookings', { booking_id: bookingId, contact_id: contactId });
      return contactId;
    },
    webhook: (fields) => id('webhooks', fields),
    member: (fields) => id('members', fields),
    externalCalendar: (productId, fields = {}) => id('external_calendars', { product_id: productId, ...fields }),
  };
}
