/**
 * The logs partitioned by month (migration 0160) and their maintenance (src/partitions), with a pinned clock:
 * partitions exist ahead of time, old ones are dropped after each table's retention (their rows gone, newer rows
 * kept and still readable through the API as before), rows of a month without a partition wait in the default
 * partition and move in when it is created, and a read by created_at only scans the months it asks for.
 */
import { before, after, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { LOG_RETENTION_DEFAULTS, type LogTable } from '../../src/config.js';
import { maintainLogPartitions, MONTHS_AHEAD, startPartitionMaintenance } from '../../src/partitions/maintenance.js';
import { silentLogger } from '../../src/observability/worker-logger.js';
import type { Queryable } from '../../src/db/types.js';

const LOGS = Object.keys(LOG_RETENTION_DEFAULTS) as LogTable[];
/** Every log kept for ever, so that one test's run drops nothing another test reads. */
const KEEP_ALL = Object.fromEntries(LOGS.map((table) => [table, 0])) as Record<LogTable, number>;

async function partitionMonths(db: Queryable, table: LogTable): Promise<string[]> {
  const { rows } = await db.query<{ month: string }>(
    `SELECT to_char(month, 'YYYY-MM') AS month FROM staykit_internal.log_partition_months($1) AS month`, [table]);
  return rows.map((row) => row.month);
}

async function logRequest(db: Queryable, organizationId: string, path: string, createdAt: string): Promise<void> {
  await fixtures(db, organizationId).row('api_requests', { path, created_at: createdAt });
}

forEachBackend('partitioned logs', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let other: TestOrganization;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Logs');
    other = await createOrganization(ctx.db, 'Other logs');
  });
  after(() => app.close());

  it('partitions every log by month, in a schema of its own, with a default partition', async () => {
    const { rows } = await ctx.db.query<{ name: string; kind: string; default_partition: string | null }>(
      `SELECT c.relname AS name, c.relkind::text AS kind,
              (SELECT d.relname FROM pg_inherits AS i JOIN pg_class AS d ON d.oid = i.inhrelid
               WHERE i.inhparent = c.oid AND pg_get_expr(d.relpartbound, d.oid) = 'DEFAULT') AS default_partition
       FROM pg_class AS c WHERE c.relnamespace = 'api'::regnamespace AND c.relname = ANY ($1) ORDER BY 1`, [LOGS]);
    assert.deepEqual(rows, [...LOGS].sort().map((name) => ({ name, kind: 'p', default_partition: `${name}_default` })));
    const months = await partitionMonths(ctx.db, 'api_requests');
    const now = new Date();
    assert.ok(months.includes(now.toISOString().slice(0, 7)), `current month missing from ${months.join(', ')}`);
  });

  it(`creates the partitions of the current month and ${MONTHS_AHEAD} more, once`, async () => {
    const changes = await maintainLogPartitions(ctx.db, new Date('2031-06-15T12:00:00Z'), LOG_RETENTION_DEFAULTS);
    const created = changes.filter((change) => change.table === 'booking_updates' && change.action === 'created');
    assert.deepEqual(created, ['2031-06-01', '2031-07-01', '2031-08-01', '2031-09-01']
      .map((month) => ({ table: 'booking_updates', month, action: 'created' })));
    assert.equal(changes.filter((change) => change.action === 'created').length, LOGS.length * (MONTHS_AHEAD + 1));
    assert.deepEqual(await maintainLogPartitions(ctx.db, new Date('2031-06-20T00:00:00Z'), LOG_RETENTION_DEFAULTS), []);
  });

  it('drops the partitions older than the retention, and keeps newer rows readable through the API', async () => {
    await maintainLogPartitions(ctx.db, new Date('2031-01-01T00:00:00Z'), KEEP_ALL);
    await logRequest(ctx.db, org.id, '/v1/january', '2031-01-10T08:00:00Z');
    await logRequest(ctx.db, org.id, '/v1/march', '2031-03-20T08:00:00Z');
    await logRequest(ctx.db, org.id, '/v1/may', '2031-05-20T08:00:00Z');
    await logRequest(ctx.db, other.id, '/v1/other', '2031-05-21T08:00:00Z');

    // Three months kept on 15 June: every partition that ends by 15 March goes (January, February).
    const changes = await maintainLogPartitions(ctx.db, new Date('2031-06-15T12:00:00Z'), { ...KEEP_ALL, api_requests: 3 });
    const dropped = changes.filter((change) => change.table === 'api_requests' && change.action === 'dropped').map((change) => change.month);
    assert.ok(dropped.includes('2031-01-01') && dropped.includes('2031-02-01'), dropped.join(', '));
    assert.ok(!dropped.includes('2031-03-01'), 'March has rows newer than the cutoff');
    const months = await partitionMonths(ctx.db, 'api_requests');
    assert.ok(!months.includes('2031-01') && months.includes('2031-03') && months.includes('2031-09'), months.join(', '));

    const response = await app.inject({ url: '/v1/api_requests?select=path&path=like./v1/*&order=created_at', headers: bearer(org.key) });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), [{ path: '/v1/march' }, { path: '/v1/may' }]);
  });

  it('keeps a row of a month without a partition in the default one, and moves it in when the month is created', async () => {
    await logRequest(ctx.db, org.id, '/v1/far-future', '2040-02-03T00:00:00Z');
    const where = async () => (await ctx.db.query<{ partition: string }>(
      `SELECT tableoid::regclass::text AS partition FROM api.api_requests WHERE path = '/v1/far-future'`)).rows[0]?.partition;
    assert.equal(await where(), 'staykit_partitions.api_requests_default');
    await maintainLogPartitions(ctx.db, new Date('2040-01-15T00:00:00Z'), KEEP_ALL);
    assert.equal(await where(), 'staykit_partitions.api_requests_p2040_02');
  });

  it('drops a month of webhook notifications even while a delivery of one is still queued', async () => {
    const f = fixtures(ctx.db, org.id);
    const webhook = await f.webhook();
    await maintainLogPartitions(ctx.db, new Date('2032-01-01T00:00:00Z'), KEEP_ALL);
    const notification = await f.row('webhook_notifications', { webhook_id: webhook, event_type: 'bookings.created', created_at: '2032-01-05T00:00:00Z' });
    const queued = async () => (await ctx.db.query(`SELECT 1 FROM staykit_internal.webhook_queue WHERE notification_id = $1`, [notification.id])).rows.length;
    assert.equal(await queued(), 1);
    const changes = await maintainLogPartitions(ctx.db, new Date('2032-06-01T00:00:00Z'), { ...KEEP_ALL, webhook_notifications: 3 });
    assert.ok(changes.some((change) => change.table === 'webhook_notifications' && change.month === '2032-01-01' && change.action === 'dropped'));
    assert.equal(await queued(), 0);
  });

  it('reads a range of created_at from the partitions of those months only', async () => {
    const { rows } = await ctx.db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT count(*) FROM api.api_requests
       WHERE organization_id = '${org.id}' AND created_at >= '2031-04-01T00:00:00Z' AND created_at < '2031-05-01T00:00:00Z'`);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    assert.match(plan, /Index Only Scan using api_requests_p2031_04_\w+ on api_requests_p2031_04/, plan);
    assert.doesNotMatch(plan, /api_requests_p2031_0[356789]|api_requests_default/, plan);
  });

  it('runs from the background loop with the clock it is given', async () => {
    const maintenance = startPartitionMaintenance(ctx.db, {
      retentionMonths: KEEP_ALL, logger: silentLogger, now: () => new Date('2036-03-10T00:00:00Z'),
    });
    try {
      for (let attempt = 0; !(await partitionMonths(ctx.db, 'message_events')).includes('2036-06'); attempt += 1) {
        assert.ok(attempt < 200, 'the maintenance did not run');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await maintenance.stop();
    }
  });
});
