/**
 * PGlite's data folder is readable by its owner only: the folder and every folder in it 0700, every file 0600,
 * whatever the umask. The data files hold every tenant's data and the API keys' hashes.
 *
 * The folder is created 0700 before PGlite opens it, and what an earlier run (or an older Staykit) left with wider
 * modes is narrowed on every start. What PGlite creates while it runs is kept owner-only by
 * src/db/pglite-owner-only-fs.ts.
 */
import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;

/** Folders 0700 and files 0600 from `dir` down; symbolic links and special files are left alone. */
async function restrictTree(dir: string): Promise<void> {
  await chmod(dir, DATA_DIR_MODE);
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return restrictTree(path);
      if (entry.isFile()) return chmod(path, DATA_FILE_MODE);
      return undefined;
    }),
  );
}

/** Creates `dir` (and missing parents) owner-only if it does not exist, and narrows the modes of what is in it. */
export async function prepareDataDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DATA_DIR_MODE });
  await restrictTree(dir);
}
