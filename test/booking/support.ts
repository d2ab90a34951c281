/**
 * The real app with a pinned clock, and fixtures written as the database owner with an explicit organization.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database, Queryable } from '../../src/db/types.js';
import { buildApp, type AppOptions } from '../../src/http/app.js';

/** Monday 1 March 2027, 10:00 UTC: "today" is 2027-03-01 in Europe/Amsterdam (and in UTC). */
export const NOW = new Date('2027-03-01T10:00:00Z');

/** The real app on `db`; `options` for the settings a test varies. */
export async function startBookingApp(
  db: Database, now: (() => Date) | null = () => NOW, options: Omit<AppOptions, 'db' | 'now'> = {},
): Promise<FastifyInstance> {
  return buildApp(now ? { ...options, db, now } : { ...options, db });
}

export function client(app: FastifyInstance, key: string) {
  const headers = { authorization: `Bearer ${key}` };
  return {
    post: (url: string, body: unknown, extra: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
      app.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload: body as object }),
    get: (url: string): Promise<LightMyRequestResponse> => app.inject({ method: 'GET', url, headers }),
  };
}

function literal(value: unknown): unknown {
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'boolean')) {
    return `{${value.map((item) => (item ? 't' : 'f')).join(',')}}`;
  }
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** Inserts one row as the owner (RLS does not apply) and returns it. */
export async function insert<R = Record<string, unknown>>(db: Queryable, table: string, row: Record<string, unknown>): Promise<R> {
  const columns = Object.keys(row);
  const { rows } = await db.query<R>(
    `INSERT INTO api.${table} (${columns.map((c) => `"${c}"`).join(', ')})
     VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
    columns.map((c) => literal(row[c])),
  );
  return rows[0]!;
}

export interface Fixtures {
  product(fields?: Record<string, unknown>): Promise<string>;
  configuration(productId: string, fields?: Record<string, unknown>): Promise<string>;
  group(name: string, fields?: Record<string, unknown>): Promise<string>;
  dependency(accumulatorId: string, elementId: string): Promise<void>;
  capacity(productId: string, groupId: string, min: number, max: number | null): Promise<void>;
  service(productId: string, fields: Record<string, unknown>): Promise<string>;
  option(serviceId: string, name: string, pricing: Record<string, unknown> | null): Promise<string>;
  tax(productId: string, fields: Record<string, unknown>): Promise<string>;
  coupon(fields: Record<string, unknown>, productIds?: string[], serviceIds?: string[]): Promise<string>;
  event(productId: string, fields: Record<string, unknown>): Promise<string>;
}

export function fixtures(db: Queryable, organizationId: string): Fixtures {
  let order = 0;
  const row = (table: string, fields: Record<string, unknown>) =>
    insert<{ id: string }>(db, table, { organization_id: organizationId, ...fields }).then((r) => r.id);
  return {
    product: (fields = {}) =>
      row('products', { name: { default: 'Dune House' }, rent_period: 'nightly', timezone: 'Europe/Amsterdam', interaction: 'book', ...fields }),
    configuration: (productId, fields = {}) =>
      row('product_configurations', {
        product_id: productId, intervals: '{[2027-01-01,2028-12-31)}', rates: [{ duration: 1, occupancy: 1, rate: 10000 }],
        min_duration: 1, ...fields,
      }),
    group: (name, fields = {}) => row('capacity_groups', { name: { default: name }, ...fields }),
    dependency: async (accumulatorId, elementId) => {
      await row('capacity_group_dependencies', { accumulator_id: accumulatorId, element_id: elementId });
    },
    capacity: async (productId, groupId, min, max) => {
      await row('capacities', { product_id: productId, capacity_group_id: groupId, min, max });
    },
    service: async (productId, fields) => {
      const id = await row('services', { name: { default: 'Service' }, ...fields });
      await row('product_services', { product_id: productId, service_id: id, order: (order += 1) });
      return id;
    },
    option: (serviceId, name, pricing) => row('service_options', { service_id: serviceId, name: { default: name }, pricing }),
    tax: async (productId, fields) => {
      const id = await row('taxes', { name: 'VAT', percentage: 9, ...fields });
      await row('product_taxes', { product_id: productId, tax_id: id });
      return id;
    },
    coupon: async (fields, productIds = [], serviceIds = []) => {
      const id = await row('coupons', { code: 'SAVE10', definition: { type: 'percentage', value: 10 }, ...fields });
      for (const productId of productIds) await row('coupon_products', { coupon_id: id, product_id: productId });
      for (const serviceId of serviceIds) await row('coupon_services', { coupon_id: id, service_id: serviceId });
      return id;
    },
    event: (productId, fields) => row('calendar_events', { product_id: productId, type: 'booking', status: 'CONFIRMED', ...fields }),
  };
}
