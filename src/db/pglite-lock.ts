/**
 * One process per embedded data folder. PGlite keeps the database in memory and writes the folder back as it goes:
 * a second process opening the same folder works on its own copy, and what it writes is lost when the first one
 * writes again (a `staykit user create` next to a running `staykit serve` reported success for a user that then did
 * not exist). So every process that opens a data folder holds `staykit.lock` in it — its process id, command and
 * start — and a second one is refused with a message naming the holder. A lock left by a process that is gone (a
 * crash, a kill -9) is taken over.
 */
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCK_FILE = 'staykit.lock';

interface LockHolder {
  pid: number;
  command: string;
  since: string;
}

/** The folder is held by another live process. */
export class DataDirInUseError extends Error {
  constructor(readonly dir: string, readonly holder: LockHolder) {
    super(`the data folder ${dir} is in use by another Staykit process (pid ${holder.pid}, "${holder.command}", since ${holder.since}); `
      + 'the embedded database can be opened by one process at a time: stop that process first (for a running server, '
      + 'use the dashboard or the API instead), or use DATABASE_URL');
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, but another user's
  }
}

async function holderOf(path: string): Promise<LockHolder | undefined> {
  try {
    const holder = JSON.parse(await readFile(path, 'utf8')) as LockHolder;
    return Number.isSafeInteger(holder.pid) ? holder : undefined;
  } catch {
    return undefined; // unreadable or half written: treated as stale
  }
}

/** Takes the folder's lock for this process; returns its release. Throws DataDirInUseError while another holds it. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, command: process.argv.slice(1).join(' ').slice(0, 200), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const file = await open(path, 'wx', 0o600);
      await file.writeFile(JSON.stringify(mine));
      await file.close();
      return async () => {
        if ((await holderOf(path))?.pid === process.pid) await unlink(path).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await holderOf(path);
      if (holder && holder.pid !== process.pid && alive(holder.pid)) throw new DataDirInUseError(dir, holder);
      await unlink(path).catch(() => undefined); // stale (its process is gone) or this process's own leftover
    }
  }
  throw new Error(`the lock ${path} could not be taken`);
}
