/**
 * Webhook deliveries are isolated between tenants: one organization's endpoint that never answers, with a large
 * backlog, holds at most the per-endpoint cap of the worker's slots (and all of an organization's webhooks at most
 * the per-organization cap), and another organization's notification is delivered meanwhile.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { startWebhookWorker, type WebhookWorker, type WorkerConfig } from '../../src/webhooks/worker.js';
import { createContact, createOrganization, createWebhook, startReceiver, waitFor, type Receiver } from './support.js';

/** A receiver that accepts requests and never answers; counts the requests open at once (until the sender gives up). */
interface BlackHole {
  url: string;
  received: number;
  open: number;
  maxOpen: number;
  close(): Promise<void>;
}

async function startBlackHole(): Promise<BlackHole> {
  const hole = { received: 0, open: 0, maxOpen: 0 } as BlackHole;
  const server = http.createServer((req, res) => {
    hole.received += 1;
    hole.open += 1;
    hole.maxOpen = Math.max(hole.maxOpen, hole.open);
    res.on('close', () => (hole.open -= 1));
    req.resume();
  });
  server.on('clientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hole.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hole.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return hole;
}

// Every failed attempt is due again at once, so the stuck backlog keeps pressing on the slots.
const config: WorkerConfig = { webhookRetrySchedule: Array(10).fill(0) as number[], outboundAllowPrivate: true };
const PER_ENDPOINT = 5;
const PER_ORGANIZATION = 25;

forEachBackend('webhook deliveries are fair between organizations', (ctx) => {
  let hole: BlackHole;
  let receiver: Receiver;
  let worker: WebhookWorker | undefined;

  before(async () => {
    hole = await startBlackHole();
    receiver = await startReceiver(() => ({ status: 204 }));
  });
  after(async () => {
    await worker?.stop();
    await hole.close();
    await receiver.close();
  });

  /** Org B: one webhook to the answering receiver and one notification for it. */
  async function oneNotificationForAnotherOrganization(): Promise<void> {
    const orgB = await createOrganization(ctx.db, 'Patient');
    const hookB = await createWebhook(ctx.db, orgB, receiver.url, ['contacts.created']);
    receiver.secret = hookB.signing_secret;
    await createContact(ctx.db, orgB, 'Bea');
  }

  function start(): void {
    // 100 slots, short deadline: the stuck deliveries time out and are claimed again many times during the test.
    worker = startWebhookWorker(ctx.db, { ...config, webhookInFlightPerEndpoint: PER_ENDPOINT, webhookInFlightPerOrganization: PER_ORGANIZATION },
      undefined, { pollIntervalMs: 50, concurrency: 100, timeoutMs: 300, leaseSeconds: 5 });
  }

  it('an endpoint that never answers, with 1,000 queued, holds at most its cap while another organization is served', async () => {
    const orgA = await createOrganization(ctx.db, 'Stuck');
    await createWebhook(ctx.db, orgA, `${hole.url}/a`, ['contacts.created']);
    await fixtures(ctx.db, orgA).rows('contacts', Array.from({ length: 1000 }, (_, i) => ({ first_name: `Guest ${i + 1}` })));
    await oneNotificationForAnotherOrganization();
    let stuckBeforeOther: number | undefined;
    receiver.reply = () => {
      stuckBeforeOther ??= hole.received;
      return { status: 204 };
    };
    start();
    try {
      await waitFor(() => receiver.receipts.length >= 1, 20_000, "the other organization's notification");
      // Let the stuck endpoint go through several rounds of timeouts and fresh claims.
      await waitFor(() => hole.received >= 4 * PER_ENDPOINT, 20_000, 'several rounds of stuck deliveries');
    } finally {
      await worker!.stop();
      worker = undefined;
    }
    assert.equal(receiver.receipts[0]!.verified, true);
    // Not behind the backlog: the worker's 100 slots did not all go to the stuck endpoint first.
    assert.ok(stuckBeforeOther! < 100, `served after ${stuckBeforeOther} stuck deliveries`);
    assert.equal(hole.maxOpen, PER_ENDPOINT, `at most ${PER_ENDPOINT} in flight to the stuck endpoint, saw ${hole.maxOpen}`);
  });

  it("all of one organization's webhooks together hold at most the organization's cap", async () => {
    receiver.receipts.length = 0;
    hole.maxOpen = 0;
    hole.received = 0;
    await ctx.db.query('DELETE FROM staykit_internal.webhook_queue');
    const orgA = await createOrganization(ctx.db, 'Many hooks');
    for (let i = 0; i < 10; i += 1) await createWebhook(ctx.db, orgA, `${hole.url}/hook-${i}`, ['contacts.created']);
    await fixtures(ctx.db, orgA).rows('contacts', Array.from({ length: 20 }, (_, i) => ({ first_name: `Guest ${i + 1}` })));
    await oneNotificationForAnotherOrganization();
    start();
    try {
      await waitFor(() => receiver.receipts.length >= 1, 20_000, "the other organization's notification");
      await waitFor(() => hole.received >= 2 * PER_ORGANIZATION, 20_000, 'several rounds of stuck deliveries');
    } finally {
      await worker!.stop();
      worker = undefined;
    }
    assert.equal(hole.maxOpen, PER_ORGANIZATION, `at most ${PER_ORGANIZATION} in flight for the organization, saw ${hole.maxOpen}`);
  });
});
