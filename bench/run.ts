/**
 * `npm run bench` / `staykit bench`: for each backend (PostgreSQL, then a smaller run on PGlite) builds a database,
 * fills it (bench/dataset.ts), starts `staykit serve` on it and drives each scenario (bench/scenarios.ts) through
 * HTTP and, for the resource engine, directly through the driver with the same SQL; measures another organization's
 * latency under one organization's heavy work (bench/isolation.ts); then measures webhook deliveries. Prints the
 * Markdown report (and writes it to bench/results/latest.md on a full run) and the total time. Fails only if a
 * scenario or part returned errors or completed nothing. Options: bench/options.ts, docs/benchmark.md.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openPostgres } from '../src/db/postgres.js';
import { openPGlite } from '../src/db/pglite.js';
import { migrate } from '../src/db/migrate.js';
import type { Database } from '../src/db/types.js';
import type { Principal } from '../src/auth/principal.js';
import { loadSchemaCache } from '../src/schema/load.js';
import { type SchemaCache } from '../src/schema/types.js';
import { API_ROLE } from '../src/transaction/tenant-transaction.js';
import { UsageError } from '../src/cli/support/usage-error.js';
import { startServerProcess, type ServerProcess } from '../test/support/server-process.js';
import { adminQuery } from './admin-query.js';
import { generateDataset, type Dataset, type DatasetSize } from './dataset.js';
import { scenarios, type Scenario } from './scenarios.js';
import { engineStatement, type CapturedStatement } from './engine-sql.js';
import { directLoad, httpLoad, type LoadResult } from './load.js';
import { measureCpu, type BackendPids, type CpuSplit } from './cpu.js';
import { renderReport, type BackendReport, type ScenarioResult, type WebhookResult } from './report.js';
import { parseBenchArguments, pgliteSize, type BenchOptions } from './options.js';
import { renderScaleOut, scaleOutFailed, scaleOutRuns } from './scale-out.js';
import { buildDist, measureStartup, renderStartup } from './startup.js';
import { peerWanted, postgraphilePart, renderPeer, type PeerOutcome } from './postgraphile.js';
import { referencePagePart, referencePageWanted, renderReferencePage, type ReferencePageResult } from './reference-page.js';
import { renderWidgetWeight, widgetWeightPart, widgetWeightWanted, type WidgetWeightResult } from './widget-weight.js';
import { isolationPart, isolationWanted, renderIsolation, type IsolationOutcome } from './isolation.js';

/** The server's pool size (src/db/postgres.ts default): the direct side gets as many connections. */
const SERVER_POOL_SIZE = 10;
/**
 * What the benchmark's server runs with besides its database. Rate limits lifted. The per-organization cap
 * (`STAYKIT_TENANT_CONCURRENCY` and its queue) is set for the benchmark only — the product default stays 4 at once,
 * 32 waiting, 5 s: that cap shares one process's pool fairly among organizations, while the benchmark drives a
 * single organization and compares it with the same SQL on a pool of SERVER_POOL_SIZE. So here the organization may
 * use the whole pool, every connection may wait its turn, and for as long as the load generator's own timeout
 * (60 s): a run measures the API's throughput, not the fairness queue (docs/benchmark.md#the-benchmark-keys-limits).
 */
const BENCH_SERVER_SETTINGS = {
  STAYKIT_RATE_LIMIT: '100000000',
  STAYKIT_RATE_LIMIT_BURST: '100000000',
  STAYKIT_TENANT_CONCURRENCY: String(SERVER_POOL_SIZE),
  STAYKIT_TENANT_QUEUE: '1000',
  STAYKIT_TENANT_QUEUE_TIMEOUT: '60',
};
/** Longest wait for the previous scenario's requests to leave the database (the API's statement timeout is 10 s). */
const SETTLE_TIMEOUT_MS = 20_000;
/** On PGlite the queue drains one request after the other; bounded so that slow booking reads cannot stretch the run. */
const PGLITE_SETTLE_TIMEOUT_MS = 30_000;

type Log = (text: string) => void;

interface BackendOutcome {
  report: BackendReport;
  failed: boolean;
  /** Markdown appended to the report (the scale-out, isolation, PostGraphile and reference-page sections). */
  extra?: string;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function reachable(adminUrl: string): Promise<string | undefined> {
  try {
    await adminQuery(adminUrl, 'SELECT 1');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

async function peakRssMiB(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : undefined;
}

const seconds = (since: number) => (performance.now() - since) / 1000;

function failedResult(result: LoadResult | undefined): boolean {
  return result !== undefined && (result.errors > 0 || result.requests === 0);
}

/**
 * Requests a run leaves behind (autocannon stops at the deadline, the server finishes what it started) must not
 * load the next scenario. PostgreSQL: wait until the database has no other active statement. PGlite: one more API
 * request, whose transaction queues behind theirs for the server's one connection (PGlite's lock is first come,
 * first served).
 */
async function settle(server: ServerProcess, db: Database | undefined, dataset: Dataset): Promise<string | undefined> {
  const started = performance.now();
  if (db?.backend === 'postgres') {
    while (performance.now() - started < SETTLE_TIMEOUT_MS) {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
      );
      if (rows[0]?.n === 0) return undefined;
      await new Promise((done) => setTimeout(done, 100));
    }
    return `started while the previous run's statements were still active (waited ${SETTLE_TIMEOUT_MS / 1000} s)`;
  }
  const drained = await fetch(`${server.url}/v1/organizations?select=id`, {
    headers: { authorization: `Bearer ${dataset.apiKey}` },
    signal: AbortSignal.timeout(PGLITE_SETTLE_TIMEOUT_MS),
  })
    .then(async (response) => {
      await response.arrayBuffer();
      return true;
    })
    .catch(() => false);
  return drained ? undefined : `started while the previous run's requests were still queued (waited ${PGLITE_SETTLE_TIMEOUT_MS / 1000} s)`;
}

function principalOf(dataset: Dataset): Principal {
  return { keyRowId: dataset.keyRowId, keyId: dataset.keyId, organizationId: dataset.organizationId, scopes: ['read', 'write'] };
}

async function webhookDeliveries(backend: 'postgres' | 'pglite', count: number, adminUrl: string): Promise<WebhookResult> {
  // test/webhooks/bench.ts creates its database through test/support/databases.ts, which reads TEST_DATABASE_URL
  // when first imported: point it at the benchmark's server.
  if (backend === 'postgres') process.env.TEST_DATABASE_URL = adminUrl;
  const { benchWebhookDeliveries } = await import('../test/webhooks/bench.js');
  const result = await benchWebhookDeliveries({ backend, count, workers: 2 });
  return {
    perSecond: result.deliveries_per_second,
    count: result.count,
    workers: result.workers,
    concurrency: result.concurrency,
    duplicates: result.duplicates,
  };
}

/** The webhook part of a backend's run; a failure is reported (and fails the run) instead of ending it. */
async function webhookPart(backend: 'postgres' | 'pglite', options: BenchOptions, log: Log, where: string) {
  if (options.webhooks === 0 || options.only !== undefined) return { result: undefined, error: undefined, failed: false };
  log(`  webhook deliveries to a loopback receiver${where}`);
  try {
    const result = await webhookDeliveries(backend, options.webhooks, options.databaseUrl);
    log(` ${result.perSecond}/s${result.duplicates > 0 ? `, ${result.duplicates} duplicates` : ''}\n`);
    return { result, error: undefined, failed: result.duplicates > 0 };
  } catch (error) {
    log(` failed: ${(error as Error).message}\n`);
    return { result: undefined, error: (error as Error).message.split('\n')[0], failed: true };
  }
}

/** The scenarios to run, each engine scenario with its captured statement. */
async function plan(dataset: Dataset, cache: SchemaCache, only: string | undefined) {
  const selected = scenarios(dataset).filter((scenario) => only === undefined || scenario.name.includes(only));
  return Promise.all(
    selected.map(async (scenario) => ({
      scenario,
      statement: scenario.engine ? await engineStatement(scenario, cache, dataset.organizationId) : undefined,
    })),
  );
}

type Planned = { scenario: Scenario; statement: CapturedStatement | undefined }[];

/**
 * Load before the measured run, at the scenario's concurrency, so the measured one finds the server in its steady
 * state: V8 has compiled the path's code and the pool's PostgreSQL backends exist. A server's first seconds on a
 * path cost up to three times its later CPU per request (1.73 then 1.00 then 0.51 ms in three 6-second runs,
 * docs/benchmark.md). Not for scenarios whose every request must differ (/book): a second run would repeat the
 * warm-up's dates, so those get nothing.
 */
const WARM_UP_SECONDS = 2;

async function warmUp(server: ServerProcess, dataset: Dataset, scenario: Scenario, connections: number): Promise<void> {
  if (scenario.bodyFor) return;
  await httpLoad(server.url, dataset.apiKey, scenario, connections, WARM_UP_SECONDS).catch(() => undefined);
}

/** The PostgreSQL backends serving the benchmark's database (other databases' work on the machine is not counted). */
function backendPidsOf(db: Database): BackendPids {
  return async () =>
    (
      await db.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      )
    ).rows.map((row) => row.pid);
}

async function apiRun(
  server: ServerProcess, dataset: Dataset, scenario: Scenario, options: BenchOptions, runSeconds: number, log: Log,
  backendPids: BackendPids | undefined,
) {
  const connections = scenario.connections ?? options.connections;
  log(`  ${scenario.name}: API …`);
  await warmUp(server, dataset, scenario, connections);
  const { result: api, cpu } = await measureCpu(
    server.child.pid, backendPids, () => httpLoad(server.url, dataset.apiKey, scenario, connections, runSeconds), (load) => load.requests,
  );
  log(` ${api.requestsPerSecond.toFixed(1)} req/s, p99 ${api.p99.toFixed(1)} ms${api.errors > 0 ? `, errors: ${api.errorKinds}` : ''}`);
  return { api, connections, cpu };
}

interface SideOutcome {
  load: LoadResult;
  cpu: CpuSplit | undefined;
}

function result(scenario: Scenario, api: SideOutcome, direct: SideOutcome | undefined, connections: number, notes: string[]): ScenarioResult {
  if (api.load.errors > 0) notes.push(`API errors: ${api.load.errorKinds}`);
  if (direct && direct.load.errors > 0) notes.push(`direct errors: ${direct.load.errorKinds}`);
  return {
    name: scenario.name, api: api.load, direct: direct?.load, target: scenario.target, connections, latencyTarget: scenario.latencyTarget, notes,
    apiCpu: api.cpu, directCpu: direct?.cpu,
  };
}

async function runPostgres(options: BenchOptions, log: Log): Promise<BackendOutcome> {
  const size = options.size;
  const skipped = (reason: string): BackendOutcome => ({ report: emptyReport('PostgreSQL', size, options, options.seconds, reason), failed: false });
  const unreachable = await reachable(options.databaseUrl);
  if (unreachable) {
    const where = new URL(options.databaseUrl);
    const reason = `PostgreSQL at ${where.host} is not reachable (${unreachable}); set BENCH_DATABASE_URL or --database-url.`;
    if (options.explicitBackend) throw new Error(reason);
    log(`PostgreSQL skipped: ${reason}\n`);
    return skipped(reason);
  }
  const started = performance.now();
  const name = `staykit_bench_${Date.now()}`;
  const url = withDatabase(options.databaseUrl, name);
  await adminQuery(options.databaseUrl, `CREATE DATABASE ${name}`);
  let failed = false;
  const db = await openPostgres({ connectionString: url, maxConnections: 2 });
  try {
    await migrate(db);
    log(`PostgreSQL: generating ${JSON.stringify(size)} …`);
    const dataset = await generateDataset(db, size);
    log(` ${dataset.seconds.toFixed(1)} s (${dataset.steps.map((s) => `${s.name} ${s.seconds.toFixed(1)}`).join(', ')})\n`);
    const cache = await loadSchemaCache(db, { schema: 'api', role: API_ROLE });
    const version = (await db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]!.v;
    const planned = await plan(dataset, cache, options.only);
    const server = await startServerProcess({ DATABASE_URL: url, ...BENCH_SERVER_SETTINGS });
    const setupSeconds = seconds(started);
    const direct = await openPostgres({ connectionString: url, maxConnections: SERVER_POOL_SIZE });
    const results: ScenarioResult[] = [];
    let peak: number | undefined;
    let peer: PeerOutcome | undefined;
    let referencePage: ReferencePageResult | string | undefined;
    let widgetWeight: WidgetWeightResult | string | undefined;
    let isolation: IsolationOutcome | undefined;
    try {
      for (const { scenario, statement } of planned) {
        const notes: string[] = [];
        const busy = await settle(server, db, dataset);
        if (busy) notes.push(`API side ${busy}`);
        const { api, connections, cpu } = await apiRun(server, dataset, scenario, options, options.seconds, log, backendPidsOf(db));
        let directSide: SideOutcome | undefined;
        if (statement) {
          const stillBusy = await settle(server, db, dataset);
          if (stillBusy) notes.push(`direct side ${stillBusy}`);
          log(' — direct …');
          await directLoad(direct, principalOf(dataset), statement, connections, WARM_UP_SECONDS);
          const measured = await measureCpu(
            server.child.pid, backendPidsOf(db), () => directLoad(direct, principalOf(dataset), statement, connections, options.seconds), (load) => load.requests,
          );
          directSide = { load: measured.result, cpu: measured.cpu };
          log(` ${measured.result.requestsPerSecond.toFixed(1)} req/s`);
        }
        log('\n');
        if (failedResult(api) || (directSide?.load.errors ?? 0) > 0) failed = true;
        results.push(result(scenario, { load: api, cpu }, directSide, connections, notes));
      }
      if (isolationWanted(options.only)) {
        isolation = await isolationPart({
          backend: 'PostgreSQL', server, dataset, serverSettings: BENCH_SERVER_SETTINGS, seconds: options.seconds,
          warmUpSeconds: WARM_UP_SECONDS, settle: () => settle(server, db, dataset), log,
        });
        if (isolation.failed) failed = true;
      }
      // PostGraphile v4 on the same database, and the reference page: on a full run, or --only naming them.
      if (peerWanted(options.only)) {
        peer = await postgraphilePart({
          databaseUrl: url, dataset, staykitUrl: server.url, staykitPid: server.child.pid, backendPids: backendPidsOf(db),
          connections: options.connections, seconds: options.seconds,
          settle: () => settle(server, db, dataset), log,
        });
        if ('failed' in peer && peer.failed) failed = true;
      }
      if (referencePageWanted(options.only)) referencePage = await referencePagePart(server.url, log);
      // Last: it gives the tenant's first unit photos and a widget, which no scenario reads.
      if (widgetWeightWanted(options.only)) widgetWeight = await widgetWeightPart(server.url, dataset.apiKey, dataset.productIds[0]!, log);
    } finally {
      peak = await peakRssMiB(server.child.pid);
      await server.stop();
      await direct.close();
    }
    // 1 process, 2 processes, PgBouncer: on the filtered list (a full run, or --only naming it).
    const scaleScenario = planned.find(({ scenario }) => scenario.name === 'filtered list of calendar events')?.scenario;
    const scaleOut = scaleScenario ? await scaleOutRuns(url, dataset, scaleScenario, options.connections, options.seconds, log) : undefined;
    if (scaleOutFailed(scaleOut)) failed = true;
    const webhooks = await webhookPart('postgres', options, log, ' …');
    if (webhooks.failed) failed = true;
    return {
      failed,
      extra: (scaleOut ? renderScaleOut(scaleOut) : '') + (isolation ? renderIsolation(isolation) : '') + (peer ? renderPeer(peer) : '') +
        (referencePage ? renderReferencePage(referencePage) : '') + (widgetWeight ? renderWidgetWeight(widgetWeight) : ''),
      report: {
        ...emptyReport('PostgreSQL', size, options, options.seconds),
        version,
        generationSeconds: dataset.seconds,
        generationMode: modeNote(dataset),
        setupSeconds,
        serverPeakRssMiB: peak,
        directNote:
          "the same transaction (the server's inTenantTransaction: role, tenant and timeout settings; the engine's own SQL " +
          `statement; commit) through the \`pg\` driver on a pool of ${SERVER_POOL_SIZE} connections, like the server's.`,
        results,
        webhooks: webhooks.result,
        webhookError: webhooks.error,
      },
    };
  } finally {
    await db.close();
    await adminQuery(options.databaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

async function runPGlite(options: BenchOptions, log: Log): Promise<BackendOutcome> {
  const size = pgliteSize(options.size, options.pgliteScale);
  const started = performance.now();
  const dataDir = await mkdtemp(join(tmpdir(), 'staykit-bench-pglite-'));
  let failed = false;
  try {
    // PGlite's data folder opens in one process at a time: generate in-process, close, then start the server.
    let db = await openPGlite(dataDir);
    let dataset: Dataset;
    let planned: Planned;
    let version: string;
    try {
      await migrate(db);
      log(`PGlite: generating ${JSON.stringify(size)} …`);
      dataset = await generateDataset(db, size);
      log(` ${dataset.seconds.toFixed(1)} s\n`);
      const cache = await loadSchemaCache(db, { schema: 'api', role: API_ROLE });
      version = (await db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]!.v;
      planned = await plan(dataset, cache, options.only);
    } finally {
      await db.close();
    }
    const server = await startServerProcess({ DATA_DIR: dataDir, ...BENCH_SERVER_SETTINGS });
    const setupSeconds = seconds(started);
    const apiResults: { api: LoadResult; connections: number; cpu: CpuSplit | undefined; notes: string[] }[] = [];
    let peak: number | undefined;
    let isolation: IsolationOutcome | undefined;
    try {
      for (const { scenario } of planned) {
        const busy = await settle(server, undefined, dataset);
        const run = await apiRun(server, dataset, scenario, options, options.pgliteSeconds, log, undefined);
        apiResults.push({ ...run, notes: busy ? [`API side ${busy}`] : [] });
        log('\n');
      }
      if (isolationWanted(options.only)) {
        isolation = await isolationPart({
          backend: 'PGlite', server, dataset, serverSettings: BENCH_SERVER_SETTINGS, seconds: options.pgliteSeconds,
          warmUpSeconds: WARM_UP_SECONDS, settle: () => settle(server, undefined, dataset), log,
        });
        if (isolation.failed) failed = true;
      }
    } finally {
      peak = await peakRssMiB(server.child.pid);
      await server.stop();
    }
    // The direct side after the server stopped: the captured statements in-process on the same data folder,
    // through the one PGlite connection (PGlite serialises, as in the server).
    const results: ScenarioResult[] = [];
    db = await openPGlite(dataDir);
    try {
      for (const [i, { scenario, statement }] of planned.entries()) {
        const { api, connections, cpu, notes } = apiResults[i]!;
        let directSide: SideOutcome | undefined;
        if (statement) {
          log(`  ${scenario.name}: direct …`);
          // PGlite runs in this process here: its CPU is in the driver's figure.
          await directLoad(db, principalOf(dataset), statement, connections, WARM_UP_SECONDS);
          const measured = await measureCpu(
            undefined, undefined, () => directLoad(db, principalOf(dataset), statement, connections, options.pgliteSeconds), (load) => load.requests,
          );
          directSide = { load: measured.result, cpu: measured.cpu };
          log(` ${measured.result.requestsPerSecond.toFixed(1)} req/s\n`);
        }
        if (failedResult(api) || (directSide?.load.errors ?? 0) > 0) failed = true;
        results.push(result(scenario, { load: api, cpu }, directSide, connections, notes));
      }
    } finally {
      await db.close();
    }
    const webhooks = await webhookPart('pglite', options, log, ' (PGlite in memory) …');
    if (webhooks.failed) failed = true;
    return {
      failed,
      extra: isolation ? renderIsolation(isolation) : '',
      report: {
        ...emptyReport('PGlite', size, options, options.pgliteSeconds),
        version,
        generationSeconds: dataset.seconds,
        generationMode: modeNote(dataset),
        setupSeconds,
        serverPeakRssMiB: peak,
        directNote:
          "the same transaction (the server's inTenantTransaction around the engine's own SQL statement) run in-process " +
          'on the same data folder after the server stopped, through its single connection (as the server has), at the same concurrency.',
        results,
        webhooks: webhooks.result,
        webhookError: webhooks.error,
      },
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

function modeNote(dataset: Dataset): string {
  return dataset.mode === 'replica'
    ? 'row triggers off through the replica session role, their writes done set-based, foreign keys verified after'
    : "the tables' user triggers disabled, their writes done set-based, foreign keys enforced";
}

function emptyReport(backend: string, size: DatasetSize, options: BenchOptions, runSeconds: number, skipped?: string): BackendReport {
  return {
    backend,
    version: '',
    size,
    connections: options.connections,
    seconds: runSeconds,
    generationSeconds: 0,
    generationMode: '',
    setupSeconds: 0,
    serverPeakRssMiB: undefined,
    directNote: '',
    results: [],
    webhooks: undefined,
    ...(skipped ? { skipped } : {}),
  };
}

export interface BenchOutcome {
  failed: boolean;
  report: string;
  totalSeconds: number;
}

/** Runs the benchmark; logs progress through `log`, returns the report. Throws on set-up failures. */
export async function runBenchmark(options: BenchOptions, log: Log = (text) => process.stdout.write(text)): Promise<BenchOutcome> {
  const started = performance.now();
  // The server is started as `node bin/staykit.js serve` (test/support/server-process.ts): from the repository root.
  process.chdir(fileURLToPath(new URL('..', import.meta.url)));
  // Every server of the run is `npm start`'s compiled JavaScript, never the tsx fallback.
  const buildFailure = await buildDist(log);
  if (buildFailure) throw new Error(`cannot benchmark the compiled server: ${buildFailure}`);
  const outcomes: BackendOutcome[] = [];
  for (const backend of options.backends) {
    outcomes.push(backend === 'postgres' ? await runPostgres(options, log) : await runPGlite(options, log));
  }
  // Start-up time and memory of `staykit serve` (bench/startup.ts), on the backends that ran: a full run or --only start-up.
  const startupBackends = options.backends.filter((_, index) => !outcomes[index]?.report.skipped);
  const startup = options.only === undefined || 'start-up'.includes(options.only)
    ? renderStartup(await measureStartup({ backends: startupBackends, rounds: 3, databaseUrl: options.databaseUrl, fromSources: false, build: false }, log))
    : '';
  const totalSeconds = seconds(started);
  const report = renderReport({
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    node: process.version,
    totalSeconds,
    backends: outcomes.map((outcome) => outcome.report),
  }) + outcomes.map((outcome) => outcome.extra ?? '').join('') + startup;
  if (options.output) await writeFile(options.output, report);
  log(`\n${report}\n`);
  if (options.output) log(`Report written to ${options.output}.\n`);
  log(`Total time: ${totalSeconds.toFixed(0)} s (${(totalSeconds / 60).toFixed(1)} min).\n`);
  return { failed: outcomes.some((outcome) => outcome.failed), report, totalSeconds };
}

/** Command-line entry for `npm run bench -- …` and `staykit bench …`: exit code 0, 1 (errors) or 2 (usage). */
export async function benchMain(args: string[], prefix = 'bench'): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseBenchArguments(args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${prefix}: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const outcome = await runBenchmark(options);
  if (outcome.failed) {
    console.error(`${prefix}: some scenarios returned errors or completed nothing`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    process.exitCode = await benchMain(process.argv.slice(2));
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    process.exitCode = 1;
  }
  // Pools and PGlite instances are closed; anything left (keep-alive sockets) must not hold the process.
  process.exit();
}
