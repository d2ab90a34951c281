/**
 * The wake-up listener (PostgreSQL only: PGlite has no second process to be woken): a NOTIFY committed by any
 * connection calls the channel's handler, and after the connection to the server drops (cut through a TCP proxy)
 * it comes back by itself, wakes every handler once (notifications sent meanwhile are lost) and hears later ones.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { listenForWakes, type WakeListener } from '../../src/jobs/wake-listener.js';
import { silentLogger } from '../../src/observability/worker-logger.js';

/** Resolves on the next event, or fails after a generous deadline. */
function next(events: EventEmitter, name: string, timeoutMs = 10_000): Promise<unknown> {
  return once(events, name, { signal: AbortSignal.timeout(timeoutMs) });
}

describe('wake-up listener', { skip: BACKENDS.includes('postgres') ? false : 'PostgreSQL is not available' }, () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let listener: WakeListener | undefined;
  const events = new EventEmitter();

  before(async () => {
    testDb = await createTestDatabase('postgres');
    const target = new URL(testDb.url!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  });
  after(async () => {
    await listener?.close();
    await proxy.close();
    await testDb.drop();
  });

  it('calls the handler of a notified channel, after the notifying transaction commits', async () => {
    const target = new URL(testDb.url!);
    target.host = `127.0.0.1:${proxy.port}`;
    listener = listenForWakes({
      connectionString: target.toString(),
      logger: { ...silentLogger, info: (_fields, message) => events.emit('log', message) },
      channels: { test_jobs: () => events.emit('test_jobs'), other_jobs: () => events.emit('other_jobs') },
      reconnectDelayMs: 50,
    });
    await listener.ready;

    let woken = 0;
    events.on('test_jobs', () => (woken += 1));
    await testDb.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('test_jobs', '')`);
      assert.equal(woken, 0, 'not before the commit');
    });
    await next(events, 'test_jobs');
    assert.equal(woken, 1);
    events.removeAllListeners('test_jobs');

    // A rolled-back transaction wakes no one; the next committed one does, on its own channel only.
    await testDb.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('test_jobs', '')`);
      throw new Error('roll back');
    }).catch(() => undefined);
    const other = next(events, 'other_jobs');
    let wrongChannel = false;
    events.once('test_jobs', () => (wrongChannel = true));
    await testDb.db.query(`SELECT pg_notify('other_jobs', '')`);
    await other;
    assert.equal(wrongChannel, false);
    events.removeAllListeners('test_jobs');
  });

  it('reconnects after the connection drops, wakes every handler once, and hears later notifications', async () => {
    const backAgain = next(events, 'log');
    const caughtUp = Promise.all([next(events, 'test_jobs'), next(events, 'other_jobs')]);
    await proxy.cut();
    await proxy.restore();
    assert.equal(await backAgain.then((args) => (args as string[])[0]), 'listening for wake-ups');
    await caughtUp;

    const heard = next(events, 'test_jobs');
    await testDb.db.query(`SELECT pg_notify('test_jobs', '')`);
    await heard;
  });
});
