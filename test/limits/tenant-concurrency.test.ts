/**
 * The per-organization cap on concurrent database work: one organization's slow requests cannot take every pooled
 * connection from the others (they get 429 SK430 beyond the cap and its queue), and background work (webhook
 * deliveries, the request log) has connections of its own that requests cannot take.
 *
 * The slow requests are PATCHes of a row the test holds locked: allowed requests that keep a connection busy for as
 * long as the test wants, without loading the (shared) machine the way a CPU-heavy query would.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { BACKENDS, createTestDatabase, forEachBackend, type TestDatabase } from '../support/databases.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { createContact, createWebhook, startReceiver, waitFor, type Receiver } from '../webhooks/support.js';
import { TenantConcurrency } from '../../src/limits/tenant-concurrency.js';
import { ApiError } from '../../src/errors/api-error.js';
import { buildApp } from '../../src/http/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/types.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function assertSk430(error: unknown): true {
  assert.ok(error instanceof ApiError);
  assert.equal(error.status, 429);
  assert.equal(error.code, 'SK430');
  assert.equal(error.headers['retry-after'], '1');
  return true;
}

describe('TenantConcurrency', () => {
  it('runs at most maxActive per organization, queues maxQueued in order, refuses the rest at once', async () => {
    const limiter = new TenantConcurrency({ maxActive: 2, maxQueued: 1, maxWaitMs: 60_000 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const run = (org: string, name: string) => {
      const gate = deferred();
      gates.set(name, gate);
      return limiter.run(org, async () => {
        started.push(name);
        await gate.promise;
        return name;
      });
    };
    const first = run('a', 'a1');
    const second = run('a', 'a2');
    const queued = run('a', 'a3');
    await assert.rejects(run('a', 'a4'), assertSk430);
    const other = run('b', 'b1');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, ['a1', 'a2', 'b1'], 'the third of a waits; b is not affected by a');
    gates.get('a1')!.resolve();
    assert.equal(await first, 'a1');
    await waitFor(() => started.includes('a3'), 5_000, 'the queued transaction to get the freed slot');
    for (const name of ['a2', 'a3', 'b1']) gates.get(name)!.resolve();
    assert.deepEqual(await Promise.all([second, queued, other]), ['a2', 'a3', 'b1']);
    // All slots are free again.
    const again = ['x', 'y'].map((name) => limiter.run('a', async () => name));
    assert.deepEqual(await Promise.all(again), ['x', 'y']);
  });

  it('refuses a queued transaction whose wait ends without a free slot, and frees its place in the queue', async () => {
    const limiter = new TenantConcurrency({ maxActive: 1, maxQueued: 1, maxWaitMs: 50 });
    const gate = deferred();
    const holder = limiter.run('a', () => gate.promise);
    await assert.rejects(limiter.run('a', async () => 'never'), assertSk430);
    // The timed-out waiter left the queue: the next one may wait again (and gets the slot).
    const next = limiter.run('a', async () => 'next');
    gate.resolve();
    await holder;
    assert.equal(await next, 'next');
  });

  it('a failing transaction gives its slot back', async () => {
    const limiter = new TenantConcurrency({ maxActive: 1, maxQueued: 0, maxWaitMs: 0 });
    await assert.rejects(limiter.run('a', async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await limiter.run('a', async () => 'ok'), 'ok');
  });
});

forEachBackend('tenant concurrency through the app', (ctx) => {
  let app: FastifyInstance;
  let a: TestOrganization;
  let b: TestOrganization;
  before(async () => {
    // One slot per organization: on PGlite's single connection a request waiting for a slot must not hold it.
    app = await buildApp({ db: ctx.db, config: { ...loadConfig({}), tenantConcurrency: 1, tenantQueue: 100 } });
    a = await createOrganization(ctx.db, 'Concurrent A');
    b = await createOrganization(ctx.db, 'Concurrent B');
  });
  after(() => app.close());

  it('many concurrent requests of two organizations all complete (no deadlock)', async () => {
    const requests = [...Array.from({ length: 20 }, () => a), ...Array.from({ length: 5 }, () => b)].map((org) =>
      app.inject({ method: 'GET', url: '/v1/contacts?select=id', headers: bearer(org.key) }),
    );
    const statuses = (await Promise.all(requests)).map((response) => response.statusCode);
    assert.deepEqual(new Set(statuses), new Set([200]), JSON.stringify(statuses));
  });
});

/** Server processes (as `staykit serve`) on PostgreSQL, and a connection that holds row locks for the test. */
describe('one organization cannot starve the others [postgres]', { skip: !BACKENDS.includes('postgres') }, () => {
  let testDb: TestDatabase;
  let locker: pg.Client;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    locker = new pg.Client({ connectionString: testDb.url });
    await locker.connect();
  });
  after(async () => {
    await locker?.end();
    await testDb?.drop();
  });

  /** Locks the rows until `release`: every request writing them waits (holding its connection). */
  async function lockRows(ids: string[]): Promise<{ release: () => Promise<void> }> {
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM api.contacts WHERE id = ANY($1) FOR UPDATE', [ids]);
    return { release: async () => void (await locker.query('ROLLBACK')) };
  }

  /** Statements of this database waiting for a lock, i.e. requests holding a connection while they wait. */
  async function lockWaiters(db: Database): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    return rows[0]!.n;
  }

  function patch(server: ServerProcess, org: TestOrganization, contactId: string): Promise<{ status: number; body: string; retryAfter: string | null }> {
    return fetch(`${server.url}/v1/contacts?id=eq.${contactId}`, {
      method: 'PATCH',
      headers: { ...bearer(org.key), 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ first_name: 'Renamed' }),
    }).then(async (response) => ({ status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') }));
  }

  describe('with the default cap (4 running, 32 waiting up to 5 s)', () => {
    let server: ServerProcess;
    before(async () => {
      server = await startServerProcess({ DATABASE_URL: testDb.url!, STAYKIT_STATEMENT_TIMEOUT: '120' });
    });
    after(() => server?.stop());

    it('while A runs 40 slow requests, B is answered; A gets 4 running and 429 SK430 for the rest, none hangs', async () => {
      const a = await createOrganization(testDb.db, 'Busy A');
      const b = await createOrganization(testDb.db, 'Quiet B');
      const contact = await createContact(testDb.db, a.id);
      const lock = await lockRows([contact]);
      try {
        const answers: { status: number; body: string; retryAfter: string | null }[] = [];
        const slow = Array.from({ length: 40 }, () => patch(server, a, contact).then((answer) => void answers.push(answer)));
        await waitFor(async () => (await lockWaiters(testDb.db)) >= 4, 20_000, "A's requests to be waiting on the lock");

        for (let i = 0; i < 5; i += 1) {
          const response = await fetch(`${server.url}/v1/contacts?select=id`, { headers: bearer(b.key), signal: AbortSignal.timeout(4_000) });
          assert.equal(response.status, 200, await response.text());
        }
        await waitFor(() => answers.length === 36, 30_000, "A's 36 requests beyond the cap to be answered");
        assert.equal(await lockWaiters(testDb.db), 4, 'A never ran more than 4 at once');
        for (const answer of answers) {
          assert.equal(answer.status, 429, answer.body);
          const body = JSON.parse(answer.body) as Record<string, unknown>;
          assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
          assert.equal(body.code, 'SK430');
          assert.equal(answer.retryAfter, '1');
        }
        await lock.release();
        await Promise.all(slow);
        assert.deepEqual(answers.slice(36).map((answer) => answer.status), [204, 204, 204, 204]);
      } finally {
        await locker.query('ROLLBACK').catch(() => undefined);
      }
    });
  });

  describe('background work while requests hold every API connection', () => {
    let server: ServerProcess;
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
      server = await startServerProcess({
        DATABASE_URL: testDb.url!,
        STAYKIT_STATEMENT_TIMEOUT: '120',
        STAYKIT_WORKER: 'embedded',
        STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true',
      });
    });
    after(async () => {
      await server?.stop();
      await receiver?.close();
    });

    it('webhooks are delivered and the request log is written', async () => {
      const orgs = await Promise.all(['One', 'Two', 'Three'].map((name) => createOrganization(testDb.db, `Busy ${name}`)));
      const contacts = await Promise.all(orgs.map((org) => createContact(testDb.db, org.id)));
      const lock = await lockRows(contacts);
      try {
        // 3 organizations × 4 slots = 12 requests for the pool's 10 connections.
        const slow = orgs.flatMap((org, i) => Array.from({ length: 4 }, () => patch(server, org, contacts[i]!)));
        await waitFor(async () => (await lockWaiters(testDb.db)) === 10, 20_000, 'requests to hold all 10 API connections');

        const quiet = await createOrganization(testDb.db, 'Quiet');
        const webhook = await createWebhook(testDb.db, quiet.id, receiver.url);
        receiver.secret = webhook.signing_secret;
        await createContact(testDb.db, quiet.id, 'Delivered');
        await waitFor(() => receiver.receipts.some((receipt) => receipt.body.includes('Delivered')), 20_000, 'the webhook delivery');

        // The two requests left without a connection are answered 503 once the pool's wait ends, and logged.
        const logged = await waitFor(async () => {
          const { rows } = await testDb.db.query<{ status: number }>(
            'SELECT status FROM api.api_requests WHERE organization_id = ANY($1)', [orgs.map((org) => org.id)],
          );
          return rows.length === 2 && rows;
        }, 30_000, 'the refused requests in api_requests');
        assert.deepEqual(logged.map((row) => row.status), [503, 503]);
        assert.equal(await lockWaiters(testDb.db), 10, 'the API connections were busy all along');

        await lock.release();
        const statuses = (await Promise.all(slow)).map((answer) => answer.status).sort();
        assert.deepEqual(statuses, [...Array<number>(10).fill(204), 503, 503]);
      } finally {
        await locker.query('ROLLBACK').catch(() => undefined);
      }
    });
  });
});
