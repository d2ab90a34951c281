/** Fixed-concurrency load for a fixed time: HTTP through autocannon, direct SQL through the `pg` driver. */
import autocannon from 'autocannon';
import hdr from 'hdr-histogram-js';
import pg from 'pg';
import type { Scenario } from './scenarios.js';
import type { CapturedStatement } from './engine-sql.js';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
}

export async function httpLoad(baseUrl: string, apiKey: string, scenario: Scenario, connections: number, seconds: number): Promise<LoadResult> {
  let sent = 0;
  const bodyFor = scenario.bodyFor;
  const result = await autocannon({
    url: `${baseUrl}${scenario.path}`,
    method: scenario.method,
    headers: { authorization: `Bearer ${apiKey}`, ...scenario.headers },
    body: scenario.body === undefined ? undefined : JSON.stringify(scenario.body),
    requests: bodyFor ? [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(bodyFor(sent++)) }) }] : undefined,
    connections,
    duration: seconds,
    // Slow operations (availability over a year) are reported with their latency rather than as timeouts.
    timeout: 60,
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    requests: result.requests.total,
  };
}

/**
 * The same work without the API: each "request" is the transaction the API runs (role and tenant settings, the
 * engine's statement, commit) on a pool of the same size as the server's.
 */
export async function directLoad(
  databaseUrl: string,
  organizationId: string,
  statement: CapturedStatement,
  connections: number,
  seconds: number,
  poolSize: number,
): Promise<LoadResult> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, options: '-c TimeZone=UTC' });
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  let requests = 0;
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < deadline) {
      const started = process.hrtime.bigint();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SELECT set_config('role', 'staykit_api', true), set_config('staykit.organization_id', $1, true)`, [organizationId]);
        await client.query(statement.text, statement.values);
        await client.query('COMMIT');
        requests++;
      } catch {
        errors++;
        await client.query('ROLLBACK').catch(() => undefined);
      } finally {
        client.release();
      }
      histogram.recordValue(Math.max(1, Number((process.hrtime.bigint() - started) / 1000n)));
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  await pool.end();
  return {
    requestsPerSecond: requests / seconds,
    p50: histogram.getValueAtPercentile(50) / 1000,
    p99: histogram.getValueAtPercentile(99) / 1000,
    errors,
    requests,
  };
}
