/**
 * Named (prepared) statements on PostgreSQL (src/db/prepared-statements.ts): a statement sent again on a connection
 * runs under the name it was parsed with; a table changed under a prepared statement does not fail the request; a
 * failed statement leaves no name behind; the cache stays within its bound on the server too; behind PgBouncer in
 * transaction mode (Debian's 1.18, which cannot keep names) none are used and everything still works.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { openPostgres } from '../../src/db/postgres.js';
import type { Database } from '../../src/db/types.js';
import { pgbouncerAvailable, startPgBouncer, type PgBouncer } from '../scale/support/pgbouncer.js';

const NAMES_ON_SERVER = `SELECT count(*)::int AS names FROM pg_prepared_statements WHERE name LIKE 'staykit\\_%' AND $1::int = 1`;

/** How many named statements the server holds for the one connection of `db` (this query's own included). */
async function namesOnServer(db: Database): Promise<number> {
  return db.transaction(async (tx) => (await tx.query<{ names: number }>(NAMES_ON_SERVER, [1])).rows[0]!.names);
}

describe('named statements on PostgreSQL [postgres]', { skip: !BACKENDS.includes('postgres') }, () => {
  let testDb: TestDatabase;
  /** One connection, so every statement meets the names the earlier ones left. */
  let db: Database;

  before(async () => {
    testDb = await createTestDatabase('postgres', { migrated: false });
    db = await openPostgres({ connectionString: testDb.url!, maxConnections: 1, preparedStatements: 4 });
    await db.exec(`CREATE TABLE rooms (id int PRIMARY KEY, name text NOT NULL)`);
    await db.exec(`INSERT INTO rooms VALUES (1, 'Dune'), (2, 'Meadow')`);
  });
  after(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('a statement sent again on the connection is bound to its name instead of being parsed again', async () => {
    const read = (id: number) => db.transaction(async (tx) => (await tx.query<{ name: string }>('SELECT name FROM rooms WHERE id = $1', [id])).rows[0]!.name);
    assert.equal(await read(1), 'Dune');
    const before = db.preparedStatementStats!();
    assert.equal(await read(2), 'Meadow');
    assert.equal(await read(1), 'Dune');
    const stats = db.preparedStatementStats!();
    assert.equal(stats.parses - before.parses, 0);
    // BEGIN (sent with the statement) and the statement, twice.
    assert.equal(stats.hits - before.hits, 4);
  });

  it('each execution is planned for its values, as an unnamed statement would be (no generic plan)', async () => {
    const setting = `SELECT current_setting('plan_cache_mode') AS mode WHERE $1::int = 1`;
    assert.equal((await db.transaction((tx) => tx.query<{ mode: string }>(setting, [1]))).rows[0]!.mode, 'force_custom_plan');
    const unnamed = await openPostgres({ connectionString: testDb.url!, maxConnections: 1, preparedStatements: 0 });
    try {
      assert.equal((await unnamed.transaction((tx) => tx.query<{ mode: string }>(setting, [1]))).rows[0]!.mode, 'auto');
    } finally {
      await unnamed.close();
    }
  });

  it('a table whose columns change under a prepared statement answers with the new columns, not an error', async () => {
    const select = (tx: Parameters<Parameters<Database['transaction']>[0]>[0]) => tx.query('SELECT * FROM rooms WHERE id = $1', [1]);
    assert.deepEqual((await db.transaction(select)).rows, [{ id: 1, name: 'Dune' }]);
    await db.exec(`ALTER TABLE rooms ADD COLUMN beds int NOT NULL DEFAULT 2`);
    // First round trip of a transaction: PostgreSQL's "cached plan must not change result type" is answered by
    // running the round trip again with the statement parsed afresh.
    assert.deepEqual((await db.transaction(select)).rows, [{ id: 1, name: 'Dune', beds: 2 }]);
    await db.exec(`ALTER TABLE rooms DROP COLUMN beds`);
    assert.deepEqual((await db.transaction(async (tx) => tx.queryAndCommit('SELECT * FROM rooms WHERE id = $1', [1]))).rows, [{ id: 1, name: 'Dune' }]);
  });

  it('later in a transaction the change fails that statement once; the next transaction parses it again', async () => {
    const select = 'SELECT * FROM rooms WHERE id = $1 AND $2::int = 2';
    await db.transaction((tx) => tx.query(select, [1, 2]));
    await db.exec(`ALTER TABLE rooms ADD COLUMN floor int NOT NULL DEFAULT 0`);
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('SELECT 1 WHERE $1::int = 1', [1]);
        return tx.query(select, [1, 2]);
      }),
      { code: '0A000' },
    );
    assert.deepEqual((await db.transaction((tx) => tx.query(select, [1, 2]))).rows, [{ id: 1, name: 'Dune', floor: 0 }]);
    await db.exec(`ALTER TABLE rooms DROP COLUMN floor`);
  });

  it('a statement that failed leaves no name behind: sent again, it fails or runs as it would the first time', async () => {
    await assert.rejects(db.transaction((tx) => tx.query('SELECT nope FROM rooms WHERE id = $1', [1])), { code: '42703' });
    await assert.rejects(db.transaction((tx) => tx.query('SELECT nope FROM rooms WHERE id = $1', [1])), { code: '42703' });
    const insert = 'INSERT INTO rooms (id, name) VALUES ($1, $2)';
    await assert.rejects(db.transaction((tx) => tx.query(insert, [1, 'Again'])), { code: '23505' });
    await db.transaction((tx) => tx.query(insert, [3, 'Harbour']));
    // The statements after a failed one in the same round trip were skipped: not parsed, and not taken as such.
    await assert.rejects(
      db.transaction(async (tx) => {
        tx.defer('SELECT 1 / $1::int', [0]);
        return tx.query('SELECT name FROM rooms WHERE id = $1 AND $2::int = 3', [3, 3]);
      }),
      { code: '22012' },
    );
    const rows = (await db.transaction((tx) => tx.query('SELECT name FROM rooms WHERE id = $1 AND $2::int = 3', [3, 3]))).rows;
    assert.deepEqual(rows, [{ name: 'Harbour' }]);
  });

  it('the connection never holds more names than the cache keeps (least recently used closed first)', async () => {
    for (let n = 0; n < 12; n += 1) {
      const value = await db.transaction(async (tx) => (await tx.query<{ n: number }>(`SELECT $1::int + ${n} AS n`, [1])).rows[0]!.n);
      assert.equal(value, n + 1);
    }
    // A name pushed out is closed with the next round trip, so the first count may still see the one its own
    // statement pushed out; the second sees what the server holds once that close went.
    await namesOnServer(db);
    assert.equal(await namesOnServer(db), 4);
  });
});

describe('named statements behind PgBouncer in transaction mode [postgres]', {
  skip: !BACKENDS.includes('postgres') ? 'needs PostgreSQL' : pgbouncerAvailable() ? false : 'PgBouncer is not installed',
}, () => {
  let testDb: TestDatabase;
  let bouncer: PgBouncer;
  let pooled: Database;

  before(async () => {
    testDb = await createTestDatabase('postgres', { migrated: false });
    bouncer = await startPgBouncer(testDb.url!, 2);
    pooled = await openPostgres({ connectionString: bouncer.url, maxConnections: 6, pooled: true });
  });
  after(async () => {
    await pooled?.close();
    await testDb?.drop();
    // The PgBouncer child is unref'd: something must keep this process's event loop alive while it exits.
    const alive = setInterval(() => undefined, 1000);
    await bouncer?.stop();
    clearInterval(alive);
  });

  it('are off: every transaction runs on whichever server session PgBouncer picks', async () => {
    const rounds = await Promise.all(Array.from({ length: 30 }, (_, n) =>
      pooled.transaction(async (tx) => (await tx.query<{ n: number }>('SELECT $1::int AS n', [n])).rows[0]!.n)));
    assert.deepEqual(rounds, Array.from({ length: 30 }, (_, n) => n));
    assert.deepEqual(pooled.preparedStatementStats!(), { hits: 0, parses: 0, closed: 0 });
  });
});
