/**
 * The benchmark's Markdown report: per backend one row per scenario, API beside direct SQL, the run's context and
 * the issue's targets, each reported as met or not (they are reported, not asserted).
 */
import type { LoadResult } from './load.js';
import type { DatasetSize } from './dataset.js';
import type { CpuSplit } from './cpu.js';

export interface ScenarioResult {
  name: string;
  api: LoadResult;
  direct: LoadResult | undefined;
  target: number | undefined;
  /** Concurrency of this scenario (the run's unless the scenario sets its own). */
  connections: number;
  latencyTarget: number | undefined;
  /** What the table cannot say: error kinds, a run that started before the previous one's requests were done. */
  notes: string[];
  /** CPU per request of each side, when /proc could be read. */
  apiCpu?: CpuSplit | undefined;
  directCpu?: CpuSplit | undefined;
}

export interface WebhookResult {
  perSecond: number;
  count: number;
  workers: number;
  concurrency: number;
  duplicates: number;
}

export interface BackendReport {
  /** "PostgreSQL" or "PGlite". */
  backend: string;
  version: string;
  size: DatasetSize;
  connections: number;
  seconds: number;
  generationSeconds: number;
  /** How the generator kept row triggers out of the load. */
  generationMode: string;
  setupSeconds: number;
  serverPeakRssMiB: number | undefined;
  /** How the direct side ran (pool of the server's size, or PGlite in-process after the server stopped). */
  directNote: string;
  results: ScenarioResult[];
  webhooks: WebhookResult | undefined;
  /** Why the webhook part failed, when it did. */
  webhookError?: string | undefined;
  /** Why this backend was not run, when it was not. */
  skipped?: string;
}

export interface RunReport {
  date: string;
  machine: string;
  node: string;
  totalSeconds: number;
  backends: BackendReport[];
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

/** API throughput over direct throughput, when both sides completed requests without errors. */
function ratioOf(result: ScenarioResult): number | undefined {
  const { api, direct } = result;
  if (!direct || api.errors > 0 || direct.errors > 0 || api.requests === 0 || direct.requests === 0) return undefined;
  return api.requestsPerSecond / direct.requestsPerSecond;
}

function verdict(result: ScenarioResult): string {
  if (!result.direct) return 'n/a';
  const ratio = ratioOf(result);
  if (ratio === undefined) return 'n/a (errors or nothing completed)';
  const share = `${fixed(ratio * 100, 0)} %`;
  if (result.target === undefined) return share;
  return `${share} (target ≥ ${fixed(result.target * 100, 0)} %: ${ratio >= result.target ? 'met' : 'not met'})`;
}

/** Issue 24's latency target for every scenario at the run's concurrency, and issue 10's that still stand. */
const MAX_P99_MS = 50;
const MIN_WEBHOOKS_PER_SECOND = 5000;
const MAX_RSS_MIB = 250;
/** Above this share of busy CPU the two cores were the bottleneck: throughput then follows CPU per request. */
const SATURATED = 0.9;

const ms = (value: number | undefined) => (value === undefined ? 'n/a' : fixed(value, 2));
const cpuTotal = (cpu: CpuSplit) => (cpu.serverMs ?? 0) + (cpu.postgresMs ?? 0) + cpu.benchMs;

function cpuText(cpu: CpuSplit, parts: { server: string; postgres: string; bench: string }): string {
  const named = [
    cpu.serverMs === undefined ? undefined : `${parts.server} ${ms(cpu.serverMs)}`,
    cpu.postgresMs === undefined ? undefined : `${parts.postgres} ${ms(cpu.postgresMs)}`,
    `${parts.bench} ${ms(cpu.benchMs)}`,
  ].filter((part) => part !== undefined);
  const busy = cpu.machineBusy === undefined ? '' : `, machine ${fixed(cpu.machineBusy * 100, 0)} % busy`;
  return `${named.join(' + ')} ms CPU per request${busy}`;
}

const API_PARTS = { server: 'server', postgres: 'PostgreSQL', bench: 'load generator' };
const DIRECT_PARTS = { server: 'server (idle)', postgres: 'PostgreSQL', bench: 'driver' };

/** Why a throughput ratio fell short, from the run's own CPU figures. */
function ratioReason(result: ScenarioResult): string {
  const { apiCpu, directCpu } = result;
  if (!apiCpu || !directCpu) return 'CPU per request not measured';
  const reason = `API: ${cpuText(apiCpu, API_PARTS)}; direct: ${cpuText(directCpu, DIRECT_PARTS)}`;
  const saturated = (apiCpu.machineBusy ?? 0) >= SATURATED && (directCpu.machineBusy ?? 0) >= SATURATED;
  if (!saturated) return reason;
  const predicted = (cpuTotal(directCpu) / cpuTotal(apiCpu)) * 100;
  return `${reason}. Both sides saturated the cores, so the ratio follows CPU per request: ${fixed(predicted, 0)} % predicted`;
}

/** Why a latency figure fell short: where one request's CPU went, and the direct side's own figure when there is one. */
function latencyReason(result: ScenarioResult, percentile: 'p50' | 'p99'): string {
  const parts: string[] = [];
  if (result.direct) parts.push(`direct SQL alone: ${percentile} ${fixed(result.direct[percentile], 1)} ms`);
  if (result.apiCpu) parts.push(cpuText(result.apiCpu, API_PARTS));
  return parts.length > 0 ? parts.join('; ') : 'CPU per request not measured';
}

function targets(run: BackendReport): string[] {
  const met = (ok: boolean) => (ok ? 'met' : 'not met');
  const lines: string[] = [];
  for (const r of run.results.filter((result) => result.target !== undefined && result.direct)) {
    const ratio = ratioOf(r);
    const ok = ratio !== undefined && ratio >= r.target!;
    const measured = ratio === undefined ? 'n/a (errors or nothing completed)' : `${fixed(ratio * 100, 0)} %`;
    lines.push(`- ${r.name}, API ≥ ${fixed(r.target! * 100, 0)} % of direct SQL: ${measured} — ${met(ok)}${ok ? '' : ` (${ratioReason(r)})`}.`);
  }
  const concurrent = run.results.filter((r) => r.connections === run.connections);
  if (concurrent.length > 0) {
    const ok = concurrent.filter((r) => r.api.requests > 0 && r.api.errors === 0 && r.api.p99 < MAX_P99_MS);
    lines.push(
      `- API p99 < ${MAX_P99_MS} ms at ${run.connections} connections: ${ok.length} of ${concurrent.length} scenarios met` +
        (ok.length > 0 ? ` (${ok.map((r) => r.name).join('; ')}).` : '.'),
    );
    for (const r of concurrent.filter((result) => !ok.includes(result) && result.api.requests > 0)) {
      lines.push(`  - ${r.name}: p99 ${fixed(r.api.p99, 1)} ms (${latencyReason(r, 'p99')}).`);
    }
  }
  for (const r of run.results.filter((result) => result.latencyTarget !== undefined)) {
    const ok = r.api.requests > 0 && r.api.errors === 0 && r.api.p50 < r.latencyTarget!;
    const measured = r.api.requests > 0 ? `p50 ${fixed(r.api.p50, 1)} ms` : `none completed in ${run.seconds} s`;
    lines.push(`- ${r.name} under ${r.latencyTarget} ms: ${measured} — ${met(ok)}${ok ? '' : ` (${latencyReason(r, 'p50')})`}.`);
  }
  if (run.webhooks) {
    lines.push(`- ≥ ${MIN_WEBHOOKS_PER_SECOND} webhook deliveries/s: ${run.webhooks.perSecond}/s — ${met(run.webhooks.perSecond >= MIN_WEBHOOKS_PER_SECOND)}.`);
  }
  if (run.serverPeakRssMiB !== undefined) {
    lines.push(`- Server RSS < ${MAX_RSS_MIB} MB throughout: peak ${fixed(run.serverPeakRssMiB, 0)} MiB — ${met(run.serverPeakRssMiB < MAX_RSS_MIB)}.`);
  }
  return lines;
}

function section(run: BackendReport): string[] {
  if (run.skipped) return [`## ${run.backend}`, '', `Not run: ${run.skipped}`, ''];
  const s = run.size;
  return [
    `## ${run.backend} ${run.version}`,
    '',
    `Data: ${s.organizations} organizations; the tenant under test owns ${s.products} products, the other organizations ` +
      `${s.otherProducts}; ${s.events} calendar events and ${s.bookings} bookings (each with its event, line items and a detail) ` +
      `over all products, laid out from six months before the run date. Generated in ${fixed(run.generationSeconds, 1)} s ` +
      `(${run.generationMode}); set-up (database, migrations, data, server start) took ${fixed(run.setupSeconds, 0)} s.`,
    `Load: ${run.connections} concurrent connections (unless the scenario says otherwise), ${run.seconds} s per scenario and side. ` +
      'API = HTTP through autocannon to a `staykit serve` process (the compiled dist/, built at the start of the run); direct = ' + run.directNote,
    `Server peak memory (VmHWM): ${run.serverPeakRssMiB === undefined ? 'n/a' : `${fixed(run.serverPeakRssMiB, 0)} MiB`}.`,
    '',
    '| Scenario | API req/s | API p50 ms | API p99 ms | API errors | Direct req/s | Direct p50 ms | Direct p99 ms | API / direct | API CPU ms per request (server / PostgreSQL) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...run.results.map((r) =>
      [
        r.name,
        fixed(r.api.requestsPerSecond),
        r.api.requests > 0 ? fixed(r.api.p50, 2) : 'none completed',
        r.api.requests > 0 ? fixed(r.api.p99, 2) : 'n/a',
        String(r.api.errors),
        r.direct ? fixed(r.direct.requestsPerSecond) : 'n/a',
        r.direct ? fixed(r.direct.p50, 2) : 'n/a',
        r.direct ? fixed(r.direct.p99, 2) : 'n/a',
        verdict(r),
        r.apiCpu ? `${ms(r.apiCpu.serverMs)} / ${r.apiCpu.postgresMs === undefined ? 'in the server' : ms(r.apiCpu.postgresMs)}` : 'n/a',
      ]
        .join(' | ')
        .replace(/^/, '| ')
        .replace(/$/, ' |'),
    ),
    '',
    ...(run.results.some((r) => r.notes.length > 0)
      ? [...run.results.filter((r) => r.notes.length > 0).map((r) => `- ${r.name}: ${r.notes.join('; ')}.`), '']
      : []),
    run.webhooks
      ? `Webhook deliveries (signed POSTs to a loopback receiver answering 204, ${run.webhooks.workers} worker pool(s) × ` +
        `${run.webhooks.concurrency} concurrent): ${run.webhooks.perSecond} deliveries/s over ${run.webhooks.count} notifications, ` +
        `${run.webhooks.duplicates} duplicates.`
      : run.webhookError
        ? `Webhook deliveries: failed (${run.webhookError}).`
        : 'Webhook deliveries: not run.',
    '',
    'Targets (reported, not asserted):',
    '',
    ...targets(run),
    '',
  ];
}

export function renderReport(report: RunReport): string {
  return [
    `# Staykit benchmark — ${report.date}`,
    '',
    `Machine: ${report.machine}; Node ${report.node}. The whole run took ${fixed(report.totalSeconds, 0)} s.`,
    '',
    ...report.backends.flatMap(section),
  ].join('\n');
}
