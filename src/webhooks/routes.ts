/**
 * The webhook operations' HTTP routes, ready to register next to the resource API:
 * - `POST /v1/webhook-test` `{"webhook_id"}` → 200 `{id, ok, status, response}`: one signed `webhook.test` message
 *   sent now and recorded in the delivery log (scope `webhooks:write`);
 * - `POST /v1/webhook-redeliver` `{"ids": [notification ids]}` → 200 `{"requeued": [ids]}`: those notifications
 *   pending again, due now (scope `webhooks:write`, and the read scopes of their events' payloads: 403 SK742
 *   otherwise, ./event-scopes.ts; ids of other organizations are ignored). The test message carries no data, so
 *   `webhook-test` needs `webhooks:write` alone;
 * - the resource API's write hook for `webhooks` (POST/PATCH): 400 when an `endpoint` can never be delivered to
 *   under the outbound rules (http, private or metadata addresses), instead of letting every delivery fail; and the
 *   signing secrets, issued by the server and shown once. Whether the key may subscribe to, repoint or enable the
 *   webhook's events (their read scopes) is the database's to say, whatever the route (migration 0207).
 * - `GET /v1/webhook-events` → 200 `[{name, resource, description, read_scopes, allowed}]`: the event catalogue
 *   (./catalogue.ts), `allowed` saying whether this key holds the read scopes to subscribe to it (scope `webhooks:read`).
 * The operations run on the server's connection (the queue is internal), scoped by the key's organization.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/types.js';
import { notFound } from '../errors/catalogue.js';
import { apiError } from '../errors/registry.js';
import type { Authorize } from '../auth/authorize.js';
import type { JsonRow, WriteHook } from '../query/serve.js';
import { checkWebhookEndpoint } from './endpoint.js';
import { notificationReadScopes, requeueNotifications, sendTestEvent } from './redeliver.js';
import { missingEventScope } from './event-scopes.js';
import { loadEventCatalogue } from './catalogue.js';
import { hasScope } from '../auth/scopes.js';
import { refuseOtherMethods } from '../common/other-methods.js';
import { generateSigningSecret } from './signature.js';
import { registerRoute } from '../routing/route-schema.js';
import { webhookEvents, webhookRedeliver, webhookTest, type WebhookEventType, type WebhookTestResult } from './bodies.js';
import type { WebhookWorker, WorkerConfig } from './worker.js';

/** The endpoint guard waits this long for DNS at most; a slow or failing lookup is left to delivery time. */
const GUARD_DNS_TIMEOUT_MS = 2_000;

export interface WebhookRouteDeps {
  db: Database;
  authorize: Authorize;
  config: WorkerConfig;
  /** The embedded worker, if any: woken after a redelivery instead of waiting for its next poll. */
  worker?: () => WebhookWorker | undefined;
}

/** 400 when the endpoints of a webhook write can never be delivered to. */
async function guardEndpoints(rows: JsonRow[], allowPrivate: boolean): Promise<void> {
  for (const row of rows) {
    const endpoint = row.endpoint;
    if (typeof endpoint !== 'string') continue;
    const problem = await Promise.race([
      checkWebhookEndpoint(endpoint, allowPrivate),
      delay(GUARD_DNS_TIMEOUT_MS, undefined, { ref: false }),
    ]);
    if (problem?.kind === 'refused') {
      throw apiError('SK420', { details: problem.message });
    }
  }
}

/**
 * Fills in the signing secrets a write will store: each created row without one gets a new secret, and a PATCH
 * to null rotates. Returns them by row (a PATCH's one secret applies to every updated row) so the response can
 * show them this once: the API role cannot read the column back (migration 0052).
 */
function issueSecrets(action: 'insert' | 'update', rows: JsonRow[]): { perRow: string[]; rotated: string | undefined } | undefined {
  if (action === 'insert') {
    const perRow = rows.map((row) => {
      if (typeof row.signing_secret !== 'string') row.signing_secret = generateSigningSecret();
      return row.signing_secret as string;
    });
    return { perRow, rotated: undefined };
  }
  const [row] = rows;
  if (!row || !('signing_secret' in row)) return undefined;
  if (row.signing_secret === null) row.signing_secret = generateSigningSecret();
  return typeof row.signing_secret === 'string' ? { perRow: [], rotated: row.signing_secret } : undefined;
}

/**
 * The resource API's write hook for `webhooks` (run by the engine after authentication and scope checks, before
 * the statement): refuse endpoints that can never be delivered to, and issue signing secrets shown once in the
 * response.
 */
export function webhookWriteHook(config: Pick<WorkerConfig, 'outboundAllowPrivate'>): WriteHook {
  return async ({ action, rows }) => {
    await guardEndpoints(rows, config.outboundAllowPrivate);
    const secrets = issueSecrets(action, rows);
    if (!secrets) return undefined;
    return {
      rows,
      representation: (returned) => {
        returned.forEach((row, index) => {
          const secret = secrets.rotated ?? secrets.perRow[index];
          if (secret !== undefined) row.signing_secret = secret;
        });
      },
    };
  };
}

/** Registered under the API's `/v1` prefix. */
export const webhookRoutes: FastifyPluginAsync<WebhookRouteDeps> = async (app, deps) => {
  const { db, authorize, config } = deps;
  refuseOtherMethods(app, '/webhook-test', ['POST']);
  registerRoute(app, webhookTest, authorize, async (request, reply, principal) => {
    const webhookId = request.body.webhook_id.toLowerCase();
    const result = await sendTestEvent(db, config, principal.organizationId, webhookId);
    if (!result) throw notFound(`No webhook ${webhookId}`);
    if (result.refusedDetail !== undefined) request.log.warn({ webhook_id: webhookId, detail: result.refusedDetail }, 'webhook test target refused');
    const answer: WebhookTestResult = { id: result.id, ok: result.ok, status: result.status ?? null, response: result.response };
    return reply.send(answer);
  });

  refuseOtherMethods(app, '/webhook-events', ['GET']);
  registerRoute(app, webhookEvents, authorize, async (_request, reply, principal) => {
    const catalogue = await loadEventCatalogue(db);
    const answer: WebhookEventType[] = catalogue.map((event) => ({
      ...event,
      allowed: event.read_scopes.every((table) => hasScope(principal.scopes, table, 'read')),
    }));
    return reply.send(answer);
  });

  refuseOtherMethods(app, '/webhook-redeliver', ['POST']);
  registerRoute(app, webhookRedeliver, authorize, async (request, reply, principal) => {
    const notificationIds = request.body.ids.map((id) => id.toLowerCase());
    const refusal = missingEventScope(principal.scopes, await notificationReadScopes(db, principal.organizationId, notificationIds));
    if (refusal) throw refusal;
    const requeued = await requeueNotifications(db, principal.organizationId, notificationIds);
    if (requeued.length > 0) deps.worker?.()?.wake();
    return reply.send({ requeued });
  });
};
