/**
 * The embedded database runs in a worker thread: the main thread's timers keep running during a long statement,
 * the statement timeout cancels a statement (57014), committed data survives the cancellation and the cancelled
 * transaction's writes do not, statements outside a transaction wait for it instead of running inside it, and
 * deferred statements and COMMIT travel with a transaction's statements as on PostgreSQL.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPGlite } from '../../src/db/pglite.js';
import type { Database, Transaction } from '../../src/db/types.js';

/** What a request's transaction does first (src/transaction/tenant-transaction.ts): a transaction-local timeout. */
const setTimeoutMs = (tx: Transaction, ms: number) => tx.query(`SELECT set_config('statement_timeout', $1, true)`, [String(ms)]);

const codeOf = (error: unknown) => (error as { code?: string }).code;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected the statement to fail');
}

describe('embedded database in a data folder [pglite]', () => {
  let dir: string;
  let db: Database;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'staykit-pglite-'));
    db = await openPGlite(join(dir, 'data'));
    await db.exec('CREATE TABLE notes (body text NOT NULL)');
    await db.query(`INSERT INTO notes VALUES ('committed before')`);
  });
  after(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps the main thread's timers running while a statement runs", async () => {
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    try {
      await db.query('SELECT pg_sleep(1)');
    } finally {
      clearInterval(ticker);
    }
    // In the main thread the one-second statement blocked every timer until it ended.
    assert.ok(ticks >= 5, `${ticks} timer ticks during the statement`);
  });

  it('cancels a statement past the statement timeout with 57014; committed data stays, the transaction is rolled back', async () => {
    let afterCancel: unknown;
    const error = await rejection(
      db.transaction(async (tx) => {
        await setTimeoutMs(tx, 300);
        await tx.query(`INSERT INTO notes VALUES ('in the cancelled transaction')`);
        try {
          await tx.query('SELECT pg_sleep(60)');
        } catch (cancelled) {
          afterCancel = await rejection(tx.query('SELECT 1'));
          throw cancelled;
        }
      }),
    );
    assert.equal(codeOf(error), '57014');
    assert.match((error as Error).message, /statement timeout/);
    assert.equal(codeOf(afterCancel), '25P02', 'the rest of the transaction is refused, as on PostgreSQL');

    const { rows } = await db.query<{ body: string }>('SELECT body FROM notes ORDER BY body');
    assert.deepEqual(rows.map((row) => row.body), ['committed before']);
    await db.query(`INSERT INTO notes VALUES ('committed after')`);
    const again = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notes');
    assert.equal(again.rows[0]!.n, 2);
  });

  it('applies the timeout to the transaction that set it only', async () => {
    await db.transaction(async (tx) => {
      await setTimeoutMs(tx, 300);
    });
    const { rows } = await db.query<{ slept: string }>(`SELECT pg_sleep(0.5)::text AS slept`);
    assert.equal(rows.length, 1);
  });

  it('fails only the statement with a value that cannot be sent to the thread; the transaction goes on', async () => {
    const error = await rejection(
      db.transaction(async (tx) => {
        const unsendable = await rejection(tx.query('SELECT $1::text', [Symbol('not a value')]));
        assert.match(String(unsendable), /cannot be sent to the database thread/);
        await tx.query(`INSERT INTO notes VALUES ('rolled back with the transaction')`);
        throw new Error('roll back');
      }),
    );
    assert.equal((error as Error).message, 'roll back');
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notes WHERE body = 'rolled back with the transaction'`);
    assert.equal(rows[0]!.n, 0);
  });

  it('runs a statement sent during a transaction after the transaction, not inside it', async () => {
    let outside: Promise<{ rows: { setting: string }[] }> | undefined;
    await db.transaction(async (tx) => {
      await tx.query(`SELECT set_config('staykit.probe', 'inside', true)`);
      outside = db.query<{ setting: string }>(`SELECT current_setting('staykit.probe', true) AS setting`);
      await tx.query('SELECT pg_sleep(0.1)');
    });
    const { rows } = await outside!;
    assert.notEqual(rows[0]!.setting, 'inside');
  });
});

describe('embedded database in memory [pglite]', () => {
  let db: Database;
  before(async () => {
    db = await openPGlite(undefined);
    await db.exec('CREATE TABLE notes (body text NOT NULL)');
    await db.query(`INSERT INTO notes VALUES ('committed before')`);
    await db.exec(`CREATE TABLE parents (id int PRIMARY KEY);
      CREATE TABLE children (parent int REFERENCES parents DEFERRABLE INITIALLY DEFERRED)`);
  });
  after(() => db.close());

  it('sends deferred statements with the next one, and commits with the last one', async () => {
    const seen = await db.transaction(async (tx) => {
      tx.defer(`SELECT set_config('staykit.probe', $1, true)`, ['deferred']);
      const { rows } = await tx.queryAndCommit<{ v: string }>(`SELECT current_setting('staykit.probe') AS v`);
      await assert.rejects(tx.query('SELECT 1'), /already been committed/);
      return rows[0]!.v;
    });
    assert.equal(seen, 'deferred');
  });

  it("makes a deferred statement's error, and COMMIT's, the transaction's failure", async () => {
    let deferredFailure: unknown;
    await assert.rejects(
      db.transaction(async (tx) => {
          tx.defer('SELECT 1 / 0');
        await assert.rejects(tx.query('SELECT 1'), (error: { code?: string }) => error.code === '22012');
        deferredFailure = tx.failure();
        throw deferredFailure;
      }),
    );
    assert.equal(codeOf(deferredFailure), '22012');

    let commitFailure: unknown;
    await db.transaction(async (tx) => {
      // The deferred foreign key fails at COMMIT, not at the INSERT.
      await assert.rejects(tx.queryAndCommit('INSERT INTO children VALUES ($1)', [42]));
      commitFailure = tx.failure();
    });
    assert.equal(codeOf(commitFailure), '23503');
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM children');
    assert.equal(rows[0]!.n, 0);
  });

  it('answers a statement past the timeout with 57014 and keeps the database (the statement runs to its end)', async () => {
    const error = await rejection(
      db.transaction(async (tx) => {
        await setTimeoutMs(tx, 300);
        await tx.query(`INSERT INTO notes VALUES ('in the cancelled transaction')`);
        await tx.query('SELECT pg_sleep(2)');
      }),
    );
    assert.equal(codeOf(error), '57014');
    const { rows } = await db.query<{ body: string }>('SELECT body FROM notes ORDER BY body');
    assert.deepEqual(rows.map((row) => row.body), ['committed before']);
  });
});
