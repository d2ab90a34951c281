/**
 * Test helpers for webhooks: a loopback receiver that verifies signatures as a real receiver would (with our
 * `verifyWebhook` and, when installed, the `standardwebhooks` package), organizations and webhooks, and polling.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database, Queryable } from '../../src/db/types.js';
import { verifyWebhook } from '../../src/webhooks/signature.js';
import { fixtures, organization, type Row } from '../support/fixtures.js';

type StandardWebhook = { verify(payload: string, headers: Record<string, string>): unknown };
type StandardWebhookConstructor = new (secret: string) => StandardWebhook;

/** The reference verifier, when the `standardwebhooks` package is installed (a devDependency). */
export const StandardWebhooks: StandardWebhookConstructor | undefined = await import('standardwebhooks' as string).then(
  (module: { Webhook: StandardWebhookConstructor }) => module.Webhook,
  () => undefined,
);

export interface Receipt {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** Our verifier accepted it with the webhook's secret. */
  verified: boolean;
  /** The standardwebhooks package accepted it (undefined when the package is not installed). */
  libraryVerified: boolean | undefined;
  /** How many requests with this webhook-id were being handled at the same time as this one (itself included). */
  concurrentSameId: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait before answering (ms). */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  receipts: Receipt[];
  /** Decides each answer; `attempt` is 1 for the first request with a given webhook-id. */
  reply: (receipt: Receipt, attempt: number) => Reply;
  /** Secret to verify with (set once the webhook exists). */
  secret: string | undefined;
  /** The most requests that were being handled at once. */
  maxConcurrent: number;
  /** TCP connections accepted (keep-alive reuses them). */
  connections: number;
  close(): Promise<void>;
}

export async function startReceiver(reply: Receiver['reply'] = () => ({ status: 204 })): Promise<Receiver> {
  const attempts = new Map<string, number>();
  const active = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const receiver = { receipts: [] as Receipt[], reply, secret: undefined as string | undefined, maxConcurrent: 0, connections: 0 } as Receiver;
  let handling = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
      const id = headers['webhook-id'] ?? '';
      active.set(id, (active.get(id) ?? 0) + 1);
      handling += 1;
      receiver.maxConcurrent = Math.max(receiver.maxConcurrent, handling);
      let verified = false;
      let libraryVerified: boolean | undefined;
      if (receiver.secret) {
        try {
          verifyWebhook(receiver.secret, body, headers);
          verified = true;
        } catch {
          verified = false;
        }
        if (StandardWebhooks) {
          try {
            new StandardWebhooks(receiver.secret).verify(body, headers);
            libraryVerified = true;
          } catch {
            libraryVerified = false;
          }
        }
      }
      const receipt: Receipt = {
        id,
        timestamp: headers['webhook-timestamp'] ?? '',
        signature: headers['webhook-signature'] ?? '',
        body,
        verified,
        libraryVerified,
        concurrentSameId: active.get(id) ?? 1,
      };
      receiver.receipts.push(receipt);
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      const answer = receiver.reply(receipt, attempt);
      const send = () => {
        active.set(id, (active.get(id) ?? 1) - 1);
        handling -= 1;
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, answer.delayMs);
        timers.add(timer);
      } else {
        send();
      }
    });
  });
  server.on('clientError', () => undefined);
  server.on('connection', () => (receiver.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = async () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

export async function createOrganization(db: Queryable, name = 'Test organization'): Promise<string> {
  return organization(db, { name });
}

export interface TestWebhook {
  id: string;
  signing_secret: string;
}

export async function createWebhook(db: Queryable, organizationId: string, endpoint: string, events: string[] = ['*']): Promise<TestWebhook> {
  const { id, signing_secret } = await fixtures(db, organizationId).row<TestWebhook & Row>('webhooks', { endpoint, events });
  return { id, signing_secret };
}

export async function createContact(db: Queryable, organizationId: string, firstName = 'Ada'): Promise<string> {
  return fixtures(db, organizationId).contact({ first_name: firstName });
}

export interface NotificationRow {
  id: string;
  webhook_id: string;
  event_type: string;
  payload: Record<string, unknown>;
  status: string;
  tries: number;
  response: string | null;
}

export async function notifications(db: Queryable, webhookId: string): Promise<NotificationRow[]> {
  const { rows } = await db.query<NotificationRow>(
    `SELECT id, webhook_id, event_type, payload, status, tries, response
     FROM api.webhook_notifications WHERE webhook_id = $1 ORDER BY created_at, event_type, id`,
    [webhookId],
  );
  return rows;
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Makes every queued notification of `webhookId` due now (skips the wait of a retry), for fast tests. */
export async function makeDue(db: Database, webhookId: string): Promise<void> {
  await db.query(
    `UPDATE staykit_internal.webhook_queue SET run_at = now() - interval '1 second'
     WHERE webhook_id = $1 AND lease_token IS NULL`,
    [webhookId],
  );
}

/** Worker settings without the fairness caps (benchmarks of raw throughput to one endpoint). */
export const UNCAPPED = { webhookInFlightPerEndpoint: 1_000_000, webhookInFlightPerOrganization: 1_000_000 };
