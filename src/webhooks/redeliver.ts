/**
 * Operations behind `POST /v1/webhook-redeliver` and `POST /v1/webhook-test`. Both take the organization from the
 * API key and run on the server's own connection (not as staykit_api): the queue is internal.
 */
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/types.js';
import { attempt, type AttemptResult } from './deliver.js';
import { findWebhook, notificationEventTypes, recordTestNotification, requeue } from './queries.js';
import { eventReadScopes, type EventReadScopes } from './event-scopes.js';
import type { WorkerConfig } from './worker.js';

/**
 * Makes the given notifications of the organization pending again, due now with a fresh retry schedule.
 * Ids of other organizations, or unknown, are ignored. Returns the ids re-queued.
 */
export async function requeueNotifications(db: Queryable, organizationId: string, notificationIds: readonly string[]): Promise<string[]> {
  if (notificationIds.length === 0) return [];
  const query = requeue(organizationId, notificationIds);
  const { rows } = await db.query<{ id: string }>(query.text, query.values);
  return rows.map((row) => row.id);
}

/** The read scopes the payloads of these notifications of the organization need (unknown ids need none). */
export async function notificationReadScopes(db: Queryable, organizationId: string, notificationIds: readonly string[]): Promise<EventReadScopes> {
  const query = notificationEventTypes(organizationId, notificationIds);
  const { rows } = await db.query<{ event_type: string }>(query.text, query.values);
  return eventReadScopes(db, rows.map((row) => row.event_type));
}

export const TEST_EVENT_TYPE = 'webhook.test';

export interface TestDelivery extends AttemptResult {
  /** The `webhook-id` of the test message (not stored). */
  id: string;
  ok: boolean;
}

/**
 * Sends one signed test message `{"id", "date", "event_type": "webhook.test", "payload": {"webhook_id"}}` to the
 * webhook now, records it in the delivery log as a notification (sent or error, one try: migration 0217), and returns
 * what happened. A disabled webhook may be tested (to check it is back before enabling it). Undefined when the webhook does not exist in the organization.
 */
export async function sendTestEvent(
  db: Database,
  config: WorkerConfig,
  organizationId: string,
  webhookId: string,
  options: { timeoutMs?: number } = {},
): Promise<TestDelivery | undefined> {
  const query = findWebhook(organizationId, webhookId);
  const { rows } = await db.query<{ id: string; endpoint: string; signing_secret: string }>(query.text, query.values);
  const webhook = rows[0];
  if (!webhook) return undefined;
  const id = randomUUID();
  const body = JSON.stringify({
    id,
    date: Math.floor(Date.now() / 1000),
    event_type: TEST_EVENT_TYPE,
    payload: { webhook_id: webhook.id },
  });
  const result = await attempt(
    { id, endpoint: webhook.endpoint, signing_secret: webhook.signing_secret, body },
    { allowPrivate: config.outboundAllowPrivate, timeoutMs: options.timeoutMs },
  );
  const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
  // In the delivery log with the others (and redeliverable), as the one try it was.
  const record = recordTestNotification(organizationId, webhook.id, { id, body, ok, response: result.response });
  await db.query(record.text, record.values);
  return { id, ok, ...result };
}
