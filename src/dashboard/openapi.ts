/**
 * The dashboard's login API (/auth, src/auth/session-routes.ts) and its own API (/admin/api: API keys, invitations,
 * a member's notifications) in the OpenAPI document, outside /v1 (each path names the server root), under the tag
 * `dashboard`; src/openapi/document.ts adds them. The /admin/api operations are those of their route definitions
 * (bodies.ts) at the prefixes they are mounted on; the /auth ones are written here, with the bodies of
 * src/auth/session-bodies.ts. A session cookie authenticates them, never an API key.
 */
import { LoggedIn, LoginRequest, OrganizationRequest, PasswordSet, SessionState, SetPasswordRequest } from '../auth/session-bodies.js';
import { openApiPaths, type RouteDefinition } from '../http/route-schema.js';
import { DASHBOARD_ROUTES, KEYS_PATH, RevokedApiKey } from './bodies.js';

type Json = Record<string, unknown>;

export const DASHBOARD_TAG = { name: 'dashboard', description: "The dashboard's login and its own API, outside /v1, with a session cookie (docs/dashboard.md#sessions-api)." };

const tags = [DASHBOARD_TAG.name];
const servers = [{ url: '/', description: 'The server root (outside /v1)' }];
const session = [{ sessionCookie: [] }];
const csrf = [{ $ref: '#/components/parameters/csrfToken' }];
const json = (schema: object) => ({ 'application/json': { schema } });
const body = (schema: object) => ({ required: true, content: json(schema) });
const answer = (description: string, schema: object) => ({ description, content: json(schema) });
const STATUS: Record<string, number> = {
  BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, Conflict: 409, TooManyRequests: 429, BadGateway: 502,
};
const errors = (...names: string[]) => Object.fromEntries(names.map((name) => [STATUS[name], { $ref: `#/components/responses/${name}` }]));

export const dashboardPaths: Record<string, Json> = {
  '/auth/login': {
    servers,
    post: {
      tags, operationId: 'auth_login', summary: 'Log in', security: [],
      description: 'Sets the session cookie (a new one on every login) and starts in the first organization of the user. '
        + 'An unknown address and a wrong password get the same 401 (SK700); tries are limited per address and client (429).',
      requestBody: body(LoginRequest),
      responses: { 200: answer('Logged in.', LoggedIn), ...errors('BadRequest', 'Unauthorized', 'Forbidden', 'TooManyRequests') },
    },
  },
  '/auth/logout': {
    servers,
    post: {
      tags, operationId: 'auth_logout', summary: 'Log out', security: [], parameters: csrf,
      description: 'Ends the session and clears the cookie; a cookie without a live session is just cleared (no token needed then).',
      responses: { 204: { description: 'Logged out.' }, ...errors('Forbidden') },
    },
  },
  '/auth/session': {
    servers,
    get: {
      tags, operationId: 'auth_session', summary: 'Who is logged in, where, with which permissions', security: session,
      responses: { 200: answer('The session.', SessionState), ...errors('Unauthorized') },
    },
  },
  '/auth/organization': {
    servers,
    post: {
      tags, operationId: 'auth_organization', summary: 'Work in another organization of the user', security: session, parameters: csrf,
      requestBody: body(OrganizationRequest),
      responses: { 200: answer('The session, in that organization.', SessionState), ...errors('BadRequest', 'Unauthorized', 'Forbidden') },
    },
  },
  '/auth/set-password': {
    servers,
    post: {
      tags, operationId: 'auth_set_password', summary: 'Set a password with a one-time link', security: [],
      description: 'The link (from an invitation or `staykit user reset-password`) works once; every session of the user ends.',
      requestBody: body(SetPasswordRequest),
      responses: { 200: answer('Set: log in with it.', PasswordSet), ...errors('BadRequest') },
    },
  },
  [`${KEYS_PATH}/{id}`]: {
    servers,
    delete: {
      tags, operationId: 'admin_api_keys_revoke', summary: 'Revoke an API key', security: session, parameters: [
        ...csrf, { name: 'id', in: 'path', required: true, description: 'The key\'s id or key_id.', schema: { type: 'string' } },
      ],
      description: 'Permission `api_keys:write`.',
      responses: { 200: answer('The revoked key.', RevokedApiKey), ...errors('Unauthorized', 'Forbidden', 'NotFound') },
    },
  },
  ...mounted(DASHBOARD_ROUTES),
};

/** The operations of the definitions, at the prefix each is mounted on, served from the root with the session cookie. */
function mounted(routes: readonly { prefix: string; definitions: readonly RouteDefinition[] }[]): Record<string, Json> {
  return Object.fromEntries(routes.flatMap(({ prefix, definitions }) => Object.entries(openApiPaths(definitions).paths).map(([path, item]) => [
    path === '/' ? prefix : `${prefix}${path}`,
    { servers, ...Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, { ...(operation as Json), security: session }])) },
  ])));
}
