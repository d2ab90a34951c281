/**
 * Workers are woken across processes (PostgreSQL only): the API runs as `staykit serve` with STAYKIT_WORKER=off,
 * the background work as a separate `staykit worker` process that polls only once a minute — so a prompt pickup can
 * only come from the NOTIFY sent in the transaction of the request. A fresh notification, a redelivery and a
 * requested iCal import are each picked up within a few seconds.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';
import { createWebhook, startReceiver, waitFor, type Receiver } from '../webhooks/support.js';
import { airbnbFeed, airbnbReservation, createCalendar, createProduct, startFeedServer, type FeedServer } from '../ical/support.js';

/** Far beyond every deadline below: only a wake-up explains a pickup within them. */
const POLL_INTERVAL_SECONDS = '60';
const PROMPTLY_MS = 5_000;

/** Starts `staykit worker` and resolves once it listens for wake-ups. */
async function startWorkerProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bin/staykit.js', 'worker'], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start listening in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening for wake-ups')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
  return child;
}

describe('workers woken across processes', { skip: BACKENDS.includes('postgres') ? false : 'PostgreSQL is not available' }, () => {
  let testDb: TestDatabase;
  let server: ServerProcess;
  let worker: ChildProcess;
  let receiver: Receiver;
  let feeds: FeedServer;
  let org: TestOrganization;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    receiver = await startReceiver(() => ({ status: 204 }));
    feeds = await startFeedServer();
    const env = {
      DATABASE_URL: testDb.url!,
      STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true',
      STAYKIT_WORKER_POLL_INTERVAL: POLL_INTERVAL_SECONDS,
    };
    server = await startServerProcess({ ...env, STAYKIT_WORKER: 'off' });
    worker = await startWorkerProcess(env);
    org = await createOrganization(testDb.db, 'Woken');
  });
  after(async () => {
    if (worker?.exitCode === null) {
      worker.kill('SIGTERM');
      await once(worker, 'exit');
    }
    await server?.stop();
    await receiver?.close();
    await feeds?.close();
    await testDb?.drop();
  });

  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { ...bearer(org.key), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('delivers a fresh notification and a redelivery promptly', async () => {
    const hook = await createWebhook(testDb.db, org.id, receiver.url, ['contacts.created']);
    receiver.secret = hook.signing_secret;

    const created = await api('POST', '/v1/contacts', { first_name: 'Ada' });
    assert.equal(created.status, 201);
    await waitFor(() => receiver.receipts.length >= 1, PROMPTLY_MS, 'the fresh notification');
    const [first] = receiver.receipts;
    assert.equal(first!.verified, true);
    assert.equal(JSON.parse(first!.body).event_type, 'contacts.created');
    // Recorded as sent before it can be redelivered.
    await waitFor(async () => {
      const { rows } = await testDb.db.query<{ status: string }>('SELECT status FROM api.webhook_notifications WHERE id = $1', [first!.id]);
      return rows[0]?.status === 'sent';
    }, PROMPTLY_MS, 'the outcome recorded');

    const redelivered = await api('POST', '/v1/webhook-redeliver', { ids: [first!.id] });
    assert.equal(redelivered.status, 200);
    assert.deepEqual(await redelivered.json(), { requeued: [first!.id] });
    await waitFor(() => receiver.receipts.length >= 2, PROMPTLY_MS, 'the redelivery');
    assert.equal(receiver.receipts[1]!.id, first!.id, 'the same webhook-id');
  });

  it('imports a new calendar, and one whose sync is requested, promptly', async () => {
    feeds.set('/unit.ics', airbnbFeed([airbnbReservation('r1', 3, 6)]));
    const product = await createProduct(testDb.db, org.id, 'Woken unit');
    const calendar = await createCalendar(testDb.db, org.id, product.id, feeds.url('/unit.ics'));
    await waitFor(() => feeds.hits('/unit.ics') >= 1, PROMPTLY_MS, 'the first import');
    await waitFor(async () => {
      const { rows } = await testDb.db.query<{ last_synced: string | null }>('SELECT last_synced FROM api.external_calendars WHERE id = $1', [calendar]);
      return rows[0]?.last_synced !== null;
    }, PROMPTLY_MS, 'the first import recorded');

    const patched = await api('PATCH', `/v1/external_calendars?id=eq.${calendar}`, { sync_requested_at: new Date().toISOString() });
    assert.equal(patched.status, 204);
    await waitFor(() => feeds.hits('/unit.ics') >= 2, PROMPTLY_MS, 'the requested import');
  });
});
