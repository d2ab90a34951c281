/**
 * Restores a backup file (src/backup/write-backup.ts) into the configured database — a data folder holding no
 * database yet, or a PostgreSQL database that is empty (or any, with `force`) — and its media files into the
 * configured media store. The manifest is checked first: a file from a newer Staykit is refused before anything is
 * written; one from an older Staykit is loaded and then migrated the way `serve` migrates at start
 * (docs/operations.md#restore).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Config } from '../config.js';
import { migrateConfigured, openDatabase, type DatabaseConfig } from '../db/open.js';
import { prepareDataDir } from '../db/pglite-data-dir.js';
import { openMediaStore } from '../media/open-store.js';
import { DATABASE_PREFIX, databaseEntries } from './embedded-files.js';
import { BackupRefusedError, checkMigration, MANIFEST_ENTRY, parseManifest, type BackupManifest } from './manifest.js';
import { restoreMediaFiles } from './media-files.js';
import { emptyOrRefuse, ensureRoles, restoreDatabase } from './postgres-tools.js';
import { extractEntry, listTar, pathInside, readEntry, type TarEntry } from './tar.js';
import { PGDUMP_ENTRY } from './write-backup.js';

export interface RestoreSummary {
  manifest: BackupManifest;
  /** Migrations applied after loading (a backup of an older Staykit). */
  migrations_applied: string[];
  media_files: number;
}

/** The backup's tar, uncompressed into `folder` so its entries can be read by offset. */
async function unpack(file: string, folder: string): Promise<string> {
  const archive = join(folder, 'backup.tar');
  try {
    await pipeline(createReadStream(file), createGunzip(), createWriteStream(archive, { mode: 0o600 }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BackupRefusedError(`${file} does not exist`);
    throw new BackupRefusedError(`${file} is not a Staykit backup (not a gzip-compressed tar: ${(error as Error).message})`);
  }
  return archive;
}

async function readManifest(archive: string, entries: TarEntry[]): Promise<BackupManifest> {
  const entry = entries.find((candidate) => candidate.name === MANIFEST_ENTRY);
  if (!entry) throw new BackupRefusedError('the file is not a Staykit backup (it has no manifest.json)');
  return parseManifest((await readEntry(archive, entry)).toString('utf8'));
}

const exists = (path: string) => access(path).then(() => true, () => false);

/** The data folder's Postgres files from the archive into `dataDir`, which must hold no database. */
async function restoreEmbedded(archive: string, entries: TarEntry[], dataDir: string): Promise<void> {
  if (await exists(join(dataDir, 'PG_VERSION'))) {
    throw new BackupRefusedError(`the data folder ${dataDir} holds a database already: restore into a new DATA_DIR (or move this one aside first)`);
  }
  const files = databaseEntries(entries, DATABASE_PREFIX);
  if (files.length === 0) throw new BackupRefusedError('the backup holds no embedded database files');
  // PG_VERSION last: a folder without it is not a database, so an interrupted restore is started again, not opened.
  const ordered = [...files.filter(({ path }) => path !== 'PG_VERSION'), ...files.filter(({ path }) => path === 'PG_VERSION')];
  for (const { entry, path } of ordered) await extractEntry(archive, entry, pathInside(dataDir, path));
  await prepareDataDir(dataDir);
}

async function restorePostgres(archive: string, entries: TarEntry[], manifest: BackupManifest, url: string, force: boolean, staging: string): Promise<void> {
  const dump = entries.find((entry) => entry.name === PGDUMP_ENTRY);
  if (!dump) throw new BackupRefusedError('the backup holds no PostgreSQL dump');
  const file = join(staging, PGDUMP_ENTRY);
  await extractEntry(archive, dump, file);
  // The target as it is, unmigrated.
  const db = await openDatabase({ databaseUrl: url });
  try {
    await emptyOrRefuse(db, force);
    await ensureRoles(db, manifest.roles ?? []);
  } finally {
    await db.close();
  }
  await restoreDatabase(url, file);
}

/** Where a backup is restored: the configured database (a PostgreSQL server or DATA_DIR) and media store. */
export interface RestoreTarget {
  database: DatabaseConfig & { dataDir: string };
  media: Pick<Config, 'mediaS3Url' | 'dataDir'>;
}

/** Restores `file` into `target`; `force`: into a PostgreSQL database that is not empty. */
export async function restoreBackup(target: RestoreTarget, file: string, options: { force?: boolean } = {}): Promise<RestoreSummary> {
  const config = target.database;
  const staging = await mkdtemp(join(tmpdir(), 'staykit-restore-'));
  try {
    const archive = await unpack(file, staging);
    const entries = await listTar(archive);
    const manifest = await readManifest(archive, entries);
    await checkMigration(manifest);
    const backend = config.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.backend !== backend) {
      throw new BackupRefusedError(`the backup is of ${manifest.backend === 'pglite' ? 'the embedded database' : 'a PostgreSQL database'} and `
        + `restores into the same kind (this configuration names ${backend === 'pglite' ? 'the embedded database' : 'DATABASE_URL'}); `
        + 'moving between the two: docs/operations.md#moving-to-postgresql');
    }
    if (backend === 'pglite') await restoreEmbedded(archive, entries, config.dataDir);
    else await restorePostgres(archive, entries, manifest, config.directUrl ?? config.databaseUrl!, options.force ?? false, staging);
    // What `serve` does at start: open, apply the migrations this Staykit has and the backup's database lacks.
    const db = await openDatabase(config);
    let applied: string[];
    try {
      applied = await migrateConfigured(db, config);
    } finally {
      await db.close();
    }
    const mediaFiles = await restoreMediaFiles(archive, entries, openMediaStore(target.media));
    return { manifest, migrations_applied: applied, media_files: mediaFiles };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
