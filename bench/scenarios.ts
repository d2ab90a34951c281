/**
 * What the benchmark drives: each scenario is one HTTP request, repeated at fixed concurrency. Dates are relative
 * to the data set's run date, so the booking flow reads a calendar that holds a year of bookings.
 */
import { addDays, type Dataset } from './dataset.js';
import { searchScaleScenarios } from './search-scale.js';

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
  /** Target of issue 24 (README, Performance): API throughput as a share of direct SQL (lists and embeds ≥ 90 %). */
  target?: number;
  /** Concurrency of this scenario when not the run's (e.g. 1: the latency of one request on its own). */
  connections?: number;
  /** Target latency in ms (judged on the API's p50 in this scenario). */
  latencyTarget?: number;
}

/** The first day of the month `offset` months from the one `date` is in (YYYY-MM-DD). */
function firstOfMonth(date: string, offset: number): string {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 1 + offset, 1)).toISOString().slice(0, 10);
}

export function scenarios(dataset: Dataset): Scenario[] {
  const json = { 'content-type': 'application/json' };
  const product = dataset.productIds[0]!;
  const availabilityProducts = dataset.productIds.slice(0, 100);
  const availabilityStart = addDays(dataset.today, 30);
  const availability = `/v1/availability?product_ids=${availabilityProducts.join(',')}&start=${availabilityStart}&end=${addDays(availabilityStart, 365)}`;
  const week = { start: dataset.week.start, end: dataset.week.end };
  return [
    { name: 'list bookings (limit 100)', method: 'GET', path: '/v1/bookings?select=*&limit=100', engine: true, target: 0.9 },
    { name: 'list bookings, count=exact', method: 'GET', path: '/v1/bookings?select=*&limit=100', headers: { prefer: 'count=exact' }, engine: true, target: 0.9 },
    {
      name: 'filtered list of calendar events',
      method: 'GET',
      path: `/v1/calendar_events?status=eq.CONFIRMED&start_date=gte.${dataset.today}&order=start_date.desc&limit=100`,
      engine: true,
      target: 0.9,
    },
    {
      name: 'two-level embed (products + configurations + events)',
      method: 'GET',
      path: '/v1/products?select=*,product_configurations(*),calendar_events(*)&limit=20',
      engine: true,
      target: 0.9,
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
      name: `availability of ${availabilityProducts.length} products over 365 days`,
      method: 'GET',
      path: availability,
      engine: false,
    },
    {
      // The latency of one availability request on its own: the target (< 50 ms) is about this, not queueing.
      name: `availability of ${availabilityProducts.length} products over 365 days, 1 connection`,
      method: 'GET',
      path: availability,
      engine: false,
      connections: 1,
      latencyTarget: 50,
    },
    {
      name: `search over ${dataset.productIds.length} products (a week)`,
      method: 'POST',
      path: '/v1/search',
      headers: json,
      body: { interval: week, occupancy: {} },
      engine: false,
    },
    {
      name: 'quote of a week',
      method: 'POST',
      path: '/v1/quote',
      headers: json,
      body: { product_id: dataset.quoteProductId, interval: week, occupancy: {} },
      engine: false,
    },
    {
      // Every connection books the same few products at once, each request other dates after the generated
      // calendar: the exclusion constraint is checked under contention, and every request must still succeed.
      name: 'book under contention (4 products, distinct dates)',
      method: 'POST',
      path: '/v1/book',
      headers: json,
      bodyFor: (n) => {
        const start = addDays(dataset.freeFrom, Math.floor(n / 4) * 3);
        return {
          product_id: dataset.productIds[n % Math.min(4, dataset.productIds.length)],
          interval: { start, end: addDays(start, 2) },
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
      target: 0.9,
    },
    {
      // docs/reports.md: a year of monthly figures over every unit (12 × 1,000 unit-months computed, summed per month
      // in the database: a list would stop at 1,000 rows), one request on its own (issue 38: well under 1 s).
      name: `monthly report of ${dataset.productIds.length} units over 12 months, 1 connection`,
      method: 'GET',
      path: `/v1/report_unit_months?select=month,available_nights.sum(),booked_nights.sum(),revenue.sum(),bookings.sum()`
        + `&month=gte.${firstOfMonth(dataset.today, -11)}&month=lte.${firstOfMonth(dataset.today, 0)}`,
      engine: true,
      connections: 1,
      latencyTarget: 1000,
    },
    // Aggregates (docs/query-engine.md "Aggregates"): the reporting questions of a property manager's dashboard.
    {
      name: 'aggregates: revenue per kind of line item',
      method: 'GET',
      path: '/v1/line_items?select=item_type,amount.sum(),count()',
      engine: true,
    },
    {
      name: 'aggregates: events per product and status over 30 days',
      method: 'GET',
      path: `/v1/calendar_events?select=product_id,status,count()&start_date=gte.${dataset.today}&start_date=lt.${addDays(dataset.today, 30)}`,
      engine: true,
    },
    {
      name: 'aggregates: events counted per product (embedded count, 20 products)',
      method: 'GET',
      path: '/v1/products?select=name,calendar_events(count())&limit=20',
      engine: true,
    },
    {
      name: 'aggregates: revenue per booking currency (to-one spread)',
      method: 'GET',
      path: '/v1/line_items?select=amount.sum(),...bookings(currency)',
      engine: true,
    },
    ...searchScaleScenarios(dataset),
  ];
}
