/**
 * Outcomes written in batches (one statement for the outcomes that finish together) and claims taken from the
 * queue alone: what each notification ends with is exactly what single-row writes gave.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import type { Queryable } from '../../src/db/types.js';
import { claimNotifications, type WorkerConfig } from '../../src/webhooks/worker.js';
import { createOutcomeRecorder } from '../../src/webhooks/recorder.js';
import { createContact, createOrganization, createWebhook, notifications } from './support.js';

const config: WorkerConfig = { webhookRetrySchedule: [0, 5, 5], outboundAllowPrivate: true };

forEachBackend('webhook outcome recorder', (ctx) => {
  async function queued(webhookId: string) {
    const { rows } = await ctx.db.query<{ notification_id: string; attempts: number; leased: boolean; due_in: number }>(
      `SELECT notification_id, attempts, lease_token IS NOT NULL AS leased,
              CASE WHEN run_at = 'infinity' THEN 'Infinity'::float8 ELSE extract(epoch FROM run_at - now())::float8 END AS due_in
       FROM staykit_internal.webhook_queue WHERE webhook_id = $1`,
      [webhookId],
    );
    return new Map(rows.map((row) => [row.notification_id, row]));
  }

  async function setUp(contacts: number) {
    const org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, 'http://127.0.0.1:9/hook', ['contacts.created']);
    for (let i = 0; i < contacts; i += 1) await createContact(ctx.db, org, `Guest ${i}`);
    return hook;
  }

  it('writes the outcomes that finish together in one statement, each as a single write would', async () => {
    const hook = await setUp(4);
    const claimed = await claimNotifications(ctx.db, config, 10, 60);
    assert.equal(claimed.length, 4);
    const [sent, failed, retried, lost] = claimed as [typeof claimed[0], typeof claimed[0], typeof claimed[0], typeof claimed[0]];
    const statements: string[] = [];
    ctx.db.onStatement = (text) => statements.push(text);
    const recorder = createOutcomeRecorder(ctx.db);
    let results: boolean[];
    try {
      results = await Promise.all([
        recorder.record({ notificationId: sent.id, leaseToken: sent.lease_token, status: 'sent', delaySeconds: undefined, response: '{"status":200,"body":"ok"}' }),
        recorder.record({ notificationId: failed.id, leaseToken: failed.lease_token, status: 'error', delaySeconds: undefined, response: '{"status":500,"body":"no"}' }),
        recorder.record({ notificationId: retried.id, leaseToken: retried.lease_token, status: 'pending', delaySeconds: 120, response: '{"error":"timeout","message":"…"}' }),
        // Its lease is another worker's now: nothing is recorded for it.
        recorder.record({ notificationId: lost.id, leaseToken: '00000000-0000-4000-8000-000000000000', status: 'sent', delaySeconds: undefined, response: '{}' }),
      ]);
    } finally {
      ctx.db.onStatement = undefined;
    }
    assert.deepEqual(results, [true, true, true, false]);
    assert.equal(statements.length, 1, 'one statement');

    const rows = new Map((await notifications(ctx.db, hook.id)).map((row) => [row.id, row]));
    assert.deepEqual([rows.get(sent.id)?.status, rows.get(sent.id)?.tries, rows.get(sent.id)?.response], ['sent', 1, '{"status":200,"body":"ok"}']);
    assert.deepEqual([rows.get(failed.id)?.status, rows.get(failed.id)?.tries], ['error', 1]);
    assert.deepEqual([rows.get(retried.id)?.status, rows.get(retried.id)?.tries, rows.get(retried.id)?.response], ['pending', 1, '{"error":"timeout","message":"…"}']);
    assert.deepEqual([rows.get(lost.id)?.status, rows.get(lost.id)?.tries], ['pending', 0]);

    const queue = await queued(hook.id);
    assert.equal(queue.has(sent.id) || queue.has(failed.id), false, 'final outcomes leave the queue');
    const retry = queue.get(retried.id);
    assert.equal(retry?.attempts, 1);
    assert.equal(retry?.leased, false);
    assert.ok(retry && retry.due_in > 100 && retry.due_in <= 120, `due in about 120 s: ${retry?.due_in}`);
    assert.equal(queue.get(lost.id)?.leased, true, 'still leased');
  });

  it('a failed write rejects every outcome of its batch (their leases expire; they are sent again)', async () => {
    const down: Queryable = {
      query: () => Promise.reject(new Error('database down')),
      exec: () => Promise.reject(new Error('database down')),
    };
    const recorder = createOutcomeRecorder(down);
    const outcome = { leaseToken: '00000000-0000-4000-8000-000000000000', status: 'sent' as const, delaySeconds: undefined, response: '{}' };
    const results = await Promise.allSettled([
      recorder.record({ ...outcome, notificationId: '00000000-0000-4000-8000-000000000001' }),
      recorder.record({ ...outcome, notificationId: '00000000-0000-4000-8000-000000000002' }),
    ]);
    assert.deepEqual(results.map((result) => result.status), ['rejected', 'rejected']);
  });

  it('splits a large batch and keeps at most two statements in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const sizes: number[] = [];
    const slow: Queryable = {
      async query<R>(_text: string, values?: readonly unknown[]) {
        inFlight += 1;
        most = Math.max(most, inFlight);
        sizes.push((values?.[0] as unknown[]).length);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
        return { rows: [] as R[], rowCount: 0 };
      },
      exec: async () => undefined,
    };
    const recorder = createOutcomeRecorder(slow, { maxBatch: 3 });
    const outcome = { leaseToken: '00000000-0000-4000-8000-000000000000', status: 'sent' as const, delaySeconds: undefined, response: '{}' };
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => recorder.record({ ...outcome, notificationId: `00000000-0000-4000-8000-00000000000${i}` })),
    );
    assert.deepEqual(results, new Array(8).fill(false));
    assert.deepEqual(sizes, [3, 3, 2]);
    assert.equal(most, 2);
  });

  it('writes 410 outcomes one at a time; a failed one does not stop the next', async () => {
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    const db: Queryable = {
      async query<R>() {
        calls += 1;
        const call = calls;
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 10));
        inFlight -= 1;
        if (call === 2) throw new Error('deadlock detected');
        return { rows: [] as R[], rowCount: call === 1 ? 1 : 0 };
      },
      exec: async () => undefined,
    };
    const recorder = createOutcomeRecorder(db);
    const results = await Promise.allSettled([1, 2, 3].map((i) => recorder.recordGone(`00000000-0000-4000-8000-00000000000${i}`, '00000000-0000-4000-8000-000000000000', '{"status":410,"body":""}')));
    assert.deepEqual(results.map((result) => (result.status === 'fulfilled' ? result.value : 'rejected')), [true, 'rejected', false]);
    assert.equal(most, 1);
  });

  it('a claim parks due notifications of a disabled webhook instead of sending them; enabling it makes them due', async () => {
    const hook = await setUp(2);
    // As if a worker had them leased when the webhook was disabled (so they were not parked), and then died.
    await ctx.db.query(
      `UPDATE staykit_internal.webhook_queue SET lease_token = gen_random_uuid(), leased_at = now() WHERE webhook_id = $1`, [hook.id]);
    await ctx.db.query('UPDATE api.webhooks SET disabled_at = now() WHERE id = $1', [hook.id]);
    await ctx.db.query(`UPDATE staykit_internal.webhook_queue SET run_at = now() - interval '1 second' WHERE webhook_id = $1`, [hook.id]);

    assert.deepEqual(await claimNotifications(ctx.db, config, 10, 60), [], 'nothing of a disabled webhook is claimed');
    for (const row of (await queued(hook.id)).values()) {
      assert.equal(row.due_in, Infinity, 'parked');
      assert.equal(row.leased, false);
      assert.equal(row.attempts, 0, 'waiting does not use up retries');
    }
    await ctx.db.query('UPDATE api.webhooks SET disabled_at = NULL WHERE id = $1', [hook.id]);
    const claimed = await claimNotifications(ctx.db, config, 10, 60);
    assert.equal(claimed.length, 2);
    assert.ok(claimed.every((row) => row.webhook_id === hook.id));
  });

  it('claims due notifications oldest first, up to the limit, and leases them', async () => {
    const hook = await setUp(5);
    await ctx.db.query(
      `UPDATE staykit_internal.webhook_queue AS q SET run_at = now() - make_interval(secs => ordinality::float8)
       FROM (SELECT notification_id, row_number() OVER (ORDER BY notification_id) AS ordinality
             FROM staykit_internal.webhook_queue WHERE webhook_id = $1) AS o
       WHERE q.notification_id = o.notification_id`,
      [hook.id],
    );
    const { rows: order } = await ctx.db.query<{ notification_id: string }>(
      'SELECT notification_id FROM staykit_internal.webhook_queue WHERE webhook_id = $1 ORDER BY run_at', [hook.id]);
    const claimed = await claimNotifications(ctx.db, config, 3, 60);
    assert.deepEqual(claimed.map((row) => row.id).sort(), order.slice(0, 3).map((row) => row.notification_id).sort());
    const queue = await queued(hook.id);
    for (const row of claimed) assert.ok((queue.get(row.id)?.due_in ?? 0) > 50, 'leased 60 s ahead');
    assert.equal((await claimNotifications(ctx.db, config, 10, 60)).length, 2);
  });
});
