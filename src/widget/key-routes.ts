/**
 * Publishable keys through the API, for a secret key with the widgets scope: `POST /v1/publishable-keys`
 * `{widget_id | site_id, name?}` (201, the key), `GET /v1/publishable-keys` (the organization's keys),
 * `DELETE /v1/publishable-keys/<id or key>` (revokes; 200 with the revoked key).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Authorize } from '../auth/authorize.js';
import { createPublishableKey, listPublishableKeys, revokePublishableKey } from '../auth/publishable-key-store.js';
import { UUID } from '../common/patterns.js';
import type { Database } from '../db/types.js';
import { notFound } from '../errors/catalogue.js';
import { widgetErrors } from './errors.js';
import { MAX_KEY_NAME_LENGTH } from './bodies.js';
import { refuseOtherMethods } from '../common/other-methods.js';

export interface PublishableKeyRouteOptions {
  db: Database;
  authorize: Authorize;
}

interface NewKeyBody {
  widgetId: string | null;
  siteId: string | null;
  name: string;
}

function optionalId(body: Record<string, unknown>, name: string): string | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !UUID.test(value)) throw widgetErrors.badRequest(`${name} must be a uuid`);
  return value;
}

export function parseNewKey(body: unknown): NewKeyBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw widgetErrors.badRequest('The body must be a JSON object');
  const fields = body as Record<string, unknown>;
  const widgetId = optionalId(fields, 'widget_id');
  const siteId = optionalId(fields, 'site_id');
  if ((widgetId === null) === (siteId === null)) throw widgetErrors.badRequest('Give exactly one of widget_id and site_id');
  const name = fields.name ?? '';
  if (typeof name !== 'string' || name.length > MAX_KEY_NAME_LENGTH) throw widgetErrors.badRequest(`name must be a string of at most ${MAX_KEY_NAME_LENGTH} characters`);
  return { widgetId, siteId, name };
}

export const publishableKeyRoutes: FastifyPluginAsync<PublishableKeyRouteOptions> = async (app, { db, authorize }) => {
  refuseOtherMethods(app, '/publishable-keys', ['GET', 'POST']);
  refuseOtherMethods(app, '/publishable-keys/:id', ['DELETE']);

  app.post('/publishable-keys', async (request, reply) => {
    const principal = await authorize(request, 'widgets', 'write');
    const body = parseNewKey(request.body);
    const key = await createPublishableKey(db, { organizationId: principal.organizationId, ...body });
    if (!key) throw notFound(body.widgetId ? `Widget ${body.widgetId} not found` : `Site ${body.siteId} not found`);
    return reply.status(201).send(key);
  });

  app.get('/publishable-keys', async (request, reply) => {
    const principal = await authorize(request, 'widgets', 'read');
    return reply.send(await listPublishableKeys(db, principal.organizationId));
  });

  app.delete<{ Params: { id: string } }>('/publishable-keys/:id', async (request, reply) => {
    const principal = await authorize(request, 'widgets', 'write');
    const key = await revokePublishableKey(db, principal.organizationId, request.params.id);
    if (!key) throw notFound(`Publishable key ${request.params.id} not found`);
    return reply.send(key);
  });
};
