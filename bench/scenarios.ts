/** What the benchmark drives: each scenario is one HTTP request, repeated at fixed concurrency. */
import type { Dataset } from './dataset.js';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Path and query under the server's address, e.g. `/v1/bookings?limit=100`. */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** A body per request (the n-th request of the run), when each must differ. */
  bodyFor?: (n: number) => unknown;
  /** Resource-engine scenarios are also run directly against PostgreSQL with the engine's own SQL. */
  engine: boolean;
  /** Targets of DESIGN/issue: API throughput as a share of direct SQL. */
  target?: number;
}

export function scenarios(dataset: Dataset): Scenario[] {
  const json = { 'content-type': 'application/json' };
  const product = dataset.productIds[0]!;
  return [
    { name: 'list bookings (limit 100)', method: 'GET', path: '/v1/bookings?select=*&limit=100', engine: true, target: 0.8 },
    { name: 'list bookings, count=exact', method: 'GET', path: '/v1/bookings?select=*&limit=100', headers: { prefer: 'count=exact' }, engine: true, target: 0.8 },
    {
      name: 'filtered list of calendar events',
      method: 'GET',
      path: '/v1/calendar_events?status=eq.CONFIRMED&start_date=gte.2025-06-01&order=start_date.desc&limit=100',
      engine: true,
      target: 0.8,
    },
    {
      name: 'two-level embed (products + configurations + events)',
      method: 'GET',
      path: '/v1/products?select=*,product_configurations(*),calendar_events(*)&limit=20',
      engine: true,
      target: 0.6,
    },
    {
      name: 'single-row POST (contact)',
      method: 'POST',
      path: '/v1/contacts',
      headers: { ...json, prefer: 'return=minimal' },
      body: { first_name: 'Ada', last_name: 'Bench', email: 'ada@example.com' },
      engine: true,
    },
    {
      name: 'single-row PATCH (contact)',
      method: 'PATCH',
      path: `/v1/contacts?id=eq.${dataset.contactId}`,
      headers: { ...json, prefer: 'return=minimal' },
      body: { notes: 'updated by the benchmark' },
      engine: true,
    },
    {
      name: 'bulk POST of 1,000 contacts',
      method: 'POST',
      path: '/v1/contacts',
      headers: { ...json, prefer: 'return=minimal' },
      body: Array.from({ length: 1000 }, (_, i) => ({ first_name: `Guest ${i}`, last_name: 'Bulk' })),
      engine: true,
    },
    {
      name: `availability of ${Math.min(100, dataset.productIds.length)} products over 365 days`,
      method: 'GET',
      path: `/v1/availability?product_ids=${dataset.productIds.slice(0, 100).join(',')}&start=2027-01-01&end=2028-01-01`,
      engine: false,
    },
    {
      name: `search over ${dataset.productIds.length} products`,
      method: 'POST',
      path: '/v1/search',
      headers: json,
      body: { interval: { start: '2027-05-03', end: '2027-05-10' }, occupancy: {} },
      engine: false,
    },
    {
      name: 'quote of a week',
      method: 'POST',
      path: '/v1/quote',
      headers: json,
      body: { product_id: product, interval: { start: '2027-05-03', end: '2027-05-10' }, occupancy: {} },
      engine: false,
    },
    {
      // Every connection books the same few products at once, each request other dates: the exclusion
      // constraint is checked under contention, and every request must still succeed.
      name: 'book under contention (4 products, distinct dates)',
      method: 'POST',
      path: '/v1/book',
      headers: json,
      bodyFor: (n) => {
        const start = new Date(Date.UTC(2028, 0, 1) + Math.floor(n / 4) * 3 * 86_400_000);
        const end = new Date(start.getTime() + 2 * 86_400_000);
        return {
          product_id: dataset.productIds[n % 4],
          interval: { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) },
          occupancy: {},
          silent: true,
        };
      },
      engine: false,
    },
    {
      name: 'single product with its configurations',
      method: 'GET',
      path: `/v1/products?id=eq.${product}&select=id,name,product_configurations(name,rates)`,
      engine: true,
      target: 0.8,
    },
  ];
}
