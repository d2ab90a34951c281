/**
 * Where a scenario's CPU went: the server process, the PostgreSQL backends of the benchmark's database, the
 * benchmark process itself (autocannon or the direct side's driver) and the whole machine. On two shared cores a
 * run is bounded by CPU, so CPU per request is the measured reason behind a throughput ratio or a latency figure.
 * Read from /proc (Linux); elsewhere the server's, PostgreSQL's and the machine's figures are undefined.
 */
import { readFile } from 'node:fs/promises';

/** Linux's USER_HZ: /proc reports process CPU in ticks of 10 ms on every architecture Node runs on. */
const TICK_MS = 10;

export interface CpuSplit {
  /** CPU ms per completed request in each part; undefined where it could not be read. */
  serverMs: number | undefined;
  postgresMs: number | undefined;
  benchMs: number;
  /** Share of the machine's CPU time that was busy during the run (0–1). */
  machineBusy: number | undefined;
}

interface Sample {
  server: number | undefined;
  postgres: Map<number, number>;
  bench: NodeJS.CpuUsage;
  machine: { busy: number; total: number } | undefined;
}

/** Process ids of the PostgreSQL backends serving `database` (the caller's query, so this file needs no driver). */
export type BackendPids = () => Promise<number[]>;

async function processTicks(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // The command name (field 2) may hold spaces: fields are counted from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

async function machineTicks(): Promise<{ busy: number; total: number } | undefined> {
  const stat = await readFile('/proc/stat', 'utf8').catch(() => undefined);
  const line = stat?.split('\n')[0];
  if (!line?.startsWith('cpu ')) return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
  return { busy, total: busy + idle! + iowait! };
}

async function sample(serverPid: number | undefined, backendPids: BackendPids | undefined): Promise<Sample> {
  const postgres = new Map<number, number>();
  for (const pid of backendPids ? await backendPids().catch(() => []) : []) {
    const ticks = await processTicks(pid);
    if (ticks !== undefined) postgres.set(pid, ticks);
  }
  return {
    server: serverPid === undefined ? undefined : await processTicks(serverPid),
    postgres,
    bench: process.cpuUsage(),
    machine: await machineTicks(),
  };
}

/**
 * Measures `run`'s CPU: returns its result and the split per completed request. Backends that appear during the
 * run count from zero; those that end during it are lost (the server's pool keeps its connections, so few are).
 */
export async function measureCpu<T>(
  serverPid: number | undefined,
  backendPids: BackendPids | undefined,
  run: () => Promise<T>,
  requestsOf: (result: T) => number,
): Promise<{ result: T; cpu: CpuSplit | undefined }> {
  const before = await sample(serverPid, backendPids);
  const result = await run();
  const after = await sample(serverPid, backendPids);
  const requests = requestsOf(result);
  if (requests === 0) return { result, cpu: undefined };
  let postgresTicks = 0;
  for (const [pid, ticks] of after.postgres) postgresTicks += ticks - (before.postgres.get(pid) ?? 0);
  const bench = process.cpuUsage(before.bench);
  const perRequest = (ticks: number) => (ticks * TICK_MS) / requests;
  return {
    result,
    cpu: {
      serverMs: before.server === undefined || after.server === undefined ? undefined : perRequest(after.server - before.server),
      postgresMs: backendPids && after.postgres.size > 0 ? perRequest(postgresTicks) : undefined,
      benchMs: (bench.user + bench.system) / 1000 / requests,
      machineBusy:
        before.machine && after.machine && after.machine.total > before.machine.total
          ? (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)
          : undefined,
    },
  };
}
