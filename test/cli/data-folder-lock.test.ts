/**
 * One process per embedded data folder (issue: a first real day, item 3): a command that would write to the folder
 * a running server holds is refused with a message naming the holder — never a reported success that is lost — and
 * works once the server has stopped; a lock left by a process that died is taken over.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE } from '../../src/db/pglite-lock.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { staykit } from '../support/staykit-cli.js';

describe('the embedded data folder is one process\'s', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  let organizationId: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'staykit-lock-'));
    const created = await staykit(['org', 'create', '--name', 'Locked Rentals'], { DATA_DIR: dataDir });
    assert.equal(created.code, 0, created.stderr);
    organizationId = (JSON.parse(created.stdout) as { organization_id: string }).organization_id;
  });
  after(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a writing command while the server holds the folder, naming it, and runs it once the server stopped', async () => {
    server = await startServerProcess({ DATABASE_URL: '', DATA_DIR: dataDir });
    const holder = JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8')) as { pid: number; command: string };
    assert.equal(holder.pid, server.child.pid);
    assert.match(holder.command, /serve/);

    const refused = await staykit(['user', 'create', '--org', organizationId, '--email', 'kim@example.com', '--role', 'manager'], { DATA_DIR: dataDir });
    assert.equal(refused.code, 1, refused.stdout);
    assert.equal(refused.stdout, '', 'no success is reported');
    assert.match(refused.stderr, new RegExp(`in use by another Staykit process \\(pid ${server.child.pid}, .*serve`));
    assert.match(refused.stderr, /stop that process first/);
    const keys = await staykit(['key', 'create', '--org', organizationId], { DATA_DIR: dataDir });
    assert.equal(keys.code, 1, keys.stdout);

    assert.equal(await server.stop(), 0);
    server = undefined;
    const created = await staykit(['user', 'create', '--org', organizationId, '--email', 'kim@example.com', '--role', 'manager'], { DATA_DIR: dataDir });
    assert.equal(created.code, 0, created.stderr);
    await assert.rejects(readFile(join(dataDir, LOCK_FILE)), 'the lock is released when the command ends');
  });

  it('takes over a lock whose process is gone', async () => {
    await writeFile(join(dataDir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, command: 'staykit serve', since: '2026-01-01T00:00:00Z' }));
    const listed = await staykit(['key', 'list', '--org', organizationId], { DATA_DIR: dataDir });
    assert.equal(listed.code, 0, listed.stderr);
  });
});
