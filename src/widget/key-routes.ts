/**
 * Publishable keys through the API, for a secret key with the widgets scope: `POST /v1/publishable-keys`
 * `{widget_id | site_id, name?}` (201, the key), `GET /v1/publishable-keys` (the organization's keys),
 * `DELETE /v1/publishable-keys/<id or key>` (revokes; 200 with the revoked key).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Authorize } from '../auth/authorize.js';
import { createPublishableKey, listPublishableKeys, revokePublishableKey } from '../auth/publishable-key-store.js';
import type { Database } from '../db/types.js';
import { notFound } from '../errors/catalogue.js';
import { widgetErrors } from './errors.js';
import { publishableKeysCreate, publishableKeysList, publishableKeysRevoke } from './bodies.js';
import { registerRoute } from '../routing/route-schema.js';
import { refuseOtherMethods } from '../common/other-methods.js';

export interface PublishableKeyRouteOptions {
  db: Database;
  authorize: Authorize;
}

/** One of widget_id and site_id; the schema checked the rest (bodies.ts). */
function target(body: { widget_id?: string | null; site_id?: string | null }): { widgetId: string | null; siteId: string | null } {
  const widgetId = body.widget_id ?? null;
  const siteId = body.site_id ?? null;
  if ((widgetId === null) === (siteId === null)) throw widgetErrors.badRequest('Give exactly one of widget_id and site_id');
  return { widgetId, siteId };
}

export const publishableKeyRoutes: FastifyPluginAsync<PublishableKeyRouteOptions> = async (app, { db, authorize }) => {
  refuseOtherMethods(app, '/publishable-keys', ['GET', 'POST']);
  refuseOtherMethods(app, '/publishable-keys/:id', ['DELETE']);

  registerRoute(app, publishableKeysCreate, authorize, async (request, reply, principal) => {
    const { widgetId, siteId } = target(request.body);
    const key = await createPublishableKey(db, { organizationId: principal.organizationId, widgetId, siteId, name: request.body.name ?? '' });
    if (!key) throw notFound(widgetId ? `Widget ${widgetId} not found` : `Site ${siteId} not found`);
    return reply.status(201).send(key);
  });

  registerRoute(app, publishableKeysList, authorize, async (_request, reply, principal) =>
    reply.send(await listPublishableKeys(db, principal.organizationId)));

  registerRoute(app, publishableKeysRevoke, authorize, async (request, reply, principal) => {
    const key = await revokePublishableKey(db, principal.organizationId, request.params.id);
    if (!key) throw notFound(`Publishable key ${request.params.id} not found`);
    return reply.send(key);
  });
};
