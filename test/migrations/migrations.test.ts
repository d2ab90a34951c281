/**
 * Migrations are idempotent: running them again applies nothing; two processes migrating one fresh PostgreSQL
 * database at once both succeed and the schema is applied exactly once; the API role exists afterwards.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend, createTestDatabase } from '../support/databases.js';
import { loadMigrations, migrate, migrationStatus } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';

forEachBackend('schema: migrations', (ctx) => {
  it('applies nothing when migrated again, and reports the newest migration as current', async () => {
    const before = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = 'api'::regnamespace`);
    assert.deepEqual(await migrate(ctx.db), []);
    const after = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = 'api'::regnamespace`);
    assert.equal(after.rows[0]!.n, before.rows[0]!.n);
    const all = await loadMigrations();
    const status = await migrationStatus(ctx.db);
    assert.deepEqual(status.pending, []);
    assert.equal(status.current, all.at(-1)!.id);
  });

  it('creates the NOLOGIN API role', async () => {
    const { rows } = await ctx.db.query<{ rolcanlogin: boolean; rolsuper: boolean; rolbypassrls: boolean }>(
      `SELECT rolcanlogin, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = 'staykit_api'`);
    assert.deepEqual(rows, [{ rolcanlogin: false, rolsuper: false, rolbypassrls: false }]);
  });

  if (ctx.backend === 'postgres') {
    it('survives two processes migrating one fresh database at once', async () => {
      const fresh = await createTestDatabase('postgres', { migrated: false });
      const second = await openPostgres({ connectionString: fresh.url!, maxConnections: 2 });
      try {
        const [one, two] = await Promise.all([migrate(fresh.db), migrate(second)]);
        const all = (await loadMigrations()).map((m) => m.id);
        assert.deepEqual([one, two].map((applied) => applied.length).sort((x, y) => x - y), [0, all.length]);
        assert.deepEqual([...one, ...two], all);
        const { rows } = await fresh.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM staykit_internal.migrations`);
        assert.equal(rows[0]!.n, all.length);
        const tables = await second.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = 'api'::regnamespace AND relkind IN ('r', 'p')`);
        assert.ok(tables.rows[0]!.n >= 72);
      } finally {
        await second.close();
        await fresh.drop();
      }
    });

    it('creates the role race-safely: a second creator waiting on the first one succeeds too', async () => {
      // The migration's own DO block, run for a throwaway role name by two transactions that overlap.
      const file = (await loadMigrations()).find((m) => m.id.endsWith('_privileges_and_rls'))!;
      const block = /DO \$\$\s*BEGIN\s*IF NOT EXISTS \(SELECT 1 FROM pg_roles[\s\S]*?END\s*\$\$;/.exec(file.sql)?.[0];
      assert.ok(block, 'the role-creating DO block is in the migration');
      const role = `staykit_race_${Date.now()}`;
      const sql = block.replaceAll('staykit_api', role);
      const other = await openPostgres({ connectionString: ctx.url!, maxConnections: 1 });
      let release!: () => void;
      const firstHolds = new Promise<void>((resolve) => { release = resolve; });
      let secondStarted!: () => void;
      const started = new Promise<void>((resolve) => { secondStarted = resolve; });
      try {
        const first = ctx.db.transaction(async (tx) => {
          await tx.exec(sql);
          await firstHolds; // keep the new role uncommitted while the second one tries
        });
        const second = other.transaction(async (tx) => {
          await started;
          await tx.exec(sql);
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        secondStarted();
        await new Promise((resolve) => setTimeout(resolve, 300));
        release();
        await Promise.all([first, second]);
        const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = $1`, [role]);
        assert.equal(rows[0]!.n, 1);
      } finally {
        await other.close();
        await ctx.db.query(`DROP ROLE IF EXISTS ${role}`);
      }
    });

    it('migrates several fresh databases of one cluster concurrently (the role is shared)', async () => {
      const databases = await Promise.all([1, 2, 3].map(() => createTestDatabase('postgres', { migrated: false })));
      try {
        const applied = await Promise.all(databases.map((d) => migrate(d.db)));
        for (const ids of applied) assert.ok(ids.length > 0);
      } finally {
        await Promise.all(databases.map((d) => d.drop()));
      }
    });
  }
});
