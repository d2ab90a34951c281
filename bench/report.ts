/** The benchmark's Markdown report: one row per scenario, API beside direct SQL, and the run's context. */
import type { LoadResult } from './load.js';
import type { DatasetSize } from './dataset.js';

export interface ScenarioResult {
  name: string;
  api: LoadResult;
  direct: LoadResult | undefined;
  target: number | undefined;
}

export interface RunContext {
  date: string;
  machine: string;
  node: string;
  postgres: string;
  backend: string;
  size: DatasetSize;
  connections: number;
  seconds: number;
  serverPeakRssMiB: number | undefined;
  setupSeconds: number;
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

function verdict(result: ScenarioResult): string {
  if (!result.direct) return 'n/a';
  const ratio = result.api.requestsPerSecond / result.direct.requestsPerSecond;
  const share = `${fixed(ratio * 100, 0)} %`;
  if (result.target === undefined) return share;
  return `${share} (target ≥ ${fixed(result.target * 100, 0)} %: ${ratio >= result.target ? 'met' : 'not met'})`;
}

export interface WebhookResult {
  perSecond: number;
  count: number;
  workers: number;
  concurrency: number;
  duplicates: number;
}

export function renderReport(context: RunContext, results: ScenarioResult[], webhooks?: WebhookResult): string {
  const lines = [
    `# Staykit benchmark — ${context.date}`,
    '',
    `Machine: ${context.machine}; Node ${context.node}; ${context.backend} ${context.postgres}.`,
    `Data: ${context.size.organizations} organizations, ${context.size.products} products, ${context.size.events} calendar events, ` +
      `${context.size.bookings} bookings (with line items and details). Set-up took ${fixed(context.setupSeconds, 0)} s.`,
    `Load: ${context.connections} concurrent connections, ${context.seconds} s per scenario and side. API = HTTP through ` +
      'autocannon to a `staykit serve` process; direct = the same transaction (role and tenant settings, the engine\'s ' +
      'own SQL statement, commit) through the `pg` driver on a pool of the same size.',
    `Server peak memory (VmHWM): ${context.serverPeakRssMiB === undefined ? 'n/a' : `${fixed(context.serverPeakRssMiB, 0)} MiB`}.`,
    '',
    '| Scenario | API req/s | API p50 ms | API p99 ms | API errors | Direct req/s | Direct p50 ms | Direct p99 ms | API / direct |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...results.map((r) =>
      [
        r.name,
        fixed(r.api.requestsPerSecond),
        fixed(r.api.p50, 2),
        fixed(r.api.p99, 2),
        String(r.api.errors),
        r.direct ? fixed(r.direct.requestsPerSecond) : 'n/a',
        r.direct ? fixed(r.direct.p50, 2) : 'n/a',
        r.direct ? fixed(r.direct.p99, 2) : 'n/a',
        verdict(r),
      ].join(' | ').replace(/^/, '| ').replace(/$/, ' |'),
    ),
    '',
    webhooks
      ? `Webhook deliveries (signed POSTs to a loopback receiver answering 204, PostgreSQL, ${webhooks.workers} worker pools × ` +
        `${webhooks.concurrency} concurrent): ${webhooks.perSecond} deliveries/s over ${webhooks.count} notifications, ` +
        `${webhooks.duplicates} duplicates.`
      : 'Webhook deliveries: not run.',
    '',
  ];
  return lines.join('\n');
}
