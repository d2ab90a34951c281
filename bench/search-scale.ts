/**
 * The search and availability scale scenarios (issue 24): `/search` for a week over 100, 1,000 and 5,000 units at one
 * connection and over 1,000 at 32, and `/availability` for 365 days over 1, 100 and 1,000 units at one connection.
 * The 100- and 5,000-unit sides are the data set's search tenants (bench/dataset.ts), the 1,000 the tenant under
 * test; each request sends its tenant's key. Unit counts scale with the data set (PGlite runs a smaller one).
 */
import { addDays, type Dataset } from './dataset.js';
import type { Scenario } from './scenarios.js';

/** Targets of issue 24, judged on the API's p50 (ms). */
const SEARCH_ONE_CONNECTION_MS = 50;
const SEARCH_32_CONNECTIONS_MS = 100;
const AVAILABILITY_ONE_CONNECTION_MS = 20;

interface Tenant {
  apiKey: string;
  productIds: string[];
}

export function searchScaleScenarios(dataset: Dataset): Scenario[] {
  const json = { 'content-type': 'application/json' };
  const [small, large] = dataset.searchTenants;
  const main: Tenant = { apiKey: dataset.apiKey, productIds: dataset.productIds };
  const tenants = [small, main, large].filter((tenant): tenant is Tenant => tenant !== undefined);
  const week = { start: dataset.week.start, end: dataset.week.end };
  const search = (tenant: Tenant, connections: number, latencyTarget: number): Scenario => ({
    name: `search a week over ${tenant.productIds.length} units, ${connections} connection${connections === 1 ? '' : 's'}`,
    method: 'POST',
    path: '/v1/search',
    headers: { ...json, authorization: `Bearer ${tenant.apiKey}` },
    body: { interval: week, occupancy: {} },
    engine: false,
    connections,
    latencyTarget,
  });
  const start = addDays(dataset.today, 30);
  const window = `start=${start}&end=${addDays(start, 365)}`;
  const availability = (tenant: Tenant, only: string | null, latencyTarget: number | undefined): Scenario => ({
    name: `availability over 365 days of ${only ? 1 : tenant.productIds.length} unit${only ? '' : 's'}, 1 connection`,
    method: 'GET',
    // Every unit of the tenant: no product_ids (1,000 ids would pass the URL length limit).
    path: `/v1/availability?${only ? `product_ids=${only}&` : ''}${window}`,
    headers: { authorization: `Bearer ${tenant.apiKey}` },
    engine: false,
    connections: 1,
    ...(latencyTarget === undefined ? {} : { latencyTarget }),
  });
  return [
    ...tenants.map((tenant) => search(tenant, 1, SEARCH_ONE_CONNECTION_MS)),
    search(main, 32, SEARCH_32_CONNECTIONS_MS),
    availability(main, main.productIds[0]!, AVAILABILITY_ONE_CONNECTION_MS),
    ...(small ? [availability(small, null, AVAILABILITY_ONE_CONNECTION_MS)] : []),
    availability(main, null, undefined),
  ];
}
