/**
 * Several workers on one PostgreSQL database (PostgreSQL only: PGlite has a single connection, so there is no
 * concurrency to test). Workers never send one notification at the same time, nothing is lost, and a worker
 * process killed mid-delivery leaves its notifications to be sent again after the lease, with the same webhook-id.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { openPostgres } from '../../src/db/postgres.js';
import type { Database } from '../../src/db/types.js';
import { startWebhookWorker, type WorkerConfig } from '../../src/webhooks/worker.js';
import { createOrganization, createWebhook, startReceiver, waitFor, type Receiver } from './support.js';

const config: WorkerConfig = { webhookRetrySchedule: [0, 1, 1], outboundAllowPrivate: true };
const WORKER_SCRIPT = fileURLToPath(new URL('./fixtures/worker-process.ts', import.meta.url));
const WORKER_COMMAND = fileURLToPath(new URL('./fixtures/worker-command.ts', import.meta.url));

async function countByStatus(db: Database, webhookId: string): Promise<Record<string, number>> {
  const { rows } = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM api.webhook_notifications WHERE webhook_id = $1 GROUP BY status',
    [webhookId],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/** `count` contacts in one statement: `count` contacts.created notifications per subscribed webhook. */
async function createContacts(db: Database, organizationId: string, count: number): Promise<void> {
  await fixtures(db, organizationId).rows('contacts', Array.from({ length: count }, (_, i) => ({ first_name: `Guest ${i + 1}` })));
}

function receiptsById(receiver: Receiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const receipt of receiver.receipts) counts.set(receipt.id, (counts.get(receipt.id) ?? 0) + 1);
  return counts;
}

describe('webhook workers on one PostgreSQL', { skip: BACKENDS.includes('postgres') ? false : 'PostgreSQL is not available' }, () => {
  let testDb: TestDatabase;
  let second: Database;
  let receiver: Receiver | undefined;
  const children: ChildProcess[] = [];

  before(async () => {
    testDb = await createTestDatabase('postgres');
    second = await openPostgres({ connectionString: testDb.url as string, maxConnections: 5 });
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await receiver?.close();
    await second?.close();
    await testDb?.drop();
  });

  it('two workers (two pools) deliver 1,000 notifications once each, never concurrently', async () => {
    const N = 1000;
    receiver = await startReceiver(() => ({ status: 200, delayMs: 2 }));
    const org = await createOrganization(testDb.db);
    const hook = await createWebhook(testDb.db, org, receiver.url, ['contacts.created']);
    receiver.secret = hook.signing_secret;
    await createContacts(testDb.db, org, N);
    const perWorker = [0, 0];
    const workers = [testDb.db, second].map((db, index) =>
      startWebhookWorker(db, config, undefined, {
        pollIntervalMs: 20,
        concurrency: 8,
        onDelivery: () => (perWorker[index] = (perWorker[index] ?? 0) + 1),
      }),
    );
    try {
      await waitFor(async () => (await countByStatus(testDb.db, hook.id)).sent === N, 120_000, `${N} sent`);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
    const counts = receiptsById(receiver);
    assert.equal(counts.size, N, 'every notification arrived');
    assert.deepEqual([...counts.values()].filter((n) => n !== 1), [], 'none arrived twice');
    assert.ok(receiver.receipts.every((receipt) => receipt.concurrentSameId === 1), 'never two sends of one id at once');
    assert.ok(receiver.receipts.every((receipt) => receipt.verified), 'all signatures verify');
    assert.ok((perWorker[0] ?? 0) > 0 && (perWorker[1] ?? 0) > 0, `both workers delivered: ${perWorker.join(' / ')}`);
    const { rows } = await testDb.db.query<{ n: number }>('SELECT count(*)::int AS n FROM staykit_internal.webhook_queue');
    assert.equal(rows[0]?.n, 0, 'the queue is empty');
    const { rows: tries } = await testDb.db.query<{ max: number }>(
      'SELECT max(tries)::int AS max FROM api.webhook_notifications WHERE webhook_id = $1', [hook.id]);
    assert.equal(tries[0]?.max, 1);
  });

  it('two worker processes deliver 1,000 notifications once each, never concurrently', async () => {
    const N = 1000;
    await receiver?.close();
    receiver = await startReceiver(() => ({ status: 200 }));
    const org = await createOrganization(testDb.db);
    const hook = await createWebhook(testDb.db, org, receiver.url, ['contacts.created']);
    receiver.secret = hook.signing_secret;
    const workers = [0, 1].map(() => {
      const child = spawn(process.execPath, ['--import', 'tsx', WORKER_SCRIPT, testDb.url as string], {
        env: { ...process.env, WORKER_CONCURRENCY: '8' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      return child;
    });
    const output = workers.map((child) => {
      const text = { value: '' };
      child.stdout!.on('data', (chunk: Buffer) => (text.value += chunk.toString()));
      return text;
    });
    await waitFor(() => output.every((text) => text.value.includes('ready')), 30_000, 'both workers to start');
    await createContacts(testDb.db, org, N);
    await waitFor(async () => (await countByStatus(testDb.db, hook.id)).sent === N, 120_000, `${N} sent`);
    for (const child of workers) child.kill('SIGTERM');
    await Promise.all(workers.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
    const delivered = output.map((text) => Number(/delivered (\d+)/.exec(text.value)?.[1] ?? 0));
    assert.ok(delivered.every((n) => n > 0), `both processes delivered: ${delivered.join(' / ')}`);
    assert.equal(delivered[0]! + delivered[1]!, N);
    const counts = receiptsById(receiver);
    assert.equal(counts.size, N, 'every notification arrived');
    assert.deepEqual([...counts.values()].filter((n) => n !== 1), [], 'none arrived twice');
    assert.ok(receiver.receipts.every((receipt) => receipt.concurrentSameId === 1));
    assert.ok(receiver.receipts.every((receipt) => receipt.verified));
  });

  it('a worker process killed mid-delivery loses nothing; the survivors resend with the same webhook-id', async () => {
    const N = 40;
    await receiver?.close();
    // Hold every request of the first round open so the kill lands mid-delivery.
    let holding = true;
    receiver = await startReceiver(() => (holding ? { status: 200, delayMs: 60_000 } : { status: 200 }));
    const org = await createOrganization(testDb.db);
    const hook = await createWebhook(testDb.db, org, receiver.url, ['contacts.created']);
    receiver.secret = hook.signing_secret;
    await createContacts(testDb.db, org, N);

    const child = spawn(process.execPath, ['--import', 'tsx', WORKER_SCRIPT, testDb.url as string], {
      env: { ...process.env, WORKER_LEASE_SECONDS: '3', WORKER_TIMEOUT_MS: '2000', WORKER_CONCURRENCY: '10' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    await waitFor(() => receiver!.receipts.length >= 10, 30_000, 'the child worker to be sending');
    const inFlight = new Set(receiver.receipts.map((receipt) => receipt.id));
    child.kill('SIGKILL');
    await once(child, 'exit');
    holding = false;

    const worker = startWebhookWorker(testDb.db, config, undefined, { pollIntervalMs: 20, leaseSeconds: 3, timeoutMs: 2000 });
    try {
      await waitFor(async () => (await countByStatus(testDb.db, hook.id)).sent === N, 60_000, `${N} sent`);
    } finally {
      await worker.stop();
    }
    const counts = receiptsById(receiver);
    assert.equal(counts.size, N, 'every notification arrived');
    for (const id of inFlight) assert.equal(counts.get(id), 2, 'the ones in flight at the kill were sent again');
    for (const [id, n] of counts) if (!inFlight.has(id)) assert.equal(n, 1, 'the others once');
    assert.ok(receiver.receipts.every((receipt) => receipt.concurrentSameId === 1 || inFlight.has(receipt.id)));
  });

  it('runWorkerCommand (staykit worker) delivers and stops cleanly on SIGTERM', async () => {
    await receiver?.close();
    receiver = await startReceiver(() => ({ status: 200, delayMs: 300 }));
    const org = await createOrganization(testDb.db);
    const hook = await createWebhook(testDb.db, org, receiver.url, ['contacts.created']);
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER_COMMAND], {
      env: { ...process.env, DATABASE_URL: testDb.url, STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(child);
    await createContacts(testDb.db, org, 3);
    await waitFor(() => receiver!.receipts.length >= 1, 30_000, 'a delivery from the worker process');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
    // Whatever it had in flight when told to stop was recorded, not abandoned to the lease.
    const { rows } = await testDb.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM staykit_internal.webhook_queue WHERE webhook_id = $1 AND lease_token IS NOT NULL`,
      [hook.id],
    );
    assert.equal(rows[0]?.n, 0);
    const counts = await countByStatus(testDb.db, hook.id);
    assert.equal((counts.sent ?? 0) + (counts.pending ?? 0), 3);
    assert.ok((counts.sent ?? 0) >= 1);
  });
});
