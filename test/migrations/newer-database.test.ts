/**
 * An older Staykit started on a database a newer one has migrated refuses to run (issue: operations): `staykit
 * serve` and `staykit migrate` exit 1 naming the unknown migration and what to do, and leave the database as it was
 * — never running half-compatible. Both backends, through the command as an operator runs it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPGlite } from '../../src/db/pglite.js';
import type { Database } from '../../src/db/types.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { staykit } from '../support/staykit-cli.js';

const FUTURE = '9999_from_a_newer_staykit';

for (const backend of BACKENDS) {
  describe(`a database from a newer Staykit [${backend}]`, () => {
    let dataDir: string;
    let testDb: TestDatabase | undefined;
    let env: Record<string, string>;

    /** The database the commands use (PGlite: opened only while no command has its folder). */
    async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
      const db = testDb ? testDb.db : await openPGlite(dataDir);
      try {
        return await work(db);
      } finally {
        if (!testDb) await db.close();
      }
    }

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), `staykit-newer-${backend}-`));
      env = { DATA_DIR: dataDir, DATABASE_URL: '' };
      if (backend === 'postgres') {
        testDb = await createTestDatabase('postgres', { migrated: false });
        env.DATABASE_URL = testDb.url!;
      }
      const migrated = await staykit(['migrate'], env);
      assert.equal(migrated.code, 0, migrated.stderr);
      // What a newer Staykit leaves behind: a migration this one does not have.
      await withDatabase((db) => db.query('INSERT INTO staykit_internal.migrations (id) VALUES ($1)', [FUTURE]));
    });
    after(async () => {
      await testDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    for (const command of [['serve', '--port', '0'], ['migrate']]) {
      it(`staykit ${command[0]} exits 1, naming the migration and what to do`, async () => {
        const result = await staykit(command, env);
        assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
        assert.match(result.stderr, new RegExp(`upgraded by a newer Staykit: it has migration ${FUTURE}, which this Staykit \\([^)]+\\) does not know`));
        assert.match(result.stderr, /Run the newer Staykit, or restore a backup made with this version/);
        assert.doesNotMatch(result.stdout, /listening on/, 'it never served');
      });
    }

    it('leaves the database as it was', async () => {
      const ids = await withDatabase(async (db) => (await db.query<{ id: string }>('SELECT id FROM staykit_internal.migrations ORDER BY id')).rows);
      assert.equal(ids.at(-1)!.id, FUTURE);
    });
  });
}
