/**
 * PGlite's data folder is readable by its owner only: the folder and every folder in it 0700, every file 0600,
 * whatever the umask. The data files hold every tenant's data and the API keys' hashes.
 *
 * The folder is created 0700 before PGlite opens it, and what an earlier run (or an older Staykit) left with wider
 * modes is narrowed on every start. What PGlite creates while it runs is kept owner-only by
 * src/db/pglite-owner-only-fs.ts.
 *
 * An empty folder starts from the template that the build leaves beside the compiled code (dist/pglite-template,
 * made by scripts/build-server.js: initdb and every migration of the build, on the same PGlite): a copy of its files
 * instead of running initdb and the migrations again, the bulk of a first start's time and memory. Migrations added
 * since the build are applied on top as usual. The sources (tests, the tsx fallback) have no template and run initdb.
 */
import { access, chmod, copyFile, cp, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;

const TEMPLATE_DIR = fileURLToPath(new URL('../../pglite-template', import.meta.url));
/** The file whose presence makes a folder a database to PGlite (otherwise it runs initdb). */
const VERSION_FILE = 'PG_VERSION';

const exists = (path: string) => access(path).then(() => true, () => false);

/** Copies the template into `dir` when `dir` holds no database and there is a template; PG_VERSION last, so an interrupted copy is started again. */
async function copyTemplate(dir: string): Promise<void> {
  if ((await exists(join(dir, VERSION_FILE))) || !(await exists(join(TEMPLATE_DIR, VERSION_FILE)))) return;
  await cp(TEMPLATE_DIR, dir, { recursive: true, filter: (source) => source !== join(TEMPLATE_DIR, VERSION_FILE) });
  await copyFile(join(TEMPLATE_DIR, VERSION_FILE), join(dir, VERSION_FILE));
}

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

/**
 * Creates `dir` (and missing parents) owner-only if it does not exist, fills it from the template if it holds no
 * database, and narrows the modes of what is in it.
 */
export async function prepareDataDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DATA_DIR_MODE });
  await copyTemplate(dir);
  await restrictTree(dir);
}
