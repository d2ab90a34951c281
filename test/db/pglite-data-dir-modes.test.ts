/**
 * The embedded database's data folder is the owner's only, whatever the umask: folders 0700, files 0600 (the WAL
 * included), for a new folder, for what PGlite creates while it runs, and for a folder left with wider modes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPGlite } from '../../src/db/pglite.js';

/** Every folder and file from `dir` down, with its permission bits. */
async function modes(dir: string): Promise<{ path: string; directory: boolean; mode: number }[]> {
  const found = [{ path: dir, directory: true, mode: (await lstat(dir)).mode & 0o777 }];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await modes(path)));
    else if (entry.isFile()) found.push({ path, directory: false, mode: (await lstat(path)).mode & 0o777 });
  }
  return found;
}

function assertOwnerOnly(found: { path: string; directory: boolean; mode: number }[]): void {
  const wide = found.filter((entry) => entry.mode !== (entry.directory ? 0o700 : 0o600));
  assert.deepEqual(
    wide.map((entry) => `${entry.path} ${entry.mode.toString(8)}`),
    [],
    'folders 0700 and files 0600',
  );
}

describe('embedded data folder modes [pglite]', () => {
  let parent: string;
  let umask: number;
  before(async () => {
    parent = await mkdtemp(join(tmpdir(), 'staykit-modes-'));
    // As permissive as it gets: nothing may rely on the umask.
    umask = process.umask(0);
  });
  after(async () => {
    process.umask(umask);
    await rm(parent, { recursive: true, force: true });
  });

  it('creates the folder and everything in it owner-only, the WAL included', async () => {
    const dataDir = join(parent, 'new');
    const db = await openPGlite(dataDir);
    try {
      await db.exec('CREATE TABLE written (n int)');
      await db.query('INSERT INTO written SELECT generate_series(1, 1000)');
      assertOwnerOnly(await modes(dataDir));
    } finally {
      await db.close();
    }
    const found = await modes(dataDir);
    assert.ok(found.some((entry) => entry.path.includes('pg_wal') && !entry.directory), 'the WAL is there');
    assertOwnerOnly(found);
  });

  it('narrows a folder left world-readable when it opens it', async () => {
    const dataDir = join(parent, 'old');
    await (await openPGlite(dataDir)).close();
    for (const entry of await modes(dataDir)) await chmod(entry.path, entry.directory ? 0o777 : 0o666);
    const db = await openPGlite(dataDir);
    try {
      assertOwnerOnly(await modes(dataDir));
    } finally {
      await db.close();
    }
  });
});
