/**
 * `npm run bench`: builds a benchmark database on PostgreSQL, fills it, starts `staykit serve` on it and drives
 * each scenario through HTTP and, for the resource engine, directly through the driver with the same SQL.
 * Writes bench/results/latest.md and prints it. Fails only if a scenario returned errors.
 *
 * Options: --organizations N --products N --events N --bookings N --seconds S --connections C --only TEXT
 * Database: BENCH_DATABASE_URL (a server whose user may CREATE DATABASE), default the local PostgreSQL.
 */
import { parseArgs } from 'node:util';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import pg from 'pg';
import { openPostgres } from '../src/db/postgres.js';
import { migrate } from '../src/db/migrate.js';
import { loadSchemaCache } from '../src/schema/index.js';
import { API_ROLE } from '../src/http/tenant-transaction.js';
import { startServerProcess } from '../test/support/server-process.js';
import { DEFAULT_SIZE, generateDataset } from './dataset.js';
import { scenarios } from './scenarios.js';
import { engineStatement } from './engine-sql.js';
import { directLoad, httpLoad } from './load.js';
import { renderReport, type ScenarioResult } from './report.js';
import { benchWebhookDeliveries } from '../test/webhooks/bench.js';

const SERVER_POOL_SIZE = 10;

const { values } = parseArgs({
  options: {
    organizations: { type: 'string' },
    products: { type: 'string' },
    events: { type: 'string' },
    bookings: { type: 'string' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string' },
  },
});
const size = {
  organizations: Number(values.organizations ?? DEFAULT_SIZE.organizations),
  products: Number(values.products ?? DEFAULT_SIZE.products),
  events: Number(values.events ?? DEFAULT_SIZE.events),
  bookings: Number(values.bookings ?? DEFAULT_SIZE.bookings),
};
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `staykit_bench_${Date.now()}`;
const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

async function peakRssMiB(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : undefined;
}

const started = Date.now();
await admin(`CREATE DATABASE ${databaseName}`);
const db = await openPostgres({ connectionString: databaseUrl });
let failed = false;
try {
  await migrate(db);
  console.log(`generating ${JSON.stringify(size)} …`);
  const dataset = await generateDataset(db, size);
  const cache = await loadSchemaCache(db, { schema: 'api', role: API_ROLE });
  const postgres = (await db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]!.v;
  const server = await startServerProcess({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', STAYKIT_RATE_LIMIT: '100000000', STAYKIT_RATE_LIMIT_BURST: '100000000' });
  const setupSeconds = (Date.now() - started) / 1000;
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of scenarios(dataset)) {
      if (values.only && !scenario.name.includes(values.only)) continue;
      process.stdout.write(`${scenario.name}: API …`);
      const api = await httpLoad(server.url, dataset.apiKey, scenario, connections, seconds);
      let direct;
      if (scenario.engine) {
        process.stdout.write(' direct …');
        const statement = await engineStatement(scenario, cache, dataset.organizationId);
        direct = await directLoad(databaseUrl, dataset.organizationId, statement, connections, seconds, SERVER_POOL_SIZE);
      }
      console.log(` ${api.requestsPerSecond.toFixed(0)} req/s${direct ? ` vs ${direct.requestsPerSecond.toFixed(0)} direct` : ''}`);
      // A scenario that completed nothing in its time failed as surely as one that returned errors.
      if (api.errors > 0 || api.requests === 0 || (direct?.errors ?? 0) > 0) failed = true;
      results.push({ name: scenario.name, api, direct, target: scenario.target });
    }
  } finally {
    const peak = await peakRssMiB(server.child.pid);
    await server.stop();
    process.stdout.write('webhook deliveries to a loopback receiver …');
    const webhooks = values.only ? undefined : await benchWebhookDeliveries({ backend: 'postgres', count: 1000, workers: 2 });
    if (webhooks) console.log(` ${webhooks.deliveries_per_second}/s`);
    if (webhooks && webhooks.duplicates > 0) failed = true;
    const report = renderReport(
      {
        date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
        machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
        node: process.version,
        postgres,
        backend: 'PostgreSQL',
        size,
        connections,
        seconds,
        serverPeakRssMiB: peak,
        setupSeconds,
      },
      results,
      webhooks && {
        perSecond: webhooks.deliveries_per_second,
        count: webhooks.count,
        workers: webhooks.workers,
        concurrency: webhooks.concurrency,
        duplicates: webhooks.duplicates,
      },
    );
    await writeFile(new URL('./results/latest.md', import.meta.url), report);
    console.log(`\n${report}`);
  }
} finally {
  await db.close();
  await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
}
if (failed) {
  console.error('bench: some scenarios returned errors');
  process.exit(1);
}
