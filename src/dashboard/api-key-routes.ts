/**
 * API keys of the session's organization, for the dashboard's settings page: list, create (the secret is in the
 * creation answer only) and revoke. Only a dashboard session reaches these routes, never an API key, so a leaked
 * key still cannot mint others (docs/dashboard.md#api-keys). Who may: a member whose scopes include `api_keys:read`
 * (list) or `api_keys:write` (create, revoke) — owners and admins hold every scope — and a key never gets a scope
 * its creator lacks.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/types.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-key-store.js';
import { hasScope, type Access } from '../auth/scopes.js';
import type { SessionAuthenticator } from '../auth/session-authenticate.js';
import { sessionErrors } from '../auth/session-errors.js';
import { notFound } from '../errors/catalogue.js';
import { newKeyInput } from './api-key-input.js';
import { apiKeysCreate, apiKeysList, apiKeysRevoke } from './bodies.js';
import { registerRoute } from '../routing/route-schema.js';
import { dashboardAuthorization } from '../auth/session-authorize.js';

export interface ApiKeyRouteOptions {
  db: Database;
  sessions: SessionAuthenticator;
  /** Resource names a `<resource>:…` scope may name. */
  resources: ReadonlySet<string>;
}

/** A scope is within the member's when the member holds what it grants (`read` needs `read` or `write`, …). */
function covers(memberScopes: readonly string[], scope: string): boolean {
  const [resource, access] = scope.includes(':') ? scope.split(':') as [string, Access] : [undefined, scope as Access];
  if (resource !== undefined) return hasScope(memberScopes, resource, access);
  return memberScopes.includes('write') || (access === 'read' && memberScopes.includes('read'));
}

export const apiKeyRoutes: FastifyPluginAsync<ApiKeyRouteOptions> = async (app, { db, sessions, resources }) => {
  const { authorize, sessionOf } = dashboardAuthorization(sessions);

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  registerRoute(app, apiKeysList, authorize, async (_request, reply, principal) =>
    reply.send(await listApiKeys(db, principal.organizationId)));

  registerRoute(app, apiKeysCreate, authorize, async (request, reply, principal) => {
    const input = newKeyInput(request.body, resources, sessions.now());
    const beyond = input.scopes.find((scope) => !covers(sessionOf(request).scopes, scope));
    if (beyond !== undefined) throw sessionErrors.missingPermission(beyond);
    const key = await createApiKey(db, { organizationId: principal.organizationId, ...input });
    return reply.code(201).send(key);
  });

  registerRoute(app, apiKeysRevoke, authorize, async (request, reply, principal) => {
    const { id } = request.params;
    const key = (await listApiKeys(db, principal.organizationId)).find((row) => row.id === id || row.key_id === id);
    if (!key) throw notFound(`No API key ${id} in this organization`);
    return reply.send(await revokeApiKey(db, key.id));
  });
};
