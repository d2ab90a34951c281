/**
 * `staykit backup --output FILE` and `staykit restore FILE [--force]` (src/backup, docs/operations.md). The embedded
 * database is backed up by whoever holds its data folder: this command when no server runs, the server itself
 * (STAYKIT_BACKUP_INTERVAL) while one does.
 */
import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/open.js';
import { DataDirInUseError } from '../../db/pglite-lock.js';
import type { Database } from '../../db/types.js';
import { restoreBackup, type RestoreSummary } from '../../backup/restore-backup.js';
import { writeBackup, type BackupSummary } from '../../backup/write-backup.js';
import { databaseConfig } from '../support/database.js';

/** The configured database as it is (a backup migrates nothing); the embedded one only if its folder holds one. */
async function openExisting(config: Config): Promise<Database> {
  if (!config.databaseUrl && !(await access(join(config.dataDir, 'PG_VERSION')).then(() => true, () => false))) {
    throw new Error(`there is no embedded database in ${config.dataDir} to back up (set DATA_DIR, or DATABASE_URL for PostgreSQL)`);
  }
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
