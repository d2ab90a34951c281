import { loadConfig, type Config } from '../config.js';
import { migrate } from '../db/migrate.js';
import { openDatabase } from '../db/open.js';
import type { Database } from '../db/types.js';

/** Opens the configured database and brings it to the current migration, for every command that needs it. */
export async function openMigratedDatabase(config: Config = loadConfig()): Promise<Database> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
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
