/**
 * What the member may do, to decide what the dashboard asks for and shows. The database enforces the same grants
 * (docs/dashboard.md): this only keeps the page from asking for what would be refused.
 */
import type { Access, Session } from './session';

const EVERYTHING = new Set(['owner', 'admin']);

export type Can = (resource: string, access?: Access) => boolean;

export function permissionsOf(member: Session['member']): Can {
  if (EVERYTHING.has(member.role)) return () => true;
  return (resource, access = 'read') =>
    member.permissions.some((grant) =>
      (grant.resource === '*' || grant.resource === resource) && (access === 'read' || grant.access === 'write'));
}
