import { loadConfig, type Config } from '../../config.js';
import { migrateConfigured, openDatabase, postgresOptions, preparedStatementsOption, type DatabaseConfig } from '../../db/open.js';
import { openPostgres } from '../../db/postgres.js';
import { routeReads } from '../../db/replicas.js';
import type { Database } from '../../db/types.js';

/** The database settings of `config`. */
export function databaseConfig(config: Config): DatabaseConfig {
  return {
    databaseUrl: config.databaseUrl, dataDir: config.dataDir, directUrl: config.databaseDirectUrl, preparedStatements: config.preparedStatements,
    embeddedCompiler: config.embeddedCompiler,
  };
}

/** Opens the configured database and brings it to the current migration, for every command that needs it. */
export async function openMigratedDatabase(config: Config = loadConfig()): Promise<Database> {
  const db = await openDatabase(databaseConfig(config));
  try {
    await migrateConfigured(db, databaseConfig(config));
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** Runs `fn` against the migrated database and always closes it. */
export async function withDatabase<T>(fn: (db: Database) => Promise<T>, config?: Config): Promise<T> {
  const db = await openMigratedDatabase(config);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** Connections of the background work of one process (webhook deliveries, iCal imports, the request log). */
export const BACKGROUND_POOL_SIZE = 5;

/** How long a request waits to connect to a read replica before it reads from the primary instead. */
export const REPLICA_CONNECT_TIMEOUT_MS = 1_000;

/** Statement timeout of background work: its statements are short, but some write a whole calendar. */
export const BACKGROUND_STATEMENT_TIMEOUT_MS = 60_000;

export interface ServerDatabases {
  /** The requests' transactions. */
  api: Database;
  /** Background work, on connections of its own so that requests cannot take them all (PGlite: the same one). */
  background: Database;
  close(): Promise<void>;
}

/**
 * The databases of `staykit serve`, migrated. On PostgreSQL two pools, each with every statement bounded by a
 * statement timeout (the requests' one is STAYKIT_STATEMENT_TIMEOUT) and so every wait for an answer (see
 * src/db/postgres.ts and src/db/postgres-unanswered.ts); migrations run before, on a connection of their own without
 * that bound, since one may legitimately take longer. On PGlite, the one embedded connection serves both.
 */
export async function openServerDatabases(config: Config): Promise<ServerDatabases> {
  const connectionString = config.databaseUrl;
  if (!connectionString) {
    const db = await openMigratedDatabase(config);
    return { api: db, background: db, close: () => db.close() };
  }
  await withDatabase(async () => undefined, config);
  const settings = { ...databaseConfig(config), databaseUrl: connectionString };
  const api = await openPostgres(postgresOptions(settings, { statementTimeoutMs: config.statementTimeoutSeconds * 1000 }));
  const background = await openPostgres(postgresOptions(settings, {
    maxConnections: BACKGROUND_POOL_SIZE,
    statementTimeoutMs: BACKGROUND_STATEMENT_TIMEOUT_MS,
  }));
  // Replicas serve some reads of the API (docs/scaling.md#read-replicas); a replica that does not answer within a
  // second is passed over for the primary, so its connection timeout is short.
  const replicas = await Promise.all(config.databaseReadUrls.map((url) => openPostgres({
    connectionString: url, statementTimeoutMs: config.statementTimeoutSeconds * 1000, connectionTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS,
    ...preparedStatementsOption(config.preparedStatements),
  })));
  const routed = replicas.length > 0 ? routeReads(api, replicas) : api;
  return {
    api: routed,
    background,
    close: async () => {
      await Promise.all([routed.close(), background.close()]);
    },
  };
}
