/**
 * Public traffic (publishable keys: the widget's anonymous visitors) has a budget of its own within its
 * organization's concurrency cap, so a burst of visitors cannot take the slots the organization's staff and
 * integrations need: public requests get a share of the slots and of the queue, the organization's own requests may
 * use every slot the public leaves, and a freed slot goes to the organization's waiters first.
 *
 * Through the app, the public requests are bookings of dates that another connection has blocked in a transaction it
 * keeps open: each waits on the exclusion constraint of calendar_events, holding its slot, for as long as the test
 * wants (PostgreSQL only: the blocking transaction needs a second connection).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { bearer } from '../support/app.js';
import { waitFor } from '../webhooks/support.js';
import { NOW, startBookingApp } from '../booking/support.js';
import { publishableKeyFor, widgetOrganization, type WidgetOrganization } from '../widget/support.js';
import { TenantConcurrency } from '../../src/limits/tenant-concurrency.js';
import { ApiError } from '../../src/errors/api-error.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/types.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function sk430(details: RegExp) {
  return (error: unknown): true => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'SK430');
    assert.match(String(error.details), details);
    return true;
  };
}

describe('TenantConcurrency: public traffic', () => {
  it('takes its share of the slots and the queue; the organization takes the rest and is served first', async () => {
    const limiter = new TenantConcurrency({ maxActive: 4, maxQueued: 4, maxWaitMs: 60_000, publicShare: 50 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const run = (name: string, traffic: 'organization' | 'public') => {
      const gate = deferred();
      gates.set(name, gate);
      return limiter.run('org', async () => {
        started.push(name);
        await gate.promise;
        return name;
      }, traffic);
    };
    const settle = () => new Promise((resolve) => setImmediate(resolve));

    const publicRunning = [run('p1', 'public'), run('p2', 'public')];
    const publicQueued = [run('p3', 'public'), run('p4', 'public')];
    await assert.rejects(run('p5', 'public'), sk430(/^2 requests .* and 2 are waiting$/));
    const staff = [run('s1', 'organization'), run('s2', 'organization')];
    await settle();
    assert.deepEqual(started, ['p1', 'p2', 's1', 's2'], 'the public runs 2 of the 4 slots, the organization the other 2');

    const staffQueued = run('s3', 'organization');
    gates.get('p1')!.resolve();
    assert.equal(await publicRunning[0], 'p1');
    await settle();
    assert.deepEqual(started.slice(4), ['s3'], "the freed public slot went to the organization's waiter, not the public's");

    gates.get('s1')!.resolve();
    assert.equal(await staff[0], 's1');
    await settle();
    assert.deepEqual(started.slice(5), ['p3'], 'a freed slot goes to the public when the public is under its share');

    for (const name of ['p2', 'p3', 's2', 's3']) gates.get(name)!.resolve();
    await settle();
    assert.deepEqual(started.slice(6), ['p4']);
    gates.get('p4')!.resolve();
    assert.deepEqual(await Promise.all([...publicRunning, ...publicQueued, ...staff, staffQueued]), ['p1', 'p2', 'p3', 'p4', 's1', 's2', 's3']);
  });

  it('leaves the public at least one slot, and the whole cap at a share of 100', async () => {
    const small = new TenantConcurrency({ maxActive: 1, maxQueued: 0, maxWaitMs: 1, publicShare: 10 });
    assert.equal(await small.run('org', async () => 'one', 'public'), 'one');
    const shared = new TenantConcurrency({ maxActive: 2, maxQueued: 0, maxWaitMs: 1, publicShare: 100 });
    const gate = deferred();
    const both = [shared.run('org', () => gate.promise, 'public'), shared.run('org', () => gate.promise, 'public')];
    await assert.rejects(shared.run('org', async () => 'x', 'organization'), sk430(/^2 requests .* and 0 are waiting$/));
    gate.resolve();
    await Promise.all(both);
  });

  it('refuses a share that is not a whole percentage from 1 to 100', () => {
    for (const publicShare of [0, 101, 12.5]) {
      assert.throws(() => new TenantConcurrency({ maxActive: 4, maxQueued: 4, maxWaitMs: 1, publicShare }), {
        name: 'RangeError', message: new RegExp(`publicShare .* got ${publicShare}`),
      });
    }
  });
});

describe('a burst of widget visitors leaves the organization its slots [postgres]', { skip: !BACKENDS.includes('postgres') }, () => {
  let testDb: TestDatabase;
  let blocker: pg.Client;
  let app: FastifyInstance;
  let org: WidgetOrganization;
  let pk: string;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    blocker = new pg.Client({ connectionString: testDb.url });
    await blocker.connect();
    // 4 slots, 8 waiting: the public may run 2 and queue 4. Waits and statements long enough never to end within the test.
    const config = {
      ...loadConfig({}), tenantConcurrency: 4, tenantQueue: 8, tenantQueueTimeoutSeconds: 120, tenantPublicShare: 50, statementTimeoutSeconds: 120,
    };
    app = await startBookingApp(testDb.db, () => NOW, { config });
    org = await widgetOrganization(testDb.db, 'Busy Widget');
    pk = await publishableKeyFor(app, org.secretKey, org.widget);
  });
  after(async () => {
    await app?.close();
    await blocker?.end();
    await testDb?.drop();
  });

  /** Statements of this database waiting for a lock: requests holding a slot and a connection while they wait. */
  async function lockWaiters(db: Database): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    return rows[0]!.n;
  }

  it('public requests hold every public slot and queue place; a secret-key request is served at once, the next public one refused', async () => {
    await blocker.query('BEGIN');
    try {
      // Uncommitted, so the bookings' availability check passes and their insert waits on the exclusion constraint. Raw: on a
      // node-postgres client of its own, outside the Database interface fixtures() takes.
      await blocker.query(
        `INSERT INTO api.calendar_events (organization_id, product_id, type, status, start_date, end_date)
         VALUES ($1, $2, 'blocked period', 'CONFIRMED', '2027-04-05', '2027-04-08')`,
        [org.id, org.listed],
      );
      const book = () => app.inject({
        method: 'POST', url: '/v1/book', headers: bearer(pk),
        payload: {
          product_id: org.listed, interval: { start: '2027-04-05', end: '2027-04-08' }, occupancy: { [org.adults]: 2 },
          contact: { first_name: 'Vera', last_name: 'Visitor' }, form_values: { [org.email]: 'visitor@example.com' },
        },
      });
      const answered: LightMyRequestResponse[] = [];
      // 2 run (and wait on the lock), 4 wait for a public slot, 2 are refused at once.
      const visitors = Array.from({ length: 8 }, () => book().then((response) => void answered.push(response)));
      await waitFor(async () => (await lockWaiters(testDb.db)) >= 2, 20_000, 'two bookings to wait on the blocked dates');
      await waitFor(() => answered.length >= 2, 20_000, 'the bookings beyond the public budget to be refused');
      assert.deepEqual(answered.map((response) => [response.statusCode, response.json<{ code: string }>().code]), [[429, 'SK430'], [429, 'SK430']]);
      assert.equal(await lockWaiters(testDb.db), 2, 'the public ran 2 requests at once, not the 4 of the whole cap');

      // Staff close the calendar of the other unit, and read: both at once, in the slots the public may not take.
      const closed = await app.inject({
        method: 'POST', url: '/v1/calendar_events', headers: bearer(org.secretKey),
        payload: { product_id: org.otherListed, type: 'blocked period', status: 'CONFIRMED', start_date: '2027-04-05', end_date: '2027-04-08' },
      });
      assert.equal(closed.statusCode, 201, closed.body);
      const read = await app.inject({ method: 'GET', url: '/v1/products?select=id', headers: bearer(org.secretKey) });
      assert.equal(read.statusCode, 200, read.body);

      const refused = await book();
      assert.equal(refused.statusCode, 429, refused.body);
      const { code, details } = refused.json<{ code: string; details: string }>();
      assert.deepEqual([code, details], ['SK430', '2 requests of this organization are running on this server and 4 are waiting']);
      assert.equal(answered.length, 2, 'the queued visitors are still waiting');

      await blocker.query('ROLLBACK');
      await Promise.all(visitors);
      // One visitor gets the dates; the others find them taken.
      assert.deepEqual(answered.map((response) => response.statusCode).sort(), [201, 409, 409, 409, 409, 409, 429, 429]);
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
    }
  });
});
