/**
 * The change feed under concurrent writers (PostgreSQL only: PGlite has one connection, so nothing commits out of
 * order there). A consumer paging while the writes happen sees every change exactly once, in commit order.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization, startApp, type TestOrganization } from '../support/app.js';
import type { Change } from '../../src/changes/feed.js';
import { drain, getChanges, settled } from './support.js';

const WRITERS = 8;
const TRANSACTIONS_PER_WRITER = 125;
const ROWS_PER_TRANSACTION = 10;
const TOTAL = WRITERS * TRANSACTIONS_PER_WRITER * ROWS_PER_TRANSACTION;

describe('change feed with concurrent writers [postgres]', { skip: BACKENDS.includes('postgres') ? false : 'PostgreSQL is not available' }, () => {
  let testDb: TestDatabase;
  let app: FastifyInstance;
  let org: TestOrganization;
  const clients: pg.Client[] = [];

  async function client(): Promise<pg.Client> {
    const connection = new pg.Client({ connectionString: testDb.url });
    await connection.connect();
    clients.push(connection);
    return connection;
  }

  before(async () => {
    testDb = await createTestDatabase('postgres');
    app = await startApp(testDb.db);
    org = await createOrganization(testDb.db, 'Busy');
  });
  after(async () => {
    await Promise.all(clients.map((connection) => connection.end()));
    await app?.close();
    await testDb?.drop();
  });

  it('a transaction that took its sequence number first but commits last is not skipped', async () => {
    const [first, second] = [await client(), await client()];
    const start = (await getChanges(app, org.key)).next;
    await first.query('BEGIN');
    await first.query('SELECT pg_current_xact_id()'); // the older transaction id
    await second.query('BEGIN');
    await second.query('SELECT pg_current_xact_id()');
    // Raw (also below): node-postgres clients of their own, each holding its transaction open, outside the Database interface fixtures() takes.
    await first.query(`INSERT INTO api.contacts (organization_id, first_name) VALUES ($1, 'early number, late commit')`, [org.id]);
    await second.query(`INSERT INTO api.contacts (organization_id, first_name) VALUES ($1, 'late number, early commit')`, [org.id]);
    await second.query('COMMIT');
    const whileOpen = await getChanges(app, org.key, { since: start });
    assert.deepEqual(whileOpen.changes, [], 'nothing after a transaction still running is handed out');
    await first.query('COMMIT');
    await settled(testDb.db);
    const page = await getChanges(app, org.key, { since: start });
    assert.deepEqual(page.changes.map((change) => change.data?.first_name), ['early number, late commit', 'late number, early commit']);
  });

  it(`${TOTAL.toLocaleString('en')} changes by ${WRITERS} concurrent writers are each seen once, in commit order, by a consumer paging meanwhile`, async () => {
    await settled(testDb.db);
    const start = (await drain(app, org.key, undefined, 1000)).next!;
    const writers = await Promise.all(Array.from({ length: WRITERS }, () => client()));
    let writing = true;
    const writes = Promise.all(writers.map(async (connection, writer) => {
      for (let transaction = 0; transaction < TRANSACTIONS_PER_WRITER; transaction++) {
        await connection.query(
          `INSERT INTO api.contacts (organization_id, first_name)
           SELECT $1, format('%s/%s/%s', $2::int, $3::int, i) FROM generate_series(0, $4::int - 1) AS i`,
          [org.id, writer, transaction, ROWS_PER_TRANSACTION],
        );
      }
    })).finally(() => { writing = false; });

    const seen: Change[] = [];
    let cursor = start;
    let pagesDuringWrites = 0;
    for (;;) {
      const page = await getChanges(app, org.key, { since: cursor, limit: '500' });
      seen.push(...page.changes);
      cursor = page.next;
      if (writing) pagesDuringWrites++;
      if (!writing && seen.length >= TOTAL) break;
      if (!writing && !page.has_more) await settled(testDb.db);
    }
    await writes;
    assert.ok(pagesDuringWrites > 1, 'the consumer paged while the writers wrote');

    assert.equal(seen.length, TOTAL);
    assert.equal(new Set(seen.map((change) => change.event_id)).size, TOTAL, 'no change twice');
    assert.equal(new Set(seen.map((change) => change.id)).size, TOTAL);
    // Each writer's transactions commit one after the other: the feed must list them in that order, and the rows
    // of one transaction in the order they were written.
    const lastByWriter = new Map<number, number>();
    for (const change of seen) {
      const [writer, transaction, row] = String(change.data?.first_name).split('/').map(Number) as [number, number, number];
      const position = transaction * ROWS_PER_TRANSACTION + row;
      assert.ok(position > (lastByWriter.get(writer) ?? -1), `writer ${writer}: ${transaction}/${row} out of order`);
      lastByWriter.set(writer, position);
    }
    assert.equal(lastByWriter.size, WRITERS);

    await settled(testDb.db);
    assert.deepEqual((await getChanges(app, org.key, { since: cursor })).changes, [], 'nothing left behind the last cursor');
  });
});
