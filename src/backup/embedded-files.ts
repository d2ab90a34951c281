/**
 * The embedded database in a backup: the files of Postgres' own in the data folder, copied while they are at rest
 * (`Database.whileFilesAtRest`: after a CHECKPOINT, with no statement running), so the copy is the database as of
 * one moment and opens without recovery. This is what PGlite's `dumpDataDir()` does too — it reads the folder between
 * statements — but that reads everything under DATA_DIR (the media, the outbox, the lock file) into memory at once;
 * here only Postgres' files are taken, each streamed into the archive.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TarEntry, TarWriter } from './tar.js';

/** The archive's folder holding the data folder's Postgres files. */
export const DATABASE_PREFIX = 'database/';

/**
 * Postgres' entries at the top of a data folder (PGlite's data folder is DATA_DIR itself, beside Staykit's own:
 * media/, outbox/, the lock, the demo key, the schema snapshot). postmaster.pid is left out: it names a process.
 */
const POSTGRES_ENTRY = /^(PG_VERSION|base|global|pg_[a-z_]+|pg_(hba|ident)\.conf|postgresql(\.auto)?\.conf|postmaster\.opts)$/;

export const isPostgresEntry = (topLevelName: string): boolean => POSTGRES_ENTRY.test(topLevelName);

/** Adds `dir`'s files (below `relative`) to the archive under `prefix`, folders first. */
async function addTree(tar: TarWriter, dir: string, prefix: string, relative: string): Promise<void> {
  const entries = await readdir(join(dir, relative), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (relative === '' && !isPostgresEntry(entry.name)) continue;
    if (entry.isDirectory()) {
      await tar.folder(`${prefix}${path}`);
      await addTree(tar, dir, prefix, path);
    } else if (entry.isFile()) {
      await tar.file(`${prefix}${path}`, join(dir, path), (await stat(join(dir, path))).size);
    }
  }
}

/** Adds the Postgres files of the data folder `dataDir` to the archive. Call it inside `whileFilesAtRest`. */
export function addDatabaseFiles(tar: TarWriter, dataDir: string): Promise<void> {
  return addTree(tar, dataDir, DATABASE_PREFIX, '');
}

/**
 * The entries of an archive that belong in a data folder, with their path there: under `prefix` (a backup's
 * `database/`, or '' for an image of PGlite's `dumpDataDir`), Postgres' own only.
 */
export function databaseEntries(entries: TarEntry[], prefix: string): { entry: TarEntry; path: string }[] {
  return entries
    .filter((entry) => entry.name.startsWith(prefix) && entry.name.length > prefix.length)
    .map((entry) => ({ entry, path: entry.name.slice(prefix.length) }))
    .filter(({ path }) => isPostgresEntry(path.split('/')[0]!));
}
