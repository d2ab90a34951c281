/**
 * The scale-out part of the PostgreSQL run (docs/scaling.md): one scenario driven against `staykit serve` with one
 * process, with `--processes 2`, and with one process through PgBouncer in transaction mode, back to back on the same
 * data set, so the report can give 2 processes / 1 and PgBouncer / direct as ratios. PgBouncer's run is left out
 * (and said so) when its binary is missing.
 */
import type { Scenario } from './scenarios.js';
import type { Dataset } from './dataset.js';
import { httpLoad, type LoadResult } from './load.js';
import { startServerProcess, type ServerProcess } from '../test/support/server-process.js';
import { pgbouncerAvailable, startPgBouncer, type PgBouncer } from '../test/scale/support/pgbouncer.js';

/** The server's pool (src/db/postgres.ts): PgBouncer gets as many server connections. */
const POOL_SIZE = 10;

export interface ScaleOutRun {
  setup: string;
  result: LoadResult;
}

export interface ScaleOutResult {
  scenario: string;
  connections: number;
  runs: ScaleOutRun[];
  notes: string[];
}

const UNLIMITED = { STAYKIT_RATE_LIMIT: '100000000', STAYKIT_RATE_LIMIT_BURST: '100000000' };

async function drive(server: ServerProcess, dataset: Dataset, scenario: Scenario, connections: number, seconds: number): Promise<LoadResult> {
  // One request first, so the run does not pay for each process's cold start.
  for (let i = 0; i < 4; i += 1) {
    await fetch(`${server.url}${scenario.path}`, { headers: { authorization: `Bearer ${dataset.apiKey}`, ...scenario.headers } })
      .then((response) => response.arrayBuffer()).catch(() => undefined);
  }
  return httpLoad(server.url, dataset.apiKey, scenario, connections, seconds);
}

export async function scaleOutRuns(
  url: string, dataset: Dataset, scenario: Scenario, connections: number, seconds: number, log: (text: string) => void,
): Promise<ScaleOutResult> {
  const runs: ScaleOutRun[] = [];
  const notes: string[] = [];
  const setups: { setup: string; start: () => Promise<{ server: ServerProcess; bouncer?: PgBouncer }> }[] = [
    { setup: '1 process', start: async () => ({ server: await startServerProcess({ DATABASE_URL: url, ...UNLIMITED }) }) },
    { setup: '2 processes (`--processes 2`)', start: async () => ({ server: await startServerProcess({ DATABASE_URL: url, ...UNLIMITED }, ['--processes', '2']) }) },
  ];
  if (pgbouncerAvailable()) {
    setups.push({
      setup: '1 process through PgBouncer (transaction mode)',
      start: async () => {
        const bouncer = await startPgBouncer(url, POOL_SIZE);
        const server = await startServerProcess({ DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: url, ...UNLIMITED }).catch(async (error: unknown) => {
          await bouncer.stop();
          throw error;
        });
        return { server, bouncer };
      },
    });
  } else {
    notes.push('PgBouncer is not installed here (/usr/sbin/pgbouncer): its run is missing.');
  }
  for (const { setup, start } of setups) {
    log(`  scale-out, ${scenario.name}, ${setup} …`);
    const { server, bouncer } = await start();
    try {
      const result = await drive(server, dataset, scenario, connections, seconds);
      log(` ${result.requestsPerSecond.toFixed(1)} req/s\n`);
      runs.push({ setup, result });
    } finally {
      await server.stop();
      await bouncer?.stop();
    }
  }
  return { scenario: scenario.name, connections, runs, notes };
}

/** True when the run had errors or completed nothing. */
export function scaleOutFailed(result: ScaleOutResult | undefined): boolean {
  return result !== undefined && result.runs.some((run) => run.result.errors > 0 || run.result.requests === 0);
}

export function renderScaleOut(result: ScaleOutResult): string {
  const base = result.runs[0]?.result.requestsPerSecond ?? 0;
  const rows = result.runs.map(({ setup, result: run }) =>
    `| ${setup} | ${run.requestsPerSecond.toFixed(1)} | ${run.p50.toFixed(0)} / ${run.p99.toFixed(0)} | ${base > 0 ? `${(run.requestsPerSecond / base).toFixed(2)}` : '–'} |${run.errors > 0 ? ` errors: ${run.errorKinds}` : ''}`);
  return [
    '',
    '### Scale-out (PostgreSQL)',
    '',
    `\`${result.scenario}\` at ${result.connections} connections, each setup on the same data set, one after the other; the`,
    'ratio is against 1 process. All processes, PgBouncer, PostgreSQL and the load generator share this machine\'s cores,',
    'so a second process can only gain what the first left idle.',
    '',
    '| Setup | req/s | p50 / p99 ms | ratio |',
    '|---|---:|---:|---:|',
    ...rows,
    ...result.notes.map((note) => `\n${note}`),
    '',
  ].join('\n');
}
