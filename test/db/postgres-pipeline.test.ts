/**
 * The pipeline on node-postgres internals (src/db/postgres-pipeline.ts), over the wire to PostgreSQL: the statements
 * of one round trip come back each with its own result, in order; a failed statement fails the round trip with its
 * error and index, none after it runs, and the connection answers the next one; parameters of many types bind as
 * `client.query` binds them; and the pool's transactions, whose BEGIN, deferred statements, settings and COMMIT ride
 * with the caller's statements, keep that order, commit and roll back. Each with named statements (the pool's
 * default) and unnamed ones (behind a pooler). `pg` is pinned because of these internals: a new range must pass here.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { ColumnBytesClient } from '../../src/db/column-bytes.js';
import { openPostgres } from '../../src/db/postgres.js';
import { failedStatementOf, runPipeline, statementCaches, type PipelineStatement } from '../../src/db/postgres-pipeline.js';
import { postgresTypes } from '../../src/db/postgres-type-parsers.js';
import { PreparedStatementCache, emptyPreparedStatementStats } from '../../src/db/prepared-statements.js';
import type { Database } from '../../src/db/types.js';

const skip = BACKENDS.includes('postgres') ? false : 'PostgreSQL is not reachable (set TEST_DATABASE_URL or start it on 127.0.0.1:5432)';

const MODES = [
  { name: 'named statements', preparedStatements: 16 },
  { name: 'unnamed statements', preparedStatements: 0 },
] as const;

/** A result as the callers read it. */
const outcome = (result: pg.QueryResult) => ({ rows: result.rows, rowCount: result.rowCount });

const countItems = `SELECT count(*)::int AS n FROM pipeline_items WHERE $1::int = 1`;

describe('the pipeline over the wire [postgres]', { skip }, () => {
  let testDb: TestDatabase;

  before(async () => {
    testDb = await createTestDatabase('postgres', { migrated: false });
    const db = await openPostgres({ connectionString: testDb.url!, maxConnections: 1 });
    await db.exec(`CREATE TABLE pipeline_items (v int NOT NULL)`);
    await db.close();
  });
  after(async () => {
    await testDb?.drop();
  });

  for (const mode of MODES) {
    describe(`a connection with ${mode.name}`, () => {
      /** A connection as the pool makes them: the pool's client class, parsers and time zone. */
      let client: pg.Client;

      before(async () => {
        client = new ColumnBytesClient({ connectionString: testDb.url!, types: postgresTypes, options: '-c TimeZone=UTC' });
        await client.connect();
        if (mode.preparedStatements > 0) {
          statementCaches.set(client, new PreparedStatementCache(mode.preparedStatements, emptyPreparedStatementStats()));
        }
      });
      after(async () => {
        await client?.end();
      });

      /** Sent twice: with named statements, the second time binds the names the first one parsed. */
      async function twice(statements: PipelineStatement[], check: (results: pg.QueryResult[]) => void): Promise<void> {
        for (let round = 0; round < 2; round += 1) check(await runPipeline(client, statements));
      }

      it('answers each statement of a round trip with its own result, in the statements\' order', async () => {
        await twice([
          { text: 'SELECT $1::int AS n', values: [1] },
          { text: 'SELECT g FROM generate_series(1, $1::int) AS g', values: [3] },
          { text: 'SELECT $1::text AS unwanted', values: ['skipped'], discard: true },
          { text: 'SELECT $1::text AS word WHERE false', values: ['none'] },
          { text: 'INSERT INTO pipeline_items (v) VALUES ($1), ($2)', values: [10, 20] },
          { text: 'WITH gone AS (DELETE FROM pipeline_items RETURNING v) SELECT sum(v)::int AS total FROM gone', values: [] },
        ], (results) => assert.deepEqual(results.map(outcome), [
          { rows: [{ n: 1 }], rowCount: 1 },
          { rows: [{ g: 1 }, { g: 2 }, { g: 3 }], rowCount: 3 },
          { rows: [], rowCount: 0 },
          { rows: [], rowCount: 0 },
          { rows: [], rowCount: 2 },
          // The DELETE saw the INSERT before it: the server ran them in order.
          { rows: [{ total: 30 }], rowCount: 1 },
        ]));
      });

      it('sends the statements up to one Sync: outside BEGIN they share one implicit transaction', async () => {
        const [, seen] = await runPipeline(client, [
          { text: `SELECT set_config('staykit.pipeline_test', $1, true)`, values: ['same trip'] },
          { text: `SELECT current_setting('staykit.pipeline_test', true) AS v`, values: [] },
        ]);
        assert.deepEqual(seen!.rows, [{ v: 'same trip' }]);
        const [later] = await runPipeline(client, [{ text: `SELECT current_setting('staykit.pipeline_test', true) AS v`, values: [] }]);
        assert.notEqual(later!.rows[0].v, 'same trip', 'the setting ended with its round trip');
      });

      it('fails a round trip with the first error and its index; none after it runs, the ones before are undone', async () => {
        for (const [failing, index] of [[{ text: 'SELECT 1 / $1::int', values: [0] }, 1], [{ text: 'SELEC $1', values: [0] }, 1]] as const) {
          const statements: PipelineStatement[] = [
            { text: 'INSERT INTO pipeline_items (v) VALUES ($1)', values: [1] },
            failing,
            { text: 'INSERT INTO pipeline_items (v) VALUES ($1)', values: [2] },
          ];
          for (let round = 0; round < 2; round += 1) {
            const error = await runPipeline(client, statements).then(() => undefined, (rejection: unknown) => rejection);
            assert.ok(error instanceof Error, `${failing.text} rejects`);
            assert.match((error as Error & { code?: string }).code ?? '', /^(22012|42601)$/);
            assert.equal(failedStatementOf(error), index);
          }
          // The connection answers the next round trip, and nothing of the failed ones was kept.
          assert.deepEqual((await runPipeline(client, [{ text: countItems, values: [1] }]))[0]!.rows, [{ n: 0 }]);
        }
        const first = await runPipeline(client, [{ text: 'SELECT $1::int / 0 AS n', values: [1] }, { text: 'SELECT 2', values: [] }]).catch((error: unknown) => error);
        assert.equal(failedStatementOf(first), 0);
      });

      it('fails a round trip with a value that cannot be bound before sending anything; the connection stays usable', async () => {
        const circular: Record<string, unknown> = {};
        circular.self = circular;
        const error = await runPipeline(client, [
          { text: 'INSERT INTO pipeline_items (v) VALUES ($1)', values: [3] },
          { text: 'SELECT $1::jsonb AS doc', values: [circular] },
        ]).then(() => undefined, (rejection: unknown) => rejection);
        assert.ok(error instanceof TypeError, 'JSON.stringify of a circular value');
        assert.equal(failedStatementOf(error), 1);
        assert.deepEqual((await runPipeline(client, [{ text: countItems, values: [1] }]))[0]!.rows, [{ n: 0 }]);
      });

      it('binds parameters of many types as client.query does, and reads them back with the pool\'s parsers', async () => {
        const text = `SELECT $1::int AS i, $2::float8 AS f, $3::numeric AS num, $4::int8 AS big, $5::bool AS yes,
          $6::text AS words, $7::text AS nothing, $8::bytea AS raw, $9::int[] AS ints, $10::text[] AS texts,
          $11::jsonb AS doc, $12::date AS day, $13::timestamptz AS at, $14::interval AS span`;
        const values = [
          -7, 2.5, '12345678901234567890.5', Number.MAX_SAFE_INTEGER, true,
          `Zoë's "room" — 東京 😀 \\ ,{}`, null, Buffer.from([0, 1, 254, 255]), [1, 2, 3], ['a,b', '"q"', null, ''],
          { nested: { list: [1, 'two', null] }, flag: false }, '2024-02-29', new Date('2024-02-29T12:34:56.789Z'), '1 day 02:00:00',
        ];
        const expected = {
          i: -7, f: 2.5, num: '12345678901234567890.5', big: Number.MAX_SAFE_INTEGER, yes: true,
          words: `Zoë's "room" — 東京 😀 \\ ,{}`, nothing: null, raw: Buffer.from([0, 1, 254, 255]), ints: [1, 2, 3], texts: ['a,b', '"q"', null, ''],
          doc: { nested: { list: [1, 'two', null] }, flag: false }, day: '2024-02-29', at: '2024-02-29 12:34:56.789+00', span: '1 day 02:00:00',
        };
        await twice([{ text, values }, { text: 'SELECT $1::text AS after', values: ['next'] }], (results) => {
          assert.deepEqual(results[0]!.rows, [expected]);
          assert.deepEqual(results[1]!.rows, [{ after: 'next' }]);
        });
        assert.deepEqual((await client.query(text, values)).rows, [expected]);
      });
    });

    describe(`the pool's transactions with ${mode.name}`, () => {
      let db: Database;

      before(async () => {
        db = await openPostgres({ connectionString: testDb.url!, maxConnections: 2, preparedStatements: mode.preparedStatements });
      });
      after(async () => {
        await db?.exec('DELETE FROM pipeline_items');
        await db?.close();
      });

      it('runs deferred statements in order before the statement, and commits with it', async () => {
        const { rows } = await db.transaction(async (tx) => {
          tx.defer('INSERT INTO pipeline_items (v) VALUES ($1)', [1]);
          tx.defer('UPDATE pipeline_items SET v = v * $1', [10]);
          tx.defer('UPDATE pipeline_items SET v = v + $1', [1]);
          return tx.queryAndCommit<{ v: number }>('SELECT v FROM pipeline_items WHERE v > $1', [0]);
        });
        assert.deepEqual(rows, [{ v: 11 }]);
        const committed = await db.transaction((tx) => tx.query<{ v: number }>('SELECT v FROM pipeline_items WHERE v > $1', [0]));
        assert.deepEqual(committed.rows, [{ v: 11 }]);
        await db.exec('DELETE FROM pipeline_items');
      });

      it('rolls back what a pipelined round trip wrote when the transaction fails after it', async () => {
        await assert.rejects(db.transaction(async (tx) => {
          tx.defer('INSERT INTO pipeline_items (v) VALUES ($1)', [5]);
          const { rows } = await tx.query<{ v: number }>('SELECT v FROM pipeline_items WHERE v = $1', [5]);
          assert.deepEqual(rows, [{ v: 5 }]);
          throw new Error('undo');
        }), /undo/);
        const { rows } = await db.transaction((tx) => tx.query(countItems, [1]));
        assert.deepEqual(rows, [{ n: 0 }]);
      });

      it('makes a failed deferred statement the transaction\'s failure; its statement does not run', async () => {
        await assert.rejects(db.transaction(async (tx) => {
          tx.defer('INSERT INTO pipeline_items (v) VALUES ($1)', ['not a number']);
          await assert.rejects(tx.query('INSERT INTO pipeline_items (v) VALUES ($1) RETURNING v', [6]), { code: '22P02' });
          assert.equal((tx.failure() as { code?: string }).code, '22P02');
          throw tx.failure();
        }), { code: '22P02' });
        const { rows } = await db.transaction((tx) => tx.query(countItems, [1]));
        assert.deepEqual(rows, [{ n: 0 }]);
      });
    });
  }

  describe('the pool behind a pooler (settings sent with each BEGIN)', () => {
    let db: Database;

    before(async () => {
      db = await openPostgres({ connectionString: testDb.url!, maxConnections: 1, pooled: true, statementTimeoutMs: 4321 });
    });
    after(async () => {
      await db?.close();
    });

    it('answers Database.query with its statement\'s result, after BEGIN and the settings of its round trip', async () => {
      const { rows } = await db.query(
        `SELECT current_setting('TimeZone') AS tz, current_setting('statement_timeout') AS timeout, $1::int AS n`, [7]);
      assert.deepEqual(rows, [{ tz: 'UTC', timeout: '4321ms', n: 7 }]);
    });
  });
});
