/** What the benchmark drives: each scenario is one HTTP request, repeated at fixed concurrency. */
import type { Dataset } from './dataset.js';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Path and query under the server's address, e.g. `/v1/bookings?limit=100`. */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
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
      name: 'single product with its configurations',
      method: 'GET',
      path: `/v1/products?id=eq.${product}&select=id,name,product_configurations(name,rates)`,
      engine: true,
      target: 0.8,
    },
  ];
}
