/**
 * `QueryOptions.reusePlan` (src/db/types.ts): on PostgreSQL with named statements, a statement given the option is
 * bound to one generic plan reused across executions on its connection, while every other statement — the ones
 * after it in the same transaction included — is still planned for its values. PostgreSQL's own counters per named
 * statement (`pg_prepared_statements.generic_plans`, `custom_plans`) say which plan each execution used. On PGlite
 * the option changes nothing but must not break the statement.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { openPostgres } from '../../src/db/postgres.js';
import type { Database, PipelinedTransaction } from '../../src/db/types.js';
import { availability, parseAvailabilityQuery } from '../../src/booking/availability.js';

interface PlanCounts {
  generic: number;
  custom: number;
}

const PLAN_COUNTS = `SELECT generic_plans::int AS generic, custom_plans::int AS custom
FROM pg_prepared_statements WHERE statement = $1`;

/** How often the named statement of `text` ran with a generic and with a custom plan on the connection. */
async function planCounts(tx: PipelinedTransaction, text: string): Promise<PlanCounts> {
  const { rows } = await tx.query<PlanCounts>(PLAN_COUNTS, [text]);
  assert.equal(rows.length, 1, `a named statement for ${text}`);
  return { ...rows[0]! };
}

const REUSED = 'SELECT name FROM rooms WHERE id = $1';
const PER_EXECUTION = 'SELECT name FROM rooms WHERE id = $1 AND $2::int = 2';
const PER_EXECUTION_ELSEWHERE = 'SELECT count(*)::int AS products FROM api.products WHERE $1::int = 1';

describe('a statement whose plan is reused [postgres]', { skip: !BACKENDS.includes('postgres') }, () => {
  let testDb: TestDatabase;
  /** One connection: every statement meets the named statements and counters the earlier ones left. */
  let db: Database;

  before(async () => {
    testDb = await createTestDatabase('postgres', { migrated: false });
    db = await openPostgres({ connectionString: testDb.url!, maxConnections: 1 });
    await db.exec(`CREATE TABLE rooms (id int PRIMARY KEY, name text NOT NULL)`);
    await db.exec(`INSERT INTO rooms VALUES (1, 'Dune'), (2, 'Meadow'), (3, 'Harbour')`);
  });
  after(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('runs with one generic plan across executions and transactions, with the right rows', async () => {
    const names: string[] = [];
    for (const id of [1, 2, 3, 1]) {
      names.push(await db.transaction(async (tx) => (await tx.query<{ name: string }>(REUSED, [id], { reusePlan: true })).rows[0]!.name));
    }
    // The last one commits in its own round trip, as an API read does.
    names.push(await db.transaction(async (tx) => (await tx.queryAndCommit<{ name: string }>(REUSED, [2], { reusePlan: true })).rows[0]!.name));
    assert.deepEqual(names, ['Dune', 'Meadow', 'Harbour', 'Dune', 'Meadow']);
    assert.deepEqual(await db.transaction((tx) => planCounts(tx, REUSED)), { generic: 5, custom: 0 });
  });

  it('leaves every other statement planned for its values, the next one in the same round trip included', async () => {
    const before = await db.transaction((tx) => planCounts(tx, REUSED));
    const { name, mode } = await db.transaction(async (tx) => {
      const reused = await tx.query<{ name: string }>(REUSED, [3], { reusePlan: true });
      const next = await tx.query<{ name: string }>(PER_EXECUTION, [reused.rows[0]!.name === 'Harbour' ? 1 : 0, 2]);
      const setting = await tx.query<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode WHERE $1::int = 1`, [1]);
      return { name: next.rows[0]!.name, mode: setting.rows[0]!.mode };
    });
    assert.equal(name, 'Dune');
    assert.equal(mode, 'force_custom_plan');
    for (let n = 0; n < 6; n += 1) await db.transaction((tx) => tx.query(PER_EXECUTION, [2, 2]));
    assert.deepEqual(await db.transaction((tx) => planCounts(tx, PER_EXECUTION)), { generic: 0, custom: 7 });
    assert.deepEqual(await db.transaction((tx) => planCounts(tx, REUSED)), { generic: before.generic + 1, custom: 0 });
  });

  it('hands a byte column over as bytes, with statements after it in the same transaction', async () => {
    const [reused, next] = await db.transaction(async (tx) => [
      (await tx.query<{ name: Buffer }>(REUSED, [2], { reusePlan: true, bytes: ['name'] })).rows[0]!.name,
      (await tx.query<{ name: string }>(PER_EXECUTION, [3, 2])).rows[0]!.name,
    ]);
    assert.deepEqual(reused, Buffer.from('Meadow'));
    assert.equal(next, 'Harbour');
  });

  it('does not leave generic plans behind when the statement fails and the transaction goes back to a savepoint', async () => {
    const dividing = 'SELECT name FROM rooms WHERE id = 3 / $1';
    const { name, mode } = await db.transaction(async (tx) => {
      await tx.query('SAVEPOINT before_read');
      await assert.rejects(tx.query(dividing, [0], { reusePlan: true }), { code: '22012' });
      await tx.query('ROLLBACK TO SAVEPOINT before_read');
      const read = await tx.query<{ name: string }>(dividing, [1], { reusePlan: true });
      const setting = await tx.query<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode WHERE $1::int = 1`, [1]);
      return { name: read.rows[0]!.name, mode: setting.rows[0]!.mode };
    });
    assert.equal(name, 'Harbour');
    assert.equal(mode, 'force_custom_plan');
    assert.deepEqual(await db.transaction((tx) => planCounts(tx, dividing)), { generic: 1, custom: 0 });
  });

  it('is not honoured without named statements, where a generic plan would be made for one execution', async () => {
    const unnamed = await openPostgres({ connectionString: testDb.url!, maxConnections: 1, preparedStatements: 0 });
    try {
      const mode = await unnamed.transaction(async (tx) => {
        const setting = `SELECT current_setting('plan_cache_mode') AS mode FROM rooms WHERE id = $1`;
        return (await tx.query<{ mode: string }>(setting, [1], { reusePlan: true })).rows[0]!.mode;
      });
      assert.equal(mode, 'auto');
    } finally {
      await unnamed.close();
    }
  });
});

describe('GET /v1/availability\'s statement [postgres]', { skip: !BACKENDS.includes('postgres') }, () => {
  let testDb: TestDatabase;
  let db: Database;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    db = await openPostgres({ connectionString: testDb.url!, maxConnections: 1 });
  });
  after(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it('reuses its plan, and the statements after it in the transaction are planned for their values', async () => {
    const now = new Date('2027-03-01T10:00:00Z');
    const query = parseAvailabilityQuery({ start: '2027-03-01', end: '2027-04-01' });
    let statement = '';
    db.onStatement = (text) => {
      if (text.startsWith('WITH unit AS')) statement = text;
    };
    for (let n = 0; n < 3; n += 1) {
      await db.transaction(async (tx) => {
        assert.deepEqual(await availability(tx, query, now), []);
        await tx.query(PER_EXECUTION_ELSEWHERE, [1]);
      });
    }
    db.onStatement = undefined;
    assert.deepEqual(await db.transaction((tx) => planCounts(tx, statement)), { generic: 3, custom: 0 });
    assert.deepEqual(await db.transaction((tx) => planCounts(tx, PER_EXECUTION_ELSEWHERE)), { generic: 0, custom: 3 });
  });
});

describe('a statement whose plan is reused [pglite]', { skip: !BACKENDS.includes('pglite') }, () => {
  let testDb: TestDatabase;

  before(async () => {
    testDb = await createTestDatabase('pglite', { migrated: false });
    await testDb.db.exec(`CREATE TABLE rooms (id int PRIMARY KEY, name text NOT NULL)`);
    await testDb.db.exec(`INSERT INTO rooms VALUES (1, 'Dune'), (2, 'Meadow')`);
  });
  after(async () => {
    await testDb?.drop();
  });

  it('runs as any other statement (each one is planned afresh there)', async () => {
    const names = await testDb.db.transaction(async (tx) => [
      (await tx.query<{ name: string }>(REUSED, [2], { reusePlan: true })).rows[0]!.name,
      (await tx.queryAndCommit<{ name: string }>(REUSED, [1], { reusePlan: true })).rows[0]!.name,
    ]);
    assert.deepEqual(names, ['Meadow', 'Dune']);
  });
});
