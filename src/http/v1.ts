/**
 * Everything under `/v1`, registered with that prefix once: the iCal feeds and the OpenAPI document (no key), the
 * resource API, the booking flow, the webhook operations and media uploads. The principal decoration and the request log are set
 * up on this scope, so every authenticated `/v1` request is logged the same way.
 */
import type { FastifyPluginAsync } from 'fastify';
import { bookingRoutes } from '../booking/routes.js';
import { bookingLifecycleRoutes } from '../booking/lifecycle-routes.js';
import type { Config } from '../config.js';
import type { Database } from '../db/types.js';
import { icalRoutes } from '../ical/routes.js';
import { executeRefundsAfterResponse, moneyRoutes } from '../money/routes.js';
import { stripeClientFactory } from '../money/stripe-client.js';
import { openApiRoutes } from '../openapi/routes.js';
import type { SchemaCache } from '../schema/types.js';
import { webhookRoutes, webhookWriteHook } from '../webhooks/routes.js';
import { changeRoutes } from '../changes/routes.js';
import { automationRoutes } from '../automations/routes.js';
import { templateWriteHook } from '../automations/template-check.js';
import { messageWriteHook } from '../automations/message-check.js';
import type { WebhookWorker } from '../webhooks/worker.js';
import { apiAuthorization, staykitApi } from './staykit-api.js';
import type { SessionAuthenticator } from '../auth/session-authenticate.js';
import { publishableApi } from '../widget/publishable-api.js';
import type { ComputePool } from '../compute/pool.js';
import { mediaRoutes } from '../media/routes.js';
import { inboundRoutes } from '../inbox/routes.js';
import { replyAddressesFor } from '../inbox/reply-address.js';
import { attachmentRoutes } from '../inbox/attachment-routes.js';
import type { MediaStore } from '../media/store.js';

export interface V1RouteOptions {
  db: Database;
  cache: SchemaCache;
  config: Config;
  /** Where the request log is written (default `db`). */
  requestLogDb?: Database;
  statementTimeoutMs?: number;
  /** The clock behind the booking flow's "today" (default the system clock). */
  now?: () => Date;
  /** The webhook worker running in this process, if any (woken after a redelivery). */
  webhookWorker?: () => WebhookWorker | undefined;
  /** Dashboard sessions: requests with the session cookie run as the session's member. */
  sessions?: SessionAuthenticator;
  /** Worker threads for template checks, previews, invoice PDFs and images. */
  compute: ComputePool;
  /** Where uploaded images and inbound e-mails' files are written. */
  mediaStore: MediaStore;
}

export const v1Routes: FastifyPluginAsync<V1RouteOptions> = async (v1, options) => {
  const { db, cache, config, compute } = options;
  // Publishable keys (pk_…) first: their CORS and hooks cover every route registered below.
  const authorize = await publishableApi(v1, { db, authorize: apiAuthorization(v1, { db, requestLogDb: options.requestLogDb, sessions: options.sessions }) });
  await v1.register(icalRoutes, { db });
  await v1.register(openApiRoutes, { cache, db });
  await v1.register(staykitApi, {
    db, cache, authorize,
    statementTimeoutMs: options.statementTimeoutMs,
    writeHooks: new Map([
      ['webhooks', webhookWriteHook(config)],
      ['email_templates', templateWriteHook(compute)],
      ['message_templates', templateWriteHook(compute)],
      ['messages', messageWriteHook()],
    ]),
    maxPatternLength: config.maxPatternLength,
  });
  const money = { db, serverSecret: config.secretKey, stripe: stripeClientFactory(config.stripeApiUrl) };
  await v1.register(moneyRoutes, { ...money, authorize, compute });
  executeRefundsAfterResponse(v1, money);
  await v1.register(bookingRoutes, { db, authorize, now: options.now, outboundAllowPrivate: config.outboundAllowPrivate, payments: money });
  await v1.register(bookingLifecycleRoutes, { db, authorize, now: options.now });
  await v1.register(webhookRoutes, { db, authorize, config, worker: options.webhookWorker });
  await v1.register(changeRoutes, { db, authorize });
  await v1.register(automationRoutes, { db, authorize, config, now: options.now, compute });
  await v1.register(inboundRoutes, {
    db, addresses: replyAddressesFor(config), secret: config.inboundWebhookSecret, maxBytes: config.inboundMaxBytes,
    store: options.mediaStore,
  });
  await v1.register(attachmentRoutes, { db, authorize, store: options.mediaStore });
  await v1.register(mediaRoutes, {
    db, authorize, compute, store: options.mediaStore,
    maxBytes: config.mediaMaxBytes, maxPixels: config.mediaMaxPixels, perOrganization: config.mediaPerOrganization,
    timeLimitMs: config.mediaTimeoutSeconds * 1000,
  });
};
