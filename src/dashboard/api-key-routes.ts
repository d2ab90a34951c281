/**
 * API keys of the session's organization, for the dashboard's settings page: list, create (the secret is in the
 * creation answer only) and revoke. Only a dashboard session reaches these routes, never an API key, so a leaked
 * key still cannot mint others (docs/dashboard.md#api-keys). Who may: a member whose scopes include `api_keys:read`
 * (list) or `api_keys:write` (create, revoke) — owners and admins hold every scope — and a key never gets a scope
 * its creator lacks.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Database } from '../db/types.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-key-store.js';
import { hasScope, requiredScope, type Access } from '../auth/scopes.js';
import { SessionAuthenticator } from '../auth/session-authenticate.js';
import { sessionCookie } from '../auth/session-cookie.js';
import { sessionErrors } from '../auth/session-errors.js';
import { memberScopes } from '../auth/session-permissions.js';
import type { ActiveSession } from '../auth/session-store.js';
import { notFound } from '../errors/catalogue.js';
import { newKeyInput } from './api-key-input.js';

export interface ApiKeyRouteOptions {
  db: Database;
  sessions: SessionAuthenticator;
  /** Resource names a `<resource>:…` scope may name. */
  resources: ReadonlySet<string>;
}

const RESOURCE = 'api_keys';

/** A scope is within the member's when the member holds what it grants (`read` needs `read` or `write`, …). */
function covers(memberScopes: readonly string[], scope: string): boolean {
  const [resource, access] = scope.includes(':') ? scope.split(':') as [string, Access] : [undefined, scope as Access];
  if (resource !== undefined) return hasScope(memberScopes, resource, access);
  return memberScopes.includes('write') || (access === 'read' && memberScopes.includes('read'));
}

export const apiKeyRoutes: FastifyPluginAsync<ApiKeyRouteOptions> = async (app, { db, sessions, resources }) => {
  /** The request's session, allowed `access` to API keys; writes also carry the session's CSRF token. */
  async function memberOf(request: FastifyRequest, access: Access): Promise<{ session: ActiveSession; scopes: string[] }> {
    const session = await sessions.session(sessionCookie(request));
    if (access === 'write') SessionAuthenticator.requireCsrfToken(request, session);
    const scopes = memberScopes(session.member.role, session.member.permissions);
    if (!hasScope(scopes, RESOURCE, access)) throw sessionErrors.missingPermission(requiredScope(RESOURCE, access));
    return { session, scopes };
  }

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/', async (request) => {
    const { session } = await memberOf(request, 'read');
    return listApiKeys(db, session.organization.id);
  });

  app.post('/', async (request, reply) => {
    const { session, scopes } = await memberOf(request, 'write');
    const input = newKeyInput(request.body, resources, sessions.now());
    const beyond = input.scopes.find((scope) => !covers(scopes, scope));
    if (beyond !== undefined) throw sessionErrors.missingPermission(beyond);
    const key = await createApiKey(db, { organizationId: session.organization.id, ...input });
    return reply.code(201).send(key);
  });

  app.delete<{ Params: { id: string } }>('/:id', async (request) => {
    const { session } = await memberOf(request, 'write');
    const key = (await listApiKeys(db, session.organization.id)).find((row) => row.id === request.params.id || row.key_id === request.params.id);
    if (!key) throw notFound(`No API key ${request.params.id} in this organization`);
    return revokeApiKey(db, key.id);
  });
};
