import { migrate } from './migrate.js';
import { openPGlite } from './pglite.js';
import { openPostgres, type PostgresOptions } from './postgres.js';
import { DEFAULT_PREPARED_STATEMENTS_PER_CONNECTION } from './prepared-statements.js';
import type { Database } from './types.js';
import type { EmbeddedCompiler } from './wasm-compiler.js';

export interface DatabaseConfig {
  /** When set, a PostgreSQL server (or a transaction-mode pooler in front of one); otherwise embedded PGlite in `dataDir`. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; undefined = in memory. */
  dataDir?: string | undefined;
  /**
   * The server itself, when `databaseUrl` is a transaction-mode pooler: then nothing is set on `databaseUrl`'s
   * sessions, and migrations and LISTEN go here (docs/scaling.md#connection-pooler).
   */
  directUrl?: string | undefined;
  /**
   * Named (prepared) statements (STAYKIT_PREPARED_STATEMENTS): `auto` (default) = on, except behind a pooler;
   * `on` also behind one (PgBouncer 1.21 or newer with `max_prepared_statements`); `off` = never.
   */
  preparedStatements?: 'auto' | 'on' | 'off' | undefined;
  /** Embedded only: how V8 compiles Postgres' WebAssembly (STAYKIT_EMBEDDED_COMPILER; default optimizing). */
  embeddedCompiler?: EmbeddedCompiler | undefined;
}

/** The `preparedStatements` option of a pool for `setting` (`auto`: the pool's own default). */
export function preparedStatementsOption(setting: DatabaseConfig['preparedStatements']): Pick<PostgresOptions, 'preparedStatements'> {
  if (setting === 'on') return { preparedStatements: DEFAULT_PREPARED_STATEMENTS_PER_CONNECTION };
  if (setting === 'off') return { preparedStatements: 0 };
  return {};
}

/** The options of a pool on `config`'s DATABASE_URL: `pooled` when a direct URL says it is a pooler. */
export function postgresOptions(config: DatabaseConfig & { databaseUrl: string }, options: Omit<PostgresOptions, 'connectionString' | 'pooled'> = {}): PostgresOptions {
  return {
    ...options,
    connectionString: config.databaseUrl,
    pooled: config.directUrl !== undefined,
    ...preparedStatementsOption(config.preparedStatements),
  };
}

export function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.databaseUrl
    ? openPostgres(postgresOptions({ ...config, databaseUrl: config.databaseUrl }))
    : openPGlite(config.dataDir, { compiler: config.embeddedCompiler });
}

/**
 * Applies pending migrations to `db`, or on a connection of its own to the direct URL when there is one: DDL may
 * wait for locks and run long, which a pooler's limits are not set for.
 */
export async function migrateConfigured(db: Database, config: DatabaseConfig): Promise<string[]> {
  if (!config.directUrl) return migrate(db);
  const direct = await openPostgres({ connectionString: config.directUrl, maxConnections: 1 });
  try {
    return await migrate(direct);
  } finally {
    await direct.close();
  }
}

/** Where LISTEN connects: never through a pooler, which does not forward notifications. */
export function listenUrl(config: DatabaseConfig): string | undefined {
  return config.directUrl ?? config.databaseUrl;
}
