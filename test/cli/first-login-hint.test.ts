/**
 * `staykit serve` on a database nobody can log in to yet — an upgraded data folder from before dashboard users, or a
 * PostgreSQL database set up with `staykit org create` — prints the command that makes the first login, with the
 * organization's id filled in; once a user exists it says nothing more. Both backends.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startServerProcess } from '../support/server-process.js';
import { staykit } from '../support/staykit-cli.js';

for (const backend of BACKENDS) {
  describe(`the first dashboard login [${backend}]`, () => {
    let dataDir: string;
    let testDb: TestDatabase | undefined;
    let env: Record<string, string>;
    let organizationId: string;

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), `staykit-first-login-${backend}-`));
      env = { DATA_DIR: dataDir, DATABASE_URL: '' };
      if (backend === 'postgres') {
        testDb = await createTestDatabase('postgres');
        await testDb.db.close();
        env.DATABASE_URL = testDb.url!;
      }
      const created = await staykit(['org', 'create', '--name', 'Seaside Rentals'], env);
      assert.equal(created.code, 0, created.stderr);
      organizationId = (JSON.parse(created.stdout) as { organization_id: string }).organization_id;
    });
    after(async () => {
      await testDb?.drop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    });

    it('is explained at start while there is none, and not once there is', async () => {
      const first = await startServerProcess(env);
      await first.stop();
      assert.match(first.output(), new RegExp(
        `No dashboard login yet: create one \\(it prints a link to choose the password\\) with\\n  npx staykit user create --org ${organizationId} --email you@example.com --role owner`));

      const user = await staykit(['user', 'create', '--org', organizationId, '--email', 'owner@seaside.example', '--role', 'owner'], env);
      assert.equal(user.code, 0, user.stderr);
      const second = await startServerProcess(env);
      await second.stop();
      assert.doesNotMatch(second.output(), /No dashboard login yet/);
    });
  });
}
