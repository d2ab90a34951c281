/**
 * `staykit backup --output FILE`, `staykit restore FILE [--force]` and `staykit migrate-to-postgres` (src/backup,
 * docs/operations.md). The embedded database is backed up by whoever holds its data folder: this command when no
 * server runs, the server itself (STAYKIT_BACKUP_INTERVAL) while one does.
 */
import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../../config.js';
import { migrateConfigured, openDatabase } from '../../db/open.js';
import { DataDirInUseError } from '../../db/pglite-lock.js';
import type { Database } from '../../db/types.js';
import { restoreBackup, type RestoreSummary } from '../../backup/restore-backup.js';
import { copyToPostgres, type MigrateSummary } from '../../backup/migrate-to-postgres.js';
import { emptyOrRefuse } from '../../backup/postgres-tools.js';
import { writeBackup, type BackupSummary } from '../../backup/write-backup.js';
import { databaseConfig, openMigratedDatabase } from '../support/database.js';

async function requireEmbeddedDatabase(dataDir: string): Promise<void> {
  if (!(await access(join(dataDir, 'PG_VERSION')).then(() => true, () => false))) {
    throw new Error(`there is no embedded database in ${dataDir} (set DATA_DIR to its folder)`);
  }
}

/** The configured database as it is (a backup migrates nothing); the embedded one only if its folder holds one. */
async function openExisting(config: Config): Promise<Database> {
  if (!config.databaseUrl) await requireEmbeddedDatabase(config.dataDir);
  try {
    return await openDatabase(databaseConfig(config));
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    throw new Error(`${error.message}. A running server backs itself up: set STAYKIT_BACKUP_INTERVAL (docs/operations.md#backup)`, { cause: error });
  }
}

export async function backupCommand(config: Config, output: string): Promise<BackupSummary> {
  const db = await openExisting(config);
  try {
    return await writeBackup(db, config, resolve(output));
  } finally {
    await db.close();
  }
}

export function restoreCommand(config: Config, file: string, force: boolean): Promise<RestoreSummary> {
  return restoreBackup({ database: { ...databaseConfig(config), dataDir: config.dataDir }, media: config }, resolve(file), { force });
}

/**
 * The embedded database of DATA_DIR (stopped: its folder is opened here) copied into the empty PostgreSQL database of
 * DATABASE_URL, both migrated first. The media folder stays where it is: a server on DATABASE_URL uses DATA_DIR/media
 * as the embedded one did.
 */
export async function migrateToPostgresCommand(config: Config): Promise<MigrateSummary & { media: string }> {
  if (!config.databaseUrl) throw new Error('set DATABASE_URL to the PostgreSQL database to copy the embedded database into');
  await requireEmbeddedDatabase(config.dataDir);
  const settings = databaseConfig(config);
  const target = await openDatabase(settings);
  try {
    await emptyOrRefuse(target, false);
    await migrateConfigured(target, settings);
    const source = await openMigratedDatabase({ ...config, databaseUrl: undefined, databaseDirectUrl: undefined });
    try {
      return { ...await copyToPostgres(source, target), media: config.mediaS3Url ? 'in the S3 bucket' : join(config.dataDir, 'media') };
    } finally {
      await source.close();
    }
  } finally {
    await target.close();
  }
}
