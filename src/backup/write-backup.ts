/**
 * Writes a backup file: one gzip-compressed tar holding `manifest.json` (src/backup/manifest.ts), the database —
 * `database/…`, the embedded data folder's Postgres files, or `database.pgdump`, PostgreSQL's `pg_dump -Fc` — and the
 * media folder's files (`media/…`). Written beside its name and renamed when complete, so a file under the backup's
 * name is always whole (docs/operations.md#backup).
 */
import { createWriteStream } from 'node:fs';
import { cp, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Config } from '../config.js';
import { migrationStatus } from '../db/migrate.js';
import type { Database } from '../db/types.js';
import { addDatabaseFiles, isPostgresEntry } from './embedded-files.js';
import { STAYKIT_VERSION } from '../common/version.js';
import { FORMAT, MANIFEST_ENTRY, type BackupManifest } from './manifest.js';
import { addMediaFiles } from './media-files.js';
import { databaseRoles, dumpDatabase } from './postgres-tools.js';
import { TarWriter } from './tar.js';

export const PGDUMP_ENTRY = 'database.pgdump';

/** The settings a backup reads: where the database and the media are. */
export type BackupConfig = Pick<Config, 'databaseUrl' | 'databaseDirectUrl' | 'dataDir' | 'mediaS3Url'>;

export interface BackupSummary {
  file: string;
  manifest: BackupManifest;
  media_files: number;
  bytes: number;
}

/**
 * Copies the data folder's Postgres files into `staging` while they are at rest: the server's statements wait only
 * for this copy within one disk, not for the compression after it.
 */
async function copyEmbeddedFiles(db: Database, staging: string): Promise<void> {
  if (!db.whileFilesAtRest) throw new Error('this embedded database has no data folder to back up (in memory)');
  await db.whileFilesAtRest(async (dataDir) => {
    for (const name of (await readdir(dataDir)).filter(isPostgresEntry)) {
      await cp(join(dataDir, name), join(staging, name), { recursive: true });
    }
  });
}

/** Backs up the database `db` (the configured one) and the media folder into `file`. */
export async function writeBackup(db: Database, config: BackupConfig, file: string, now: Date = new Date()): Promise<BackupSummary> {
  const staging = await mkdtemp(join(dirname(file), `.${basename(file)}.staging-`));
  const partial = join(staging, 'backup.tar.gz');
  try {
    const manifest: BackupManifest = {
      format: FORMAT,
      staykit_version: STAYKIT_VERSION,
      migration: (await migrationStatus(db)).current,
      backend: db.backend,
      created_at: now.toISOString(),
      media: config.mediaS3Url ? 's3' : 'folder',
      ...(db.backend === 'postgres' ? { roles: await databaseRoles(db) } : {}),
    };
    // The database first: a dump of PostgreSQL takes a while, and the archive is written after.
    const databaseFiles = join(staging, 'database');
    const dump = join(staging, PGDUMP_ENTRY);
    if (db.backend === 'pglite') {
      await copyEmbeddedFiles(db, databaseFiles);
    } else {
      const url = config.databaseDirectUrl ?? config.databaseUrl;
      if (!url) throw new Error('a PostgreSQL backup needs DATABASE_URL');
      await dumpDatabase(url, dump);
    }
    const gzip = createGzip();
    const written = pipeline(gzip, createWriteStream(partial, { mode: 0o600 }));
    const tar = new TarWriter(gzip);
    let mediaFiles = 0;
    try {
      await tar.bytes(MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      if (db.backend === 'pglite') await addDatabaseFiles(tar, databaseFiles);
      else await tar.file(PGDUMP_ENTRY, dump, (await stat(dump)).size);
      if (!config.mediaS3Url) mediaFiles = await addMediaFiles(tar, join(config.dataDir, 'media'));
      await tar.end();
    } catch (error) {
      gzip.destroy(error as Error);
      throw error;
    } finally {
      await written.catch(() => undefined);
    }
    await written;
    await rename(partial, file);
    return { file, manifest, media_files: mediaFiles, bytes: (await stat(file)).size };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
