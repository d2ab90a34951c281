/**
 * The dashboard's login API (/auth, src/auth/session-routes.ts) and its own API (/admin/api: API keys, invitations,
 * a member's notifications) in the OpenAPI document, outside /v1 (each path names the server root), under the tag
 * `dashboard`; src/openapi/document.ts adds them. The operations are those of their route definitions (bodies.ts,
 * src/auth/session-bodies.ts) at the prefixes they are mounted on.
 * A session cookie authenticates them, never an API key.
 */
import { SESSION_ROUTES } from '../auth/session-bodies.js';
import { SESSION_ROUTES_PREFIX } from '../auth/session-setup.js';
import { openApiPaths, type RouteDefinition } from '../routing/route-schema.js';
import { DASHBOARD_ROUTES } from './bodies.js';

type Json = Record<string, unknown>;

export const DASHBOARD_TAG = { name: 'dashboard', description: "The dashboard's login and its own API, outside /v1, with a session cookie (docs/dashboard.md#sessions-api)." };

const servers = [{ url: '/', description: 'The server root (outside /v1)' }];
const session = [{ sessionCookie: [] }];

export const dashboardPaths: Record<string, Json> = {
  ...mounted([{ prefix: SESSION_ROUTES_PREFIX, definitions: SESSION_ROUTES }]),
  ...mounted(DASHBOARD_ROUTES),
};

/**
 * The operations of the definitions at the prefix each is mounted on, served from the root: with the session cookie
 * when the route has a scope (session-authorize.ts), else without credentials.
 */
function mounted(routes: readonly { prefix: string; definitions: readonly RouteDefinition[] }[]): Record<string, Json> {
  const items: Record<string, Json> = {};
  for (const { prefix, definitions } of routes) {
    for (const definition of definitions) {
      const [path, item] = Object.entries(openApiPaths([definition]).paths)[0]!;
      const [method, operation] = Object.entries(item)[0]!;
      const key = path === '/' ? prefix : `${prefix}${path}`;
      items[key] = { servers, ...items[key], [method]: { ...(operation as Json), security: definition.scope ? session : [] } };
    }
  }
  return items;
}
