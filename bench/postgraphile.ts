/**
 * PostGraphile v4 as a peer: the list scenario (100 bookings) and the two-level embed against PostGraphile on the
 * same database and rows, driven by the same load tool (autocannon) at the same concurrency in the same run, each
 * reported as Staykit req/s ÷ PostGraphile req/s.
 *
 * PostGraphile is never a project dependency: the benchmark installs a pinned version into `bench/.peer/`
 * (git-ignored) with npm, or reuses it when already there; when that fails (no registry) the part is reported as
 * skipped with the reason. It runs as its own process (this file with `serve`, importing PostGraphile from that
 * folder), with a pool of the server's size, and sees the tenant as Staykit's requests do: `pgSettings` sets the
 * same role and settings, transaction-local, that the server's inTenantTransaction sets for the benchmark's key, so
 * row-level security gives both the same rows. Before measuring, each scenario's answer is compared once: the same
 * rows, columns (Staykit's `select=*` columns, asked for by name in GraphQL), limit and order.
 */
import { execFile } from 'node:child_process';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { API_ROLE, DEFAULT_STATEMENT_TIMEOUT_MS } from '../src/transaction/tenant-transaction.js';
import { startChildServer, type ServerProcess } from '../test/support/server-process.js';
import type { Dataset } from './dataset.js';
import { httpLoad, type LoadResult } from './load.js';
import { measureCpu, type BackendPids, type CpuSplit } from './cpu.js';
import type { Scenario } from './scenarios.js';

export const POSTGRAPHILE_VERSION = '4.14.1';
const PEER_DIR = fileURLToPath(new URL('./.peer/', import.meta.url));
/** The server's pool size (src/db/postgres.ts default): PostGraphile gets as many connections. */
const POOL_SIZE = 10;
const INSTALL_TIMEOUT_MS = 300_000;
/** PostGraphile reads the schema on its first request: the comparison's requests may wait for that. */
const FIRST_ANSWER_TIMEOUT_MS = 120_000;
/** Runs per side and scenario, the sides taking turns to go first; the report gives medians. */
const ROUNDS = 3;
/** Targets of issue 24 (reported, not asserted). */
const MIN_RATIO = 4;
const MAX_P99_MS = 50;

interface PeerScenario {
  /** As the Staykit scenario it mirrors is named (bench/scenarios.ts). */
  name: string;
  /** The Staykit request; ordered by the primary key, which PostGraphile always orders by. */
  path: string;
  /** The GraphQL root field with its arguments. */
  root: string;
  /** Embedded resource of the Staykit request → the GraphQL field with its arguments. */
  embeds: Record<string, string>;
}

const PEER_SCENARIOS: PeerScenario[] = [
  {
    name: 'list bookings (limit 100)',
    path: '/v1/bookings?select=*&order=id&limit=100',
    root: 'allBookings(first: 100, orderBy: PRIMARY_KEY_ASC)',
    embeds: {},
  },
  {
    name: 'two-level embed (products + configurations + events)',
    path: '/v1/products?select=*,product_configurations(*),calendar_events(*)&order=id&product_configurations.order=id&calendar_events.order=id&limit=20',
    root: 'allProducts(first: 20, orderBy: PRIMARY_KEY_ASC)',
    embeds: {
      product_configurations: 'productConfigurationsByProductIdAndOrganizationId(orderBy: PRIMARY_KEY_ASC)',
      calendar_events: 'calendarEventsByProductIdAndOrganizationId(orderBy: PRIMARY_KEY_ASC)',
    },
  },
];

type Row = Record<string, unknown>;

/** PostGraphile v4's default inflection of a column name (`address_line_1` → `addressLine1`). */
const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, next: string) => next.toUpperCase());

/** The settings the server's inTenantTransaction sets for the benchmark's key (scopes read and write: every table). */
function tenantSettings(dataset: Dataset): Record<string, string> {
  return {
    role: API_ROLE,
    'staykit.organization_id': dataset.organizationId,
    'staykit.key_id': dataset.keyId,
    statement_timeout: String(DEFAULT_STATEMENT_TIMEOUT_MS),
    jit: 'off',
    'staykit.readable_tables': '*',
    'staykit.user_id': '',
    'staykit.writable_tables': '',
  };
}

/** PostGraphile in `bench/.peer/`: already there at the pinned version, or installed now; a string says why not. */
async function installPeer(log: (text: string) => void): Promise<string | undefined> {
  const installed = await readFile(join(PEER_DIR, 'node_modules/postgraphile/package.json'), 'utf8')
    .then((text) => (JSON.parse(text) as { version: string }).version)
    .catch(() => undefined);
  if (installed === POSTGRAPHILE_VERSION) return undefined;
  log(`  installing postgraphile@${POSTGRAPHILE_VERSION} into bench/.peer/ …`);
  await mkdir(PEER_DIR, { recursive: true });
  await writeFile(join(PEER_DIR, 'package.json'), `${JSON.stringify({
    private: true,
    description: 'Installed by the benchmark (bench/postgraphile.ts): the peer it measures against; not a dependency of Staykit.',
    dependencies: { postgraphile: POSTGRAPHILE_VERSION },
  }, null, 2)}\n`);
  try {
    await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--fetch-retries=1', '--fetch-timeout=30000'], {
      cwd: PEER_DIR, timeout: INSTALL_TIMEOUT_MS,
    });
    log(' done\n');
    return undefined;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    const reason = (stderr ?? '').split('\n').find((line) => /npm (error|ERR!)/.test(line)) ?? message.split('\n')[0]!;
    log(` failed\n`);
    return `npm could not install postgraphile@${POSTGRAPHILE_VERSION} (${reason.trim()})`;
  }
}

/** The GraphQL query asking for the columns (and embedded rows' columns) of Staykit's answer `sample`. */
function graphqlQuery(scenario: PeerScenario, sample: Row[]): string {
  const columnsOf = (rows: Row[]) => Object.keys(rows[0] ?? {}).filter((key) => !(key in scenario.embeds)).map(camel);
  const embeds = Object.entries(scenario.embeds).map(([embed, field]) => {
    const nested = sample.map((row) => row[embed] as Row[]).find((rows) => rows.length > 0);
    if (!nested) throw new Error(`no ${embed} rows in Staykit's answer to compare`);
    return `${field} { nodes { ${columnsOf(nested).join(' ')} } }`;
  });
  return `{ ${scenario.root} { nodes { ${[...columnsOf(sample), ...embeds].join(' ')} } } }`;
}

/** PostGraphile's rows in Staykit's shape: snake_case names, embedded connections as arrays. */
function asStaykitRows(scenario: PeerScenario, nodes: Row[], sample: Row[]): Row[] {
  const convert = (node: Row, like: Row | undefined, embedNames: Record<string, string>): Row =>
    Object.fromEntries(Object.keys(like ?? {}).map((key) => {
      const field = embedNames[key]?.split('(')[0];
      if (field === undefined) return [key, node[camel(key)]];
      const nestedLike = sample.flatMap((row) => row[key] as Row[])[0];
      return [key, ((node[field] as { nodes: Row[] }).nodes).map((child) => convert(child, nestedLike, {}))];
    }));
  return nodes.map((node) => convert(node, sample[0], scenario.embeds));
}

/** Where two answers differ (a path and both values), or undefined. Numbers PostGraphile sends as strings (bigint,
 * numeric) and timestamps written differently compare by value. */
function difference(ours: unknown, theirs: unknown, path = ''): string | undefined {
  if (isDeepStrictEqual(ours, theirs)) return undefined;
  if (Array.isArray(ours) && Array.isArray(theirs)) {
    if (ours.length !== theirs.length) return `${path}: ${ours.length} rows vs ${theirs.length}`;
    for (const [i, value] of ours.entries()) {
      const found = difference(value, theirs[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (ours && theirs && typeof ours === 'object' && typeof theirs === 'object') {
    const keys = new Set([...Object.keys(ours), ...Object.keys(theirs)]);
    for (const key of keys) {
      const found = difference((ours as Row)[key], (theirs as Row)[key], `${path}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof ours === 'number' && typeof theirs === 'string' && Number(theirs) === ours) return undefined;
  if (typeof ours === 'string' && typeof theirs === 'string' && /\d:\d\d/.test(ours) && !Number.isNaN(Date.parse(ours)) && Date.parse(ours) === Date.parse(theirs)) {
    return undefined;
  }
  return `${path}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`;
}

async function json(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

/** Both answers once, compared; the GraphQL query that gives Staykit's answer, or an error saying how they differ. */
async function sameAnswer(scenario: PeerScenario, staykitUrl: string, apiKey: string, peerUrl: string): Promise<string> {
  const ours = (await json(await fetch(`${staykitUrl}${scenario.path}`, {
    headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(FIRST_ANSWER_TIMEOUT_MS),
  }))) as Row[];
  if (ours.length === 0) throw new Error(`${scenario.path} answered no rows`);
  const query = graphqlQuery(scenario, ours);
  const answer = (await json(await fetch(`${peerUrl}/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }), signal: AbortSignal.timeout(FIRST_ANSWER_TIMEOUT_MS),
  }))) as { data?: Record<string, { nodes: Row[] }>; errors?: { message: string }[] };
  if (answer.errors?.length) throw new Error(`PostGraphile: ${answer.errors.map((error) => error.message).join('; ')}`);
  const theirs = asStaykitRows(scenario, answer.data![scenario.root.split('(')[0]!]!.nodes, ours);
  const differs = difference(ours, theirs);
  if (differs) throw new Error(`the answers differ at ${differs}`);
  return query;
}

export interface PeerScenarioResult {
  name: string;
  staykitPath: string;
  query: string;
  staykit: LoadResult[];
  peer: LoadResult[];
  /** CPU per request of each run, in the order of the loads (undefined where /proc could not be read). */
  staykitCpu: (CpuSplit | undefined)[];
  peerCpu: (CpuSplit | undefined)[];
}

export type PeerOutcome =
  | { skipped: string }
  | { version: string; connections: number; seconds: number; results: PeerScenarioResult[]; failed: boolean };

export interface PeerRunInput {
  databaseUrl: string;
  dataset: Dataset;
  staykitUrl: string;
  /** The Staykit server's process and the benchmark database's backends, for CPU per request. */
  staykitPid: number | undefined;
  backendPids: BackendPids;
  connections: number;
  seconds: number;
  /** Waits until the previous run's requests have left the database (run.ts); a string says it gave up. */
  settle: () => Promise<string | undefined>;
  log: (text: string) => void;
}

/** Whether a `--only TEXT` run includes this part: no `--only`, or TEXT naming PostGraphile or a peer scenario. */
export function peerWanted(only: string | undefined): boolean {
  return only === undefined || 'postgraphile'.includes(only.toLowerCase()) || PEER_SCENARIOS.some((scenario) => scenario.name.includes(only));
}

/** The peer part of the PostgreSQL run: installs and starts PostGraphile, checks the answers, measures both sides. */
export async function postgraphilePart(input: PeerRunInput): Promise<PeerOutcome> {
  const { dataset, log } = input;
  const notInstalled = await installPeer(log);
  if (notInstalled) return { skipped: notInstalled };
  let peer: ServerProcess;
  try {
    peer = await startChildServer(['--import', 'tsx', fileURLToPath(import.meta.url), 'serve'], {
      PEER_DATABASE_URL: input.databaseUrl,
      PEER_PG_SETTINGS: JSON.stringify(tenantSettings(dataset)),
    });
  } catch (error) {
    return { skipped: `PostGraphile did not start: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}` };
  }
  const results: PeerScenarioResult[] = [];
  let failed = false;
  try {
    for (const scenario of PEER_SCENARIOS) {
      let query: string;
      try {
        query = await sameAnswer(scenario, input.staykitUrl, dataset.apiKey, peer.url);
      } catch (error) {
        return { skipped: `${scenario.name}: ${(error as Error).message}` };
      }
      const staykitLoad: Scenario = { name: scenario.name, method: 'GET', path: scenario.path, engine: false };
      const peerLoad: Scenario = {
        name: scenario.name, method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: { query }, engine: false,
      };
      const result: PeerScenarioResult = {
        name: scenario.name, staykitPath: scenario.path, query, staykit: [], peer: [], staykitCpu: [], peerCpu: [],
      };
      const run = async (side: 'staykit' | 'peer') => {
        await input.settle();
        const { result: load, cpu } = side === 'staykit'
          ? await measureCpu(input.staykitPid, input.backendPids,
            () => httpLoad(input.staykitUrl, dataset.apiKey, staykitLoad, input.connections, input.seconds), (done) => done.requests)
          : await measureCpu(peer.child.pid, input.backendPids,
            () => httpLoad(peer.url, dataset.apiKey, peerLoad, input.connections, input.seconds), (done) => done.requests);
        result[side].push(load);
        result[`${side}Cpu`].push(cpu);
        if (load.errors > 0 || load.requests === 0) failed = true;
        log(` ${side === 'staykit' ? 'Staykit' : 'PostGraphile'} ${load.requestsPerSecond.toFixed(0)} req/s;`);
      };
      log(`  ${scenario.name} vs PostGraphile:`);
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of round % 2 === 0 ? (['staykit', 'peer'] as const) : (['peer', 'staykit'] as const)) await run(side);
      }
      log('\n');
      results.push(result);
    }
  } finally {
    await peer.stop();
  }
  return { version: POSTGRAPHILE_VERSION, connections: input.connections, seconds: input.seconds, results, failed };
}

function median(values: number[]): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length === 0 ? undefined : Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)];
}

/** Median CPU per request (server process, PostgreSQL) over a side's runs without errors. */
function cpuMedians(loads: LoadResult[], cpus: (CpuSplit | undefined)[]): { server: number | undefined; postgres: number | undefined } {
  const clean = cpus.filter((cpu, i): cpu is CpuSplit => cpu !== undefined && loads[i]!.errors === 0 && loads[i]!.requests > 0);
  const part = (pick: (cpu: CpuSplit) => number | undefined) => median(clean.map(pick).filter((v): v is number => v !== undefined));
  return { server: part((cpu) => cpu.serverMs), postgres: part((cpu) => cpu.postgresMs) };
}

/**
 * Why the ratio falls short: each side's CPU per request and, since both sides' PostgreSQL build the same rows, the
 * ratio Staykit would reach with no CPU of its own at all (the peer's whole CPU per request over Staykit's PostgreSQL's).
 */
function peerReason(result: PeerScenarioResult): string {
  const ours = cpuMedians(result.staykit, result.staykitCpu);
  const theirs = cpuMedians(result.peer, result.peerCpu);
  const text = (cpu: typeof ours) => `server ${figure(cpu.server, 2)} + PostgreSQL ${figure(cpu.postgres, 2)} ms CPU per request`;
  const ceiling = theirs.server !== undefined && theirs.postgres !== undefined && ours.postgres
    ? `; with no server CPU at all Staykit would reach ${((theirs.server + theirs.postgres) / ours.postgres).toFixed(1)}×`
    : '';
  return `Staykit: ${text(ours)}; PostGraphile: ${text(theirs)}${ceiling}`;
}

/** Medians over a side's runs that had no errors (an answer like 429 is fast and would inflate req/s). */
function cleanMedians(loads: LoadResult[]) {
  const clean = loads.filter((load) => load.errors === 0 && load.requests > 0);
  return { clean: clean.length, rate: median(clean.map((load) => load.requestsPerSecond)), p99: median(clean.map((load) => load.p99)) };
}

const figure = (value: number | undefined, digits: number) => (value === undefined ? 'n/a' : value.toFixed(digits));

export function renderPeer(outcome: PeerOutcome): string {
  const title = '## PostGraphile v4 on the same database (PostgreSQL)';
  if ('skipped' in outcome) return ['', title, '', `Skipped: ${outcome.skipped}.`, ''].join('\n');
  const rows = outcome.results.map((result) => {
    const ours = cleanMedians(result.staykit);
    const theirs = cleanMedians(result.peer);
    const ratio = ours.rate !== undefined && theirs.rate ? ours.rate / theirs.rate : undefined;
    return { result, ours, theirs, ratio };
  });
  const met = (ok: boolean) => (ok ? 'met' : 'not met');
  return [
    '',
    title,
    '',
    `PostGraphile ${outcome.version} (installed by the benchmark into \`bench/.peer/\`, not a project dependency) as its own ` +
      `Node process on the benchmark database, a pool of ${POOL_SIZE} connections, the tenant set by \`pgSettings\` to the role and ` +
      'settings the server sets for the same key (so row-level security gives both the same rows; docs/benchmark.md). ' +
      `Both sides through autocannon at ${outcome.connections} connections, ${outcome.seconds} s per run, ${ROUNDS} runs per side ` +
      'taking turns to go first; medians of the runs without errors (runs with errors are listed below the table). Each ' +
      'scenario\'s answers were compared once before (same rows, columns, limit and order).',
    '',
    '| Scenario | Staykit request | Staykit req/s | Staykit p99 ms | PostGraphile req/s | PostGraphile p99 ms | Runs without errors (Staykit, PostGraphile) | Staykit ÷ PostGraphile |',
    '|---|---|---:|---:|---:|---:|---|---:|',
    ...rows.map(({ result, ours, theirs, ratio }) =>
      `| ${result.name} | \`${result.staykitPath.replace(/\|/g, '\\|')}\` | ${figure(ours.rate, 1)} | ${figure(ours.p99, 2)} | ` +
      `${figure(theirs.rate, 1)} | ${figure(theirs.p99, 2)} | ${ours.clean} / ${result.staykit.length}, ${theirs.clean} / ${result.peer.length} | ` +
      `${ratio === undefined ? 'n/a' : `${ratio.toFixed(2)}×`} |`),
    '',
    ...rows.flatMap(({ result }) => {
      const kinds = (side: string, loads: LoadResult[]) => loads.filter((load) => load.errors > 0).map((load) => `${side} ${load.errorKinds}`);
      const errors = [...kinds('Staykit', result.staykit), ...kinds('PostGraphile', result.peer)];
      return errors.length > 0 ? [`- ${result.name}: errors: ${errors.join('; ')}.`, ''] : [];
    }),
    'Targets (reported, not asserted):',
    '',
    ...rows.map(({ result, ratio, ours }) =>
      `- ${result.name}: ≥ ${MIN_RATIO}× PostGraphile — ${ratio === undefined ? 'n/a' : `${ratio.toFixed(2)}×`}, ${met((ratio ?? 0) >= MIN_RATIO)}` +
      ((ratio ?? 0) >= MIN_RATIO ? '; ' : ` (${peerReason(result)}); `) +
      `Staykit p99 < ${MAX_P99_MS} ms at ${outcome.connections} connections — ${ours.p99 === undefined ? 'n/a' : `${ours.p99.toFixed(1)} ms`}, ${met((ours.p99 ?? Infinity) < MAX_P99_MS)}.`),
    '',
  ].join('\n');
}

/** The child process: PostGraphile from `bench/.peer/` on PEER_DATABASE_URL, its tenant settings from PEER_PG_SETTINGS. */
function servePeer(): void {
  const peerRequire = createRequire(join(PEER_DIR, 'package.json'));
  const { postgraphile } = peerRequire('postgraphile') as {
    postgraphile: (pgConfig: { connectionString: string; max: number }, schema: string, options: Record<string, unknown>) => RequestListener;
  };
  // PostGraphile's production options (no query log, no GraphiQL, JSON as JSON), reading the `api` schema.
  const handler = postgraphile({ connectionString: process.env.PEER_DATABASE_URL!, max: POOL_SIZE }, 'api', {
    pgSettings: JSON.parse(process.env.PEER_PG_SETTINGS!) as Record<string, string>,
    disableQueryLog: true,
    graphiql: false,
    retryOnInitFail: false,
    dynamicJson: true,
    setofFunctionsContainNulls: false,
    ignoreRBAC: false,
    legacyRelations: 'omit',
  });
  const server = createServer((request, response) => {
    // The load tool sends the benchmark's API key to both sides; PostGraphile without a JWT secret refuses any
    // bearer token, and its tenant comes from pgSettings.
    delete request.headers.authorization;
    handler(request, response);
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
}

if (process.argv[2] === 'serve' && process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) servePeer();
