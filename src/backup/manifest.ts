/**
 * A backup file's manifest (`manifest.json`, its first entry): which Staykit and which migration made it, on which
 * backend, when, and whether the media files are inside. `staykit restore` reads it before anything else, so a file
 * from a newer Staykit is refused before a database is touched (docs/operations.md#restore).
 */
import { STAYKIT_VERSION } from '../common/version.js';
import { migrationIds } from '../db/migrate.js';
import type { Backend } from '../db/types.js';
import type { PostgresRole } from './postgres-tools.js';

/** Raised when a file cannot be restored by this Staykit: exit code 1 with its message. */
export class BackupRefusedError extends Error {}

export const MANIFEST_ENTRY = 'manifest.json';
export const FORMAT = 1;

export interface BackupManifest {
  format: number;
  staykit_version: string;
  /** The newest migration applied to the database when it was backed up (null: none). */
  migration: string | null;
  backend: Backend;
  created_at: string;
  /** `folder`: the files of DATA_DIR/media are in the backup (`media/…`); `s3`: in their bucket, backed up beside it. */
  media: 'folder' | 's3';
  /** PostgreSQL: the roles its privileges name, made on the target server when missing (src/backup/postgres-tools.ts). */
  roles?: PostgresRole[];
}


/** The manifest's fields checked as a file gives them (any JSON may be in a file named a backup). */
export function parseManifest(text: string): BackupManifest {
  let value: Partial<BackupManifest>;
  try {
    value = JSON.parse(text) as Partial<BackupManifest>;
  } catch {
    throw new BackupRefusedError('the backup\'s manifest.json is not JSON');
  }
  if (typeof value.format !== 'number' || value.format > FORMAT) {
    throw new BackupRefusedError(`the backup has format ${String(value.format)}, this Staykit reads format ${FORMAT}: restore it with a newer Staykit`);
  }
  if ((value.backend !== 'pglite' && value.backend !== 'postgres') || (value.media !== 'folder' && value.media !== 's3')
    || (value.migration !== null && typeof value.migration !== 'string')) {
    throw new BackupRefusedError('the backup\'s manifest.json lacks its backend, media or migration');
  }
  return value as BackupManifest;
}

/**
 * Refuses a backup whose database has a migration this Staykit does not know: a newer Staykit made it, and this one
 * would run on a schema it was not written for. An older one is fine: its missing migrations are applied after it
 * is loaded, as `serve` would.
 */
export async function checkMigration(manifest: BackupManifest, known?: string[]): Promise<void> {
  const ids = known ?? await migrationIds();
  if (manifest.migration === null || ids.includes(manifest.migration)) return;
  throw new BackupRefusedError(
    `the backup was made by Staykit ${manifest.staykit_version} with migration ${manifest.migration}, newer than this Staykit's `
    + `(${STAYKIT_VERSION}, last migration ${ids.at(-1) ?? 'none'}): upgrade Staykit first, then restore`,
  );
}
