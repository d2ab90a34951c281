/**
 * The SQL the engine runs for a scenario, captured by running the real engine against a recording connection:
 * the direct-SQL baseline runs exactly this statement, so the ratio measures only what the API adds.
 */
import type { Queryable, QueryResult, Row } from '../src/db/types.js';
import { runRequest } from '../src/query/run.js';
import type { SchemaCache } from '../src/schema/types.js';
import { API_PREFIX, MAX_ROWS } from '../src/http/staykit-api.js';
import type { Scenario } from './scenarios.js';

export interface CapturedStatement {
  text: string;
  values: unknown[];
}

export async function engineStatement(scenario: Scenario, cache: SchemaCache, organizationId: string): Promise<CapturedStatement> {
  const captured: CapturedStatement[] = [];
  const recorder: Queryable = {
    async query<R = Row>(text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
      captured.push({ text, values: [...values] });
      return { rows: [{ page_total: 0, total: null, body: '[]' } as R], rowCount: 1 };
    },
    async exec() {},
  };
  const [path, query = ''] = scenario.path.replace(`${API_PREFIX}/`, '').split('?');
  const headers: Record<string, string | undefined> = { ...scenario.headers };
  await runRequest(
    recorder,
    { method: scenario.method, path: path!, query, headers, body: scenario.body === undefined ? undefined : JSON.stringify(scenario.body) },
    cache,
    { maxRows: MAX_ROWS, requireFilterForWrites: true, basePath: API_PREFIX, tenant: { column: 'organization_id', value: organizationId } },
  );
  if (captured.length !== 1) throw new Error(`expected one statement for ${scenario.name}, got ${captured.length}`);
  return captured[0]!;
}
