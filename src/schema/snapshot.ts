/**
 * A copy of a schema's catalogue reads (`SchemaCatalog`) kept in a file between starts, so that a start whose
 * database and code are those of the copy does not read the catalogue again. The embedded server keeps one in its
 * data folder: there the reads are the largest part of a warm start — the catalogue's caches are cold, and V8
 * compiles and optimises the Postgres code they run (docs/deployment.md#start-up-and-memory).
 *
 * The copy is used only when its key is the start's: the database's fingerprint (the caller's; `staykit serve`
 * gives the applied migrations and the server's version, since only migrations change the embedded database's
 * schema), the schema and role, and the code that reads and interprets the catalogue (this folder's files, as they
 * are on disk). Anything else — no file, another key, a file that cannot be read or parsed — reads the catalogue
 * and writes a new copy; a copy that cannot be written is not a reason to fail the start.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Queryable } from '../db/types.js';
import { readSchemaCatalog, schemaCacheOf, type SchemaCacheOptions, type SchemaCatalog } from './load.js';
import type { SchemaCache } from './types.js';
import type { ViewKeys } from './views.js';

export interface SnapshotOptions {
  file: string;
  /** What identifies the database's catalogue: the copy is used only for the same value (compared as JSON). */
  fingerprint: unknown;
}

/** The catalogue as JSON: the views' maps as entry lists. */
interface StoredSnapshot {
  key: string;
  catalog: Omit<SchemaCatalog, 'viewKeys'> & { viewKeys: { views: [string, [string, string[]][]][]; keys: ViewKeys['keys'] } };
}

const CODE_DIR = dirname(fileURLToPath(import.meta.url));

/** A hash of this folder's files: a copy made by other code is not used. */
async function codeHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const name of (await readdir(CODE_DIR)).sort()) hash.update(name).update(await readFile(join(CODE_DIR, name)));
  return hash.digest('hex');
}

async function keyOf(options: SchemaCacheOptions, fingerprint: unknown): Promise<string> {
  return createHash('sha256')
    .update(JSON.stringify({ schema: options.schema, role: options.role ?? null, fingerprint, code: await codeHash() }))
    .digest('hex');
}

function toStored(key: string, catalog: SchemaCatalog): StoredSnapshot {
  const views = [...catalog.viewKeys.views].map(([name, columns]): [string, [string, string[]][]] => [name, [...columns]]);
  return { key, catalog: { ...catalog, viewKeys: { views, keys: catalog.viewKeys.keys } } };
}

function fromStored(stored: StoredSnapshot): SchemaCatalog {
  const views = new Map(stored.catalog.viewKeys.views.map(([name, columns]) => [name, new Map(columns)]));
  return { ...stored.catalog, viewKeys: { views, keys: stored.catalog.viewKeys.keys } };
}

async function readSnapshot(file: string, key: string): Promise<SchemaCatalog | undefined> {
  try {
    const stored = JSON.parse(await readFile(file, 'utf8')) as StoredSnapshot;
    return stored.key === key ? fromStored(stored) : undefined;
  } catch {
    return undefined;
  }
}

/** Written beside the file and moved over it: a start that reads it meanwhile sees the old copy or the new one. */
async function writeSnapshot(file: string, stored: StoredSnapshot): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, JSON.stringify(stored), { mode: 0o600 });
  await rename(partial, file);
}

/** The schema cache from the copy in `snapshot.file` when its key matches, else from the database (and kept). */
export async function loadSchemaCacheWithSnapshot(db: Queryable, options: SchemaCacheOptions, snapshot: SnapshotOptions): Promise<SchemaCache> {
  const key = await keyOf(options, snapshot.fingerprint);
  const kept = await readSnapshot(snapshot.file, key);
  if (kept) return schemaCacheOf(kept, options);
  const catalog = await readSchemaCatalog(db, options);
  await writeSnapshot(snapshot.file, toStored(key, catalog)).catch(() => undefined);
  return schemaCacheOf(catalog, options);
}
