import { openPGlite } from './pglite.js';
import { openPostgres } from './postgres.js';
import type { Database } from './types.js';

export interface DatabaseConfig {
  /** When set, a PostgreSQL server; otherwise embedded PGlite in `dataDir`. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; undefined = in memory. */
  dataDir?: string | undefined;
}

export function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.databaseUrl
    ? openPostgres({ connectionString: config.databaseUrl })
    : openPGlite(config.dataDir);
}
