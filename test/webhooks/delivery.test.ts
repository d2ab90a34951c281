import { afterEach, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { claimNotifications, deliverDue, startWebhookWorker, type WorkerConfig } from '../../src/webhooks/worker.js';
import { attempt } from '../../src/webhooks/deliver.js';
import { requeueNotifications } from '../../src/webhooks/redeliver.js';
import {
  StandardWebhooks, createContact, createOrganization, createWebhook, makeDue, notifications, startReceiver, waitFor,
  type Receiver, type TestWebhook,
} from './support.js';

const config: WorkerConfig = { webhookRetrySchedule: [0, 1, 1], outboundAllowPrivate: true };

forEachBackend('webhook delivery', (ctx) => {
  let receiver: Receiver | undefined;
  let org: string;

  afterEach(async () => {
    await receiver?.close();
  });

  /**
   * A fresh receiver answering with `reply`, and a fresh organization whose only webhook points at it. (Earlier
   * tests' notifications still due go to their own, closed, receivers.)
   */
  async function setUp(reply: Receiver['reply'], events = ['*']): Promise<TestWebhook> {
    receiver = await startReceiver(reply);
    org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, receiver!.url, events);
    receiver!.secret = hook.signing_secret;
    return hook;
  }

  async function queueRow(notificationId: string) {
    const { rows } = await ctx.db.query<{ attempts: number; due_in: number; lease_token: string | null }>(
      `SELECT attempts, lease_token,
              CASE WHEN run_at = 'infinity' THEN 'Infinity'::float8 ELSE extract(epoch FROM run_at - now())::float8 END AS due_in
       FROM staykit_internal.webhook_queue WHERE notification_id = $1`,
      [notificationId],
    );
    return rows[0];
  }

  it('POSTs the stored payload, signed per Standard Webhooks, and records sent', async () => {
    const hook = await setUp(() => ({ status: 200, body: 'thanks' }));
    const contactId = await createContact(ctx.db, org);
    const reports = await deliverDue(ctx.db, config);
    assert.equal(reports.length, 1);
    const [notification] = await notifications(ctx.db, hook.id);
    assert.ok(notification);
    assert.equal(notification.status, 'sent');
    assert.equal(notification.tries, 1);
    assert.deepEqual(JSON.parse(notification.response ?? ''), { status: 200, body: 'thanks' });
    const [receipt] = receiver!.receipts;
    assert.ok(receipt);
    assert.equal(receipt.id, notification.id);
    assert.ok(receipt.verified, 'our verifier accepts the signature');
    if (StandardWebhooks) assert.equal(receipt.libraryVerified, true, 'the standardwebhooks package accepts the signature');
    assert.match(receipt.signature, /^v1,[A-Za-z0-9+/]{43}=$/);
    const { sequence, ...body } = JSON.parse(receipt.body) as { id: string; event_type: string; payload: { new: { id: string } }; sequence: number };
    assert.deepEqual(body, notification.payload, 'the stored payload, and its sequence');
    const stored = await ctx.db.query<{ sequence: string }>('SELECT sequence::text FROM api.webhook_notifications WHERE id = $1', [notification.id]);
    assert.equal(String(sequence), stored.rows[0]!.sequence);
    assert.equal(body.id, notification.id);
    assert.equal(body.event_type, 'contacts.created');
    assert.equal(body.payload.new.id, contactId);
    assert.equal(await queueRow(notification.id), undefined, 'a sent notification leaves the queue');
  });

  it("numbers a transaction's notifications in the order of its changes: created before updated, whatever the arrival", async () => {
    await setUp(() => ({ status: 204 }), ['contacts.created', 'contacts.updated']);
    await ctx.db.transaction(async (tx) => {
      const contact = await fixtures(tx, org).contact({ first_name: 'Ada' });
      await tx.query(`UPDATE api.contacts SET first_name = 'Grace' WHERE id = $1`, [contact]);
    });
    await deliverDue(ctx.db, config);
    const received = receiver!.receipts.map((receipt) => JSON.parse(receipt.body) as { event_type: string; sequence: number });
    assert.equal(received.length, 2);
    const sequenceOf = (type: string) => received.find((body) => body.event_type === type)!.sequence;
    assert.ok(sequenceOf('contacts.created') < sequenceOf('contacts.updated'), JSON.stringify(received));
  });

  it('retries a receiver that fails 3 times, then succeeds: sent with tries = 4, same webhook-id', async () => {
    const hook = await setUp((_receipt, n) => (n <= 3 ? { status: 500, body: `fail ${n}` } : { status: 204 }));
    await createContact(ctx.db, org);
    const worker = startWebhookWorker(ctx.db, { ...config, webhookRetrySchedule: [0, 1, 1, 1] }, undefined, { pollIntervalMs: 20 });
    try {
      const sent = await waitFor(async () => {
        const [row] = await notifications(ctx.db, hook.id);
        return row?.status === 'sent' ? row : undefined;
      }, 30_000, 'sent');
      assert.equal(sent.tries, 4);
      assert.equal(receiver!.receipts.length, 4);
      assert.ok(receiver!.receipts.every((receipt) => receipt.id === sent.id && receipt.verified));
      assert.equal(new Set(receiver!.receipts.map((receipt) => receipt.timestamp)).size >= 2, true, 'timestamp is per attempt');
    } finally {
      await worker.stop();
    }
  });

  it('ends error after the last scheduled try of a receiver that always fails', async () => {
    const hook = await setUp(() => ({ status: 503, body: 'down' }));
    await createContact(ctx.db, org);
    const worker = startWebhookWorker(ctx.db, config, undefined, { pollIntervalMs: 20 });
    try {
      const failed = await waitFor(async () => {
        const [row] = await notifications(ctx.db, hook.id);
        return row?.status === 'error' ? row : undefined;
      }, 30_000, 'error');
      assert.equal(failed.tries, config.webhookRetrySchedule.length);
      assert.deepEqual(JSON.parse(failed.response ?? ''), { status: 503, body: 'down' });
      assert.equal(receiver!.receipts.length, config.webhookRetrySchedule.length);
      assert.equal(await queueRow(failed.id), undefined);
    } finally {
      await worker.stop();
    }
  });

  it('schedules the next try after a failure: schedule[n] seconds later', async () => {
    const hook = await setUp(() => ({ status: 500 }));
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, { ...config, webhookRetrySchedule: [0, 120, 600] });
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.status, 'pending');
    assert.equal(row?.tries, 1);
    const queued = await queueRow(row?.id ?? '');
    assert.equal(queued?.attempts, 1);
    assert.equal(queued?.lease_token, null);
    assert.ok(queued && queued.due_in > 100 && queued.due_in <= 120, `due in ${queued?.due_in}`);
    const reports = await deliverDue(ctx.db, config);
    assert.ok(!reports.some((report) => report.notificationId === row?.id), 'nothing is due before its time');
  });

  it('honours Retry-After on 429 and 503', async () => {
    const hook = await setUp(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, config);
    const [row] = await notifications(ctx.db, hook.id);
    const queued = await queueRow(row?.id ?? '');
    assert.ok(queued && queued.due_in > 3500 && queued.due_in <= 3600, `due in ${queued?.due_in}`);
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const hook = await setUp(() => ({ status: 301, headers: { location: 'http://127.0.0.1:1/elsewhere' } }));
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, config);
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.status, 'pending');
    assert.equal(row?.tries, 1);
    assert.deepEqual(JSON.parse(row?.response ?? ''), { status: 301, body: '', location: 'http://127.0.0.1:1/elsewhere' });
    assert.equal(receiver!.receipts.length, 1);
  });

  it('410 Gone ends the notification in error and disables the webhook', async () => {
    const hook = await setUp(() => ({ status: 410 }));
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, config);
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.status, 'error');
    assert.equal(row?.tries, 1);
    const { rows } = await ctx.db.query<{ disabled_at: string | null }>('SELECT disabled_at FROM api.webhooks WHERE id = $1', [hook.id]);
    assert.ok(rows[0]?.disabled_at, 'disabled_at is set');
    await createContact(ctx.db, org, 'After');
    assert.equal((await notifications(ctx.db, hook.id)).length, 1, 'a disabled webhook gets no new notifications');
  });

  it('a disabled webhook keeps its pending notifications parked; enabling it delivers them', async () => {
    const hook = await setUp((_receipt, n) => (n === 1 && receiver!.receipts.length === 1 ? { status: 410 } : { status: 200 }));
    await createContact(ctx.db, org, 'One');
    await createContact(ctx.db, org, 'Two');
    await createContact(ctx.db, org, 'Three');
    await deliverDue(ctx.db, config, { concurrency: 1 }); // the first answer is 410: the other two must wait
    const rows = await notifications(ctx.db, hook.id);
    assert.deepEqual(rows.map((row) => row.status).sort(), ['error', 'pending', 'pending']);
    assert.equal(receiver!.receipts.length, 1);
    const waiting = rows.filter((row) => row.status === 'pending');
    for (const row of waiting) {
      const queued = await queueRow(row.id);
      assert.equal(queued?.attempts, 0, 'waiting does not use up retries');
      assert.equal(queued?.due_in, Infinity, 'parked');
    }
    await ctx.db.query('UPDATE api.webhooks SET disabled_at = NULL WHERE id = $1', [hook.id]);
    await deliverDue(ctx.db, config);
    const after = await notifications(ctx.db, hook.id);
    assert.deepEqual(after.map((row) => row.status).sort(), ['error', 'sent', 'sent']);
    assert.equal(receiver!.receipts.length, 3);
  });

  it('410 to many deliveries in flight at once: each of them ends error, the webhook is disabled, the rest wait', async () => {
    const hook = await setUp(() => ({ status: 410, delayMs: 50 }));
    for (let i = 0; i < 12; i += 1) await createContact(ctx.db, org, `Guest ${i}`);
    const worker = startWebhookWorker(ctx.db, config, undefined, { pollIntervalMs: 20, concurrency: 5 });
    try {
      await waitFor(async () => (await notifications(ctx.db, hook.id)).some((row) => row.status === 'error'), 20_000, 'a 410 recorded');
      await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more is sent
    } finally {
      await worker.stop();
    }
    const rows = await notifications(ctx.db, hook.id);
    const sentTo = new Set(receiver!.receipts.map((receipt) => receipt.id));
    assert.ok(sentTo.size >= 1 && sentTo.size <= 5, `only the deliveries in flight were sent: ${sentTo.size}`);
    for (const row of rows) {
      if (sentTo.has(row.id)) assert.deepEqual([row.status, row.tries], ['error', 1]);
      else {
        assert.deepEqual([row.status, row.tries], ['pending', 0]);
        const queued = await queueRow(row.id);
        assert.equal(queued?.due_in, Infinity, 'parked');
      }
    }
    const { rows: hooks } = await ctx.db.query<{ disabled_at: string | null }>('SELECT disabled_at FROM api.webhooks WHERE id = $1', [hook.id]);
    assert.ok(hooks[0]?.disabled_at);
  });

  it('a timeout is a failure that will be retried', async () => {
    const hook = await setUp(() => ({ status: 200, delayMs: 2_000 }));
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, config, { timeoutMs: 200, leaseSeconds: 5 });
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.status, 'pending');
    assert.equal(row?.tries, 1);
    assert.equal(JSON.parse(row?.response ?? '').error, 'timeout');
  });

  it('a response body over 1 MiB is a failure, even with 2xx', async () => {
    const hook = await setUp(() => ({ status: 200, body: Buffer.alloc(1024 * 1024 + 1, 'x') }));
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, config);
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.status, 'pending');
    assert.deepEqual(JSON.parse(row?.response ?? ''), {
      status: 200, error: 'too_large', message: 'response 200 has a body larger than 1048576 bytes',
    });
  });

  it('keeps only the first 2 KB of a response body', async () => {
    const hook = await setUp(() => ({ status: 200, body: 'y'.repeat(10_000) }));
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, config);
    const [row] = await notifications(ctx.db, hook.id);
    const response = JSON.parse(row?.response ?? '') as { body: string; truncated: boolean };
    assert.equal(response.body.length, 2048);
    assert.equal(response.truncated, true);
  });

  it('refuses a loopback endpoint unless private targets are allowed', async () => {
    const hook = await setUp(() => ({ status: 200 }));
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, { ...config, outboundAllowPrivate: false });
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.status, 'pending');
    assert.equal(JSON.parse(row?.response ?? '').error, 'refused');
    assert.equal(receiver!.receipts.length, 0);
  });

  it('a worker that dies between sending and recording loses nothing: resent after the lease, same webhook-id', async () => {
    const hook = await setUp(() => ({ status: 200 }));
    await createContact(ctx.db, org);
    // An earlier test's notification may be due again by now (retries after 1 s): only this webhook's counts.
    const claimed = (await claimNotifications(ctx.db, config, 10, 1)).filter((notification) => notification.webhook_id === hook.id);
    assert.equal(claimed.length, 1);
    const crashed = claimed[0]!;
    await attempt(crashed, { allowPrivate: true }); // sent …and the worker "dies" before recording
    assert.equal(receiver!.receipts.length, 1);
    const others = await claimNotifications(ctx.db, config, 100, 60);
    assert.ok(!others.some((claimed) => claimed.id === crashed.id), 'leased: no other worker takes it');
    const worker = startWebhookWorker(ctx.db, config, undefined, { pollIntervalMs: 20 });
    try {
      const sent = await waitFor(async () => {
        const [row] = await notifications(ctx.db, hook.id);
        return row?.status === 'sent' ? row : undefined;
      }, 20_000, 'redelivery after the lease');
      assert.equal(receiver!.receipts.length, 2);
      assert.deepEqual(receiver!.receipts.map((receipt) => receipt.id), [sent.id, sent.id]);
      assert.equal(sent.tries, 1, 'the attempt that was never recorded is not counted');
    } finally {
      await worker.stop();
    }
  });

  it('a worker whose lease expired records nothing', async () => {
    const hook = await setUp(() => ({ status: 500 }));
    await createContact(ctx.db, org);
    const [stale] = (await claimNotifications(ctx.db, config, 10, 1)).filter((notification) => notification.webhook_id === hook.id);
    assert.ok(stale);
    await waitFor(
      async () => (await claimNotifications(ctx.db, config, 100, 60)).some((claimed) => claimed.id === stale.id),
      10_000,
      'another worker to take it over',
    );
    const { deliverClaimed } = await import('../../src/webhooks/deliver.js');
    const report = await deliverClaimed(ctx.db, stale, { schedule: config.webhookRetrySchedule, allowPrivate: true });
    assert.equal(report.recorded, false);
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.tries, 0);
  });

  it('stop() lets in-flight deliveries finish and record', async () => {
    const hook = await setUp(() => ({ status: 200, delayMs: 500 }));
    await createContact(ctx.db, org);
    const worker = startWebhookWorker(ctx.db, config, undefined, { pollIntervalMs: 20 });
    await waitFor(() => receiver!.receipts.length === 1, 10_000, 'the request to arrive');
    await worker.stop();
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.status, 'sent');
  });

  it('redelivers chosen notifications again on request', async () => {
    const hook = await setUp(() => ({ status: 200 }));
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, config);
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.status, 'sent');
    const other = await createOrganization(ctx.db, 'Other');
    assert.deepEqual(await requeueNotifications(ctx.db, other, [row!.id]), [], 'another organization cannot requeue it');
    assert.deepEqual(await requeueNotifications(ctx.db, org, [row!.id]), [row!.id]);
    assert.equal((await notifications(ctx.db, hook.id))[0]?.status, 'pending');
    await makeDue(ctx.db, hook.id);
    await deliverDue(ctx.db, config);
    const [again] = await notifications(ctx.db, hook.id);
    assert.equal(again?.status, 'sent');
    assert.equal(again?.tries, 2);
    assert.deepEqual(receiver!.receipts.map((receipt) => receipt.id), [row!.id, row!.id]);
  });

  it('a failure recorded after the webhook was disabled (410 on a concurrent delivery) is parked', async () => {
    const hook = await setUp(() =>
      receiver!.receipts.length === 1 ? { status: 410, delayMs: 100 } : { status: 500, delayMs: 600 });
    await createContact(ctx.db, org, 'One');
    await createContact(ctx.db, org, 'Two');
    await deliverDue(ctx.db, config, { concurrency: 2 });
    assert.equal(receiver!.receipts.length, 2, 'both were in flight together');
    const rows = await notifications(ctx.db, hook.id);
    const failed = rows.find((row) => row.status === 'pending');
    assert.ok(failed, JSON.stringify(rows.map((row) => row.status)));
    const queued = await queueRow(failed.id);
    assert.equal(queued?.attempts, 1);
    assert.equal(queued?.due_in, Infinity, 'parked, not scheduled');
  });

  it('redelivering a notification of a disabled webhook parks it until the webhook is enabled', async () => {
    const hook = await setUp(() => ({ status: 500 }));
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, { ...config, webhookRetrySchedule: [0] });
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.status, 'error');
    await ctx.db.query('UPDATE api.webhooks SET disabled_at = now() WHERE id = $1', [hook.id]);
    assert.deepEqual(await requeueNotifications(ctx.db, org, [row!.id]), [row!.id]);
    assert.equal((await queueRow(row!.id))?.due_in, Infinity);
    receiver!.reply = () => ({ status: 200 });
    await ctx.db.query('UPDATE api.webhooks SET disabled_at = NULL WHERE id = $1', [hook.id]);
    await deliverDue(ctx.db, config);
    assert.equal((await notifications(ctx.db, hook.id))[0]?.status, 'sent');
  });

  it('keeps at most `concurrency` deliveries in flight', async () => {
    const hook = await setUp(() => ({ status: 200, delayMs: 150 }));
    for (let i = 0; i < 9; i += 1) await createContact(ctx.db, org, `Guest ${i}`);
    const worker = startWebhookWorker(ctx.db, config, undefined, { pollIntervalMs: 20, concurrency: 3 });
    try {
      await waitFor(async () => (await notifications(ctx.db, hook.id)).every((row) => row.status === 'sent'), 30_000, 'all sent');
    } finally {
      await worker.stop();
    }
    assert.equal(receiver!.receipts.length, 9);
    assert.equal(receiver!.maxConcurrent, 3);
    assert.ok(receiver!.connections <= 3, `connections are reused: ${receiver!.connections} for 9 deliveries`);
  });

  it('refuses a lease shorter than the delivery timeout', () => {
    assert.throws(() => startWebhookWorker(ctx.db, config, undefined, { leaseSeconds: 5, timeoutMs: 10_000 }), /leaseSeconds/);
  });
});
