/**
 * The benchmark's command line, shared by `npm run bench -- …` and `staykit bench …`: every flag is checked before
 * anything starts, and a bad one is a UsageError (one line on stderr, exit code 2).
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../src/cli/support/usage-error.js';
import { DEFAULT_SIZE, sizeProblem, type DatasetSize } from './dataset.js';

export type BenchBackend = 'postgres' | 'pglite';

export interface BenchOptions {
  backends: BenchBackend[];
  /** Whether the backends were chosen explicitly (an unreachable PostgreSQL is then an error, not a skipped run). */
  explicitBackend: boolean;
  /** Data set of the PostgreSQL run; the PGlite run uses it divided by `pgliteScale`. */
  size: DatasetSize;
  pgliteScale: number;
  /** Seconds per scenario and side on PostgreSQL, and on PGlite. */
  seconds: number;
  pgliteSeconds: number;
  connections: number;
  /** Only the scenarios whose name contains this text (and no webhook part). */
  only: string | undefined;
  /** Webhook notifications to deliver per backend (0: skip). */
  webhooks: number;
  /** A PostgreSQL server whose user may CREATE DATABASE; the benchmark database is created and dropped there. */
  databaseUrl: string;
  /** Where the Markdown report goes (absolute); undefined = printed only. */
  output: string | undefined;
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_OUTPUT = fileURLToPath(new URL('./results/latest.md', import.meta.url));

export const BENCH_FLAGS = {
  backend: { type: 'string' },
  organizations: { type: 'string' },
  products: { type: 'string' },
  'other-products': { type: 'string' },
  events: { type: 'string' },
  bookings: { type: 'string' },
  'pglite-scale': { type: 'string' },
  seconds: { type: 'string' },
  'pglite-seconds': { type: 'string' },
  connections: { type: 'string' },
  only: { type: 'string' },
  webhooks: { type: 'string' },
  'database-url': { type: 'string' },
  output: { type: 'string' },
} as const;

export const BENCH_USAGE =
  'usage: bench [--backend postgres|pglite|both] [--organizations N] [--products N] [--other-products N] [--events N] ' +
  '[--bookings N] [--pglite-scale N] [--seconds S] [--pglite-seconds S] [--connections C] [--only TEXT] [--webhooks N] ' +
  '[--database-url URL] [--output FILE|-]';

function integer(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${raw}"`);
  return Number(raw);
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(value > 0) || value > 3600) throw new UsageError(`--${name} must be a number of seconds in (0, 3600], got "${raw}"`);
  return value;
}

/** The PGlite run's data set: the PostgreSQL one divided by `scale` (at least one organization and product). */
export function pgliteSize(size: DatasetSize, scale: number): DatasetSize {
  const organizations = Math.max(1, Math.round(size.organizations / scale));
  const bookings = Math.round(size.bookings / scale);
  return {
    organizations,
    products: Math.max(1, Math.round(size.products / scale)),
    otherProducts: organizations > 1 ? Math.round(size.otherProducts / scale) : 0,
    events: Math.max(bookings, Math.round(size.events / scale)),
    bookings,
  };
}

export function benchOptions(values: Partial<Record<keyof typeof BENCH_FLAGS, string>>, env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const backend = values.backend ?? 'both';
  if (!['postgres', 'pglite', 'both'].includes(backend)) throw new UsageError(`--backend must be postgres, pglite or both, got "${backend}"`);
  const size: DatasetSize = {
    organizations: integer('organizations', values.organizations, DEFAULT_SIZE.organizations, 1),
    products: integer('products', values.products, DEFAULT_SIZE.products, 1),
    otherProducts: integer('other-products', values['other-products'], DEFAULT_SIZE.otherProducts, 0),
    events: integer('events', values.events, DEFAULT_SIZE.events, 0),
    bookings: integer('bookings', values.bookings, DEFAULT_SIZE.bookings, 0),
  };
  // Fewer organizations than the default leave the other products to the ones there are (none with one).
  if (values['other-products'] === undefined && size.organizations === 1) size.otherProducts = 0;
  const problem = sizeProblem(size);
  if (problem) throw new UsageError(problem);
  const databaseUrl = values['database-url'] ?? env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  try {
    const url = new URL(databaseUrl);
    if (!['postgres:', 'postgresql:'].includes(url.protocol)) throw new Error('not postgres');
  } catch {
    throw new UsageError(`--database-url must be a postgres:// URL, got "${databaseUrl}"`);
  }
  const only = values.only;
  if (only !== undefined && only.trim() === '') throw new UsageError('--only needs a part of a scenario name');
  // A partial run (--only) does not replace the full report unless asked to; paths are relative to the caller.
  const output = values.output === '-' ? undefined : values.output !== undefined ? resolve(values.output) : only === undefined ? DEFAULT_OUTPUT : undefined;
  return {
    backends: backend === 'both' ? ['postgres', 'pglite'] : [backend as BenchBackend],
    explicitBackend: values.backend !== undefined && backend !== 'both',
    size,
    pgliteScale: integer('pglite-scale', values['pglite-scale'], 10, 1),
    seconds: positive('seconds', values.seconds, 8),
    pgliteSeconds: positive('pglite-seconds', values['pglite-seconds'], 5),
    connections: integer('connections', values.connections, 32, 1),
    only,
    webhooks: integer('webhooks', values.webhooks, 10_000, 0),
    databaseUrl,
    output,
  };
}

/** Parses `args` (no positionals, no unknown flags); throws UsageError on any problem. */
export function parseBenchArguments(args: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  let parsed;
  try {
    parsed = parseArgs({ args, options: BENCH_FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument "${parsed.positionals[0]}"; ${BENCH_USAGE}`);
  return benchOptions(parsed.values, env);
}
