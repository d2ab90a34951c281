/** Fixed-concurrency load for a fixed time: HTTP through autocannon, direct SQL through the `pg` driver. */
import autocannon from 'autocannon';
import hdr from 'hdr-histogram-js';
import type { Database } from '../src/db/types.js';
import type { Principal } from '../src/auth/principal.js';
import { inTenantTransaction } from '../src/transaction/tenant-transaction.js';
import type { Scenario } from './scenarios.js';
import type { CapturedStatement } from './engine-sql.js';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** What the errors were, e.g. "504 ×12, 3 timeouts" (empty without errors). */
  errorKinds: string;
}

export async function httpLoad(baseUrl: string, apiKey: string, scenario: Scenario, connections: number, seconds: number): Promise<LoadResult> {
  // A fresh counter per run: bodyFor(n) must give each request of the run other dates.
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
    // Slow operations are reported with their latency rather than as timeouts; the run still ends after `seconds`.
    timeout: 60,
  });
  // autocannon's `errors` include its timeouts.
  const errors = result.errors + result.non2xx;
  const kinds = Object.entries(result.statusCodeStats ?? {})
    .filter(([code, stats]) => !code.startsWith('2') && (stats.count ?? 0) > 0)
    .map(([code, stats]) => `${code} ×${stats.count}`);
  if (result.timeouts > 0) kinds.push(`${result.timeouts} timeouts`);
  if (result.errors - result.timeouts > 0) kinds.push(`${result.errors - result.timeouts} socket errors`);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    requests: result.requests.total,
    errorKinds: kinds.join(', '),
  };
}

/**
 * The same work without the API: each "request" is the transaction the API runs — `inTenantTransaction`, the
 * server's own code (role, tenant and timeout settings), around the engine's captured statement — on `db`, a pool
 * of the server's size on PostgreSQL, or the one PGlite connection (which serialises, as in the server).
 */
export async function directLoad(db: Database, principal: Principal, statement: CapturedStatement, connections: number, seconds: number): Promise<LoadResult> {
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  let requests = 0;
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = process.hrtime.bigint();
      let failed = false;
      try {
        await inTenantTransaction(db, principal, async (tx) => ({ result: await tx.query(statement.text, statement.values), rollback: false }));
      } catch {
        failed = true;
      }
      // As autocannon does: what completes after the deadline is not counted.
      if (performance.now() > deadline) break;
      if (failed) errors++;
      else requests++;
      histogram.recordValue(Math.max(1, Number((process.hrtime.bigint() - t0) / 1000n)));
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return {
    requestsPerSecond: requests / seconds,
    p50: histogram.getValueAtPercentile(50) / 1000,
    p99: histogram.getValueAtPercentile(99) / 1000,
    errors,
    requests,
    errorKinds: errors > 0 ? `${errors} failed transactions` : '',
  };
}
