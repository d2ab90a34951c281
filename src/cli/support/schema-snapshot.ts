/**
 * The embedded database's copy of the API schema's catalogue reads, kept in its data folder (src/schema/snapshot.ts):
 * `staykit migrate` and `staykit serve` bring it up to date, so the template the build migrates carries one and a
 * start reads the catalogue only after its migrations or its code changed.
 */
import { join } from 'node:path';
import { migrationStatus } from '../../db/migrate.js';
import type { Database } from '../../db/types.js';
import { loadSchemaCacheWithSnapshot } from '../../schema/snapshot.js';
import { type SchemaCache } from '../../schema/types.js';
import { API_SCHEMA } from '../../transaction/tenant-transaction.js';

export const SCHEMA_SNAPSHOT_FILE = 'schema-cache.json';

/**
 * The API schema's cache, from the copy in `dataDir` while the database's applied migrations and Postgres version are
 * the copy's — nothing else changes the embedded database's schema — else read and kept.
 */
export async function embeddedSchemaCache(db: Database, dataDir: string): Promise<SchemaCache> {
  const { applied } = await migrationStatus(db);
  const { rows } = await db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
  const fingerprint = { migrations: applied, version: rows[0]?.version };
  return loadSchemaCacheWithSnapshot(db, API_SCHEMA, { file: join(dataDir, SCHEMA_SNAPSHOT_FILE), fingerprint });
}
