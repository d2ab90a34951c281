/**
 * POST /v1/inbound-email (bodies.ts): a mail provider's inbound webhook, authenticated with HTTP Basic (the password
 * STAYKIT_INBOUND_WEBHOOK_SECRET), stored through the same function as the SMTP listener's mail (store.ts). Its
 * body may be as large as an inbound e-mail (STAYKIT_INBOUND_MAX_BYTES), base64 and JSON included.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Database } from '../db/types.js';
import { refuseOtherMethods } from '../common/other-methods.js';
import { registerPublicRoute } from '../routing/route-schema.js';
import { inboundEmailRoute } from './bodies.js';
import { inboundNotForStaykit, inboundWebhookOff, inboundWebhookUnauthorized } from './errors.js';
import { postmarkMail } from './postmark.js';
import type { MediaStore } from '../media/store.js';
import type { ReplyAddresses } from './reply-address.js';
import { storeInboundMail } from './store.js';

export interface InboundRouteOptions {
  db: Database;
  /** The reply addresses and the webhook's secret; either unset = the route answers 404 SK690. */
  addresses: ReplyAddresses | undefined;
  secret: string | undefined;
  maxBytes: number;
  /** Where the mail's files are kept (the media store). */
  store: MediaStore;
}

/** The password of an `Authorization: Basic` header (the user name is not checked). */
function basicPassword(request: FastifyRequest): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const inboundRoutes: FastifyPluginAsync<InboundRouteOptions> = async (app, options) => {
  const { db, addresses, secret } = options;
  const storage = { store: options.store, maxBytes: options.maxBytes };
  // Attachments travel as base64 (4/3 of their size) in JSON: room for a mail of the largest size allowed.
  const bodyLimit = Math.ceil(options.maxBytes * 4 / 3) + 64 * 1024;
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, app.getDefaultJsonParser('error', 'error'));
  refuseOtherMethods(app, '/inbound-email', ['POST']);
  // Who may post is settled before the body is looked at, as for every route with a key.
  app.addHook('preValidation', async (request) => {
    if (addresses === undefined || secret === undefined) throw inboundWebhookOff();
    if (!sameSecret(basicPassword(request), secret)) throw inboundWebhookUnauthorized();
  });
  registerPublicRoute(app, inboundEmailRoute, async (request, reply) => {
    if (addresses === undefined) throw inboundWebhookOff();
    const outcome = await storeInboundMail(db, addresses, storage, postmarkMail(request.body));
    if (outcome.kind === 'unthreaded') throw inboundNotForStaykit();
    request.log.info({ outcome: outcome.kind, booking_id: outcome.bookingId }, 'inbound e-mail received');
    return reply.send(outcome.kind === 'stored' ? { outcome: 'stored', message_id: outcome.messageId } : { outcome: 'duplicate' });
  });
};
