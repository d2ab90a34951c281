/**
 * SIGTERM during a slow request: `staykit serve` stops accepting, lets the request finish, then exits 0. The slow
 * request is a PATCH of a coupon whose row another connection holds `FOR UPDATE`; the lock is released a second
 * after the signal. PostgreSQL only: the lock needs a second connection to the server's database.
 *
 * A supervisor may also signal the moment the server says it listens: that SIGTERM must end it gracefully too
 * (exit 0), not by the signal's default action because no handler was registered yet.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('graceful shutdown of staykit serve [postgres]', { skip: !BACKENDS.includes('postgres') && 'needs PostgreSQL' }, () => {
  let testDb: TestDatabase;
  let server: ServerProcess | undefined;
  let locker: pg.Client | undefined;

  before(async () => {
    testDb = await createTestDatabase('postgres');
  });
  after(async () => {
    await locker?.end().catch(() => undefined);
    await server?.stop('SIGKILL');
    await testDb.drop();
  });

  it('finishes the in-flight PATCH after SIGTERM, refuses new work, and exits 0', async () => {
    const org = await createOrganization(testDb.db, 'shutdown');
    const couponId = await fixtures(testDb.db, org.id).coupon({ code: 'SLOW', definition: { type: 'fixed', value: 100 }, scope: 'global' });
    server = await startServerProcess({ DATABASE_URL: testDb.url! });
    // Draining needs observability wired into serve (it answers `Connection: close` while closing); without it
    // the finished request's keep-alive connection would hold the process for Fastify's 72 s.
    const metrics = await fetch(`${server.url}/metrics`);
    await metrics.arrayBuffer();
    assert.equal(metrics.status, 200, 'staykit serve registers observability');
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      server!.child.once('exit', (code, signal) => resolve({ code, signal })));

    locker = new pg.Client({ connectionString: testDb.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM api.coupons WHERE id = $1 FOR UPDATE', [couponId]);

    const patch = fetch(`${server.url}/v1/coupons?id=eq.${couponId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json', prefer: 'return=representation' },
      body: JSON.stringify({ description: 'changed while shutting down' }),
    }).then(async (response) => ({ status: response.status, body: await response.json() as { description: string }[] }));

    // Wait until the PATCH is really blocked on the row lock.
    const waitingSince = Date.now();
    let settled: unknown;
    void patch.then((value) => { settled = value; }, (error: unknown) => { settled = error; });
    for (;;) {
      assert.equal(settled, undefined, `the PATCH did not wait: ${JSON.stringify(settled)}`);
      // Not on `locker`: inside its transaction pg_stat_activity is a snapshot.
      const { rows: waiting } = await testDb.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (waiting[0]!.n > 0) break;
      assert.ok(Date.now() - waitingSince < 15_000, 'the PATCH never waited on the lock');
      await sleep(50);
    }

    server.child.kill('SIGTERM');
    await sleep(1_000);
    // Not accepting any more: a new connection is refused (or, on a kept-alive one, answered 503).
    const late = await fetch(`${server.url}/health`).then((response) => response.status, (error: Error) => error.name);
    assert.ok(late === 'TypeError' || late === 503, `a request after SIGTERM got ${late}`);
    assert.equal(server.child.exitCode, null, 'the process waits for the in-flight request');

    await locker.query('COMMIT');
    const result = await patch;
    assert.equal(result.status, 200);
    assert.equal(result.body[0]!.description, 'changed while shutting down');

    const exit = await Promise.race([exited, sleep(15_000).then(() => 'timeout' as const)]);
    if (exit === 'timeout') console.log(server.output());
    assert.deepEqual(exit, { code: 0, signal: null }, server.output());
    const { rows: stored } = await testDb.db.query<{ description: string }>('SELECT description FROM api.coupons WHERE id = $1', [couponId]);
    assert.equal(stored[0]!.description, 'changed while shutting down');
  });

  it('exits 0 on a SIGTERM sent the moment it prints that it listens, every time', async () => {
    const exits: { code: number | null; signal: NodeJS.Signals | null }[] = [];
    // The window is a few statements wide: repeated so that a handler registered after the line is caught.
    for (let round = 0; round < 6; round += 1) {
      // With the background workers on, as a default serve runs: starting them is part of what follows the line.
      const started = await startServerProcess({ DATABASE_URL: testDb.url!, STAYKIT_WORKER: 'embedded' });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        started.child.once('exit', (code, signal) => resolve({ code, signal })));
      started.child.kill('SIGTERM');
      exits.push(await exited);
    }
    assert.deepEqual(exits, Array.from({ length: 6 }, () => ({ code: 0, signal: null })));
  });
});
