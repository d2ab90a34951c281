/**
 * Read replicas (PostgreSQL only): a primary and a streaming replica of it, made by the test (support/replica.ts),
 * behind the app as `staykit serve` routes them with DATABASE_READ_URL. Resource reads go to the replica (seen on the
 * replica's pg_stat_activity and in the metrics); a key that just wrote reads its write from the primary, even while
 * the replica has stopped replaying; writes and the booking path never touch the replica; and a stopped replica
 * costs no request an error. Skipped with a message when PostgreSQL 15's binaries are missing, unless
 * STAYKIT_TEST_REQUIRE_REPLICA=1 (CI), which makes that a failure.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { BACKENDS } from '../support/databases.js';
import { bearer, createKey, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { openPostgres } from '../../src/db/postgres.js';
import { migrate } from '../../src/db/migrate.js';
import { routeReads, type RoutedDatabase } from '../../src/db/replicas.js';
import type { Database } from '../../src/db/types.js';
import { startServerProcess } from '../support/server-process.js';
import { replicaBinariesAvailable, startReplicatedServers, type ReplicatedServers } from './support/replica.js';

const required = process.env.STAYKIT_TEST_REQUIRE_REPLICA === '1';
const missing = !BACKENDS.includes('postgres')
  ? 'needs PostgreSQL'
  : replicaBinariesAvailable() ? undefined : 'PostgreSQL 15 binaries (initdb, pg_ctl, pg_basebackup) are missing';
if (missing && required) throw new Error(`STAYKIT_TEST_REQUIRE_REPLICA=1, but ${missing}`);
if (missing) console.log(`# read replica tests skipped: ${missing} (set STAYKIT_TEST_REQUIRE_REPLICA=1 to make this an error)`);

describe('read replicas [postgres]', { skip: missing ?? false }, () => {
  let servers: ReplicatedServers;
  let primary: Database;
  let replica: Database;
  let routed: RoutedDatabase;
  let app: FastifyInstance;
  let reader: TestOrganization;
  let writer: TestOrganization;

  const get = (key: string, url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { ...bearer(key), ...headers } });
  const replicaReads = () => routed.counts.replica[0]!;

  /** Waits until the replica has replayed everything the primary has written so far. */
  const caughtUp = async () => {
    const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    for (let attempt = 0; ; attempt += 1) {
      const replayed = await replica.query<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [rows[0]!.lsn]);
      if (replayed.rows[0]!.done) return;
      assert.ok(attempt < 600, 'the replica did not catch up');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  before(async () => {
    servers = await startReplicatedServers();
    primary = await openPostgres({ connectionString: servers.primaryUrl, maxConnections: 5 });
    await migrate(primary);
    replica = await openPostgres({ connectionString: servers.replicaUrl, maxConnections: 5, connectionTimeoutMs: 1_000 });
    routed = routeReads(primary, [replica]);
    app = await startApp(routed);
    reader = await createOrganization(primary, 'Reader');
    writer = await createOrganization(primary, 'Writer');
    await caughtUp();
  });

  after(async () => {
    await app?.close();
    await routed?.close();
    await servers?.stop();
  });

  it('answers resource reads and availability from the replica', async () => {
    const before = replicaReads();
    const products = await get(reader.key, '/v1/products?select=id');
    assert.equal(products.statusCode, 200, products.body);
    const availability = await get(reader.key, '/v1/availability?start=2027-06-01&end=2027-06-10');
    assert.equal(availability.statusCode, 200, availability.body);
    assert.equal(replicaReads(), before + 2);

    // The replica's own view: the API role's session there ran the last statement.
    const { rows } = await replica.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND query LIKE '%staykit_api%'`);
    assert.ok(rows[0]!.n >= 1, 'no API session on the replica');
  });

  it('exports the replica as up, its lag and its reads as metrics', async () => {
    const metrics = (await app.inject({ url: '/metrics' })).body;
    assert.match(metrics, /^staykit_replica_up\{replica="0"\} 1$/m);
    assert.match(metrics, /^staykit_replica_lag_seconds\{replica="0"\} [\d.e+-]+$/m);
    assert.match(metrics, /^staykit_replica_lag_bytes\{replica="0"\} \d+$/m);
    assert.match(metrics, /^staykit_replica_transactions_total\{replica="0"\} [1-9]\d*$/m);
  });

  it('is what staykit serve does with DATABASE_READ_URL', async () => {
    const server = await startServerProcess({ DATABASE_URL: servers.primaryUrl, DATABASE_READ_URL: servers.replicaUrl });
    try {
      const response = await fetch(`${server.url}/v1/products?select=id`, { headers: bearer(reader.key) });
      assert.equal(response.status, 200, await response.text());
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      assert.match(metrics, /^staykit_replica_transactions_total\{replica="0"\} 1$/m, server.output());
    } finally {
      await server.stop();
    }
  });

  describe('while the replica has stopped replaying (it lags behind the primary)', () => {
    before(async () => {
      await caughtUp();
      await replica.query('SELECT pg_wal_replay_pause()');
    });
    after(async () => {
      await replica.query('SELECT pg_wal_replay_resume()');
    });

    it('a key that just wrote reads its write (from the primary); another key reads the replica', async () => {
      const created = await app.inject({
        method: 'POST', url: '/v1/coupons', headers: { ...bearer(writer.key), prefer: 'return=representation' },
        payload: { code: 'FRESH', definition: { type: 'percentage', value: 10 } },
      });
      assert.equal(created.statusCode, 201, created.body);
      const before = replicaReads();
      const readBack = await get(writer.key, '/v1/coupons?select=code');
      assert.deepEqual(readBack.json(), [{ code: 'FRESH' }]);
      assert.equal(replicaReads(), before, 'the read after the write went to the replica');

      // Proof that the replica is behind: the same read with another key of the organization, which wrote nothing,
      // goes to the replica and does not see the coupon yet.
      const otherKey = await createKey(primary, writer.id, ['read']);
      const stale = await get(otherKey, '/v1/coupons?select=code');
      assert.deepEqual(stale.json(), []);
      assert.equal(replicaReads(), before + 1);
    });

    it('reads from the primary when asked with Prefer: read-your-writes', async () => {
      const before = replicaReads();
      const response = await get(reader.key, '/v1/products?select=id', { prefer: 'read-your-writes' });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(replicaReads(), before);
    });

    it('books on the primary: the booking path never reads the replica', async () => {
      const product = await app.inject({
        method: 'POST', url: '/v1/create-product', headers: bearer(reader.key),
        payload: { name: 'Replica House', rent_period: 'nightly', timezone: 'UTC', interaction: 'book' },
      });
      assert.equal(product.statusCode, 201, product.body);
      const productId = (product.json() as { id: string }).id;
      const configuration = await app.inject({
        method: 'POST', url: '/v1/product_configurations', headers: bearer(reader.key),
        payload: { product_id: productId, intervals: '{[2027-01-01,2028-12-31)}', min_duration: 1, rates: [{ duration: 1, occupancy: 0, rate: 9000 }] },
      });
      assert.equal(configuration.statusCode, 201, configuration.body);
      const before = replicaReads();
      const stay = { product_id: productId, interval: { start: '2027-07-01', end: '2027-07-04' } };
      const quote = await app.inject({ method: 'POST', url: '/v1/quote', headers: bearer(reader.key), payload: stay });
      assert.equal(quote.statusCode, 200, quote.body);
      const booked = await app.inject({ method: 'POST', url: '/v1/book', headers: bearer(reader.key), payload: stay });
      assert.equal(booked.statusCode, 201, booked.body);
      assert.equal(replicaReads(), before);
    });
  });

  it('falls back to the primary without an error once the replica is stopped', async () => {
    await servers.stopReplica();
    const fallbacks = routed.counts.fallback;
    const idleKey = await createKey(primary, reader.id, ['read']); // the reader's key wrote moments ago
    for (let i = 0; i < 5; i += 1) {
      const response = await get(idleKey, '/v1/products?select=id');
      assert.equal(response.statusCode, 200, response.body);
    }
    assert.ok(routed.counts.fallback > fallbacks, 'no read was tried on the stopped replica');
    const metrics = (await app.inject({ url: '/metrics' })).body;
    assert.match(metrics, /^staykit_replica_up\{replica="0"\} 0$/m);
  });
});
