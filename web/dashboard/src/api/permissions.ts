/**
 * What the member may do, to decide what the dashboard asks for and shows. The session tells its scopes, in the
 * API keys' language (`read`, `write`, `<resource>:read`, `<resource>:write`; write implies read), and the server
 * and the database enforce exactly those: this only keeps the page from asking for what would be refused.
 */
import type { TableName } from './database';
import type { Access, Session } from './session';

/**
 * What a scope names: a table of the API, the API keys (a resource of their own), or the report views, which all
 * share one scope, `reports:read` (src/auth/scopes.ts, docs/reports.md#access).
 */
export type Resource = TableName | 'api_keys' | 'reports';

export type Can = (resource: Resource, access?: Access) => boolean;

export function permissionsOf(member: Session['member']): Can {
  const scopes = new Set(member.scopes);
  return (resource, access = 'read') => {
    const levels = access === 'read' ? ['read', 'write'] : ['write'];
    return levels.some((level) => scopes.has(level) || scopes.has(`${resource}:${level}`));
  };
}
