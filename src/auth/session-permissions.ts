/**
 * What a member's session may do, as API-key scopes (src/auth/scopes.ts), so the HTTP layer and the database
 * (staykit.readable_tables / staykit.writable_tables) hold a session to exactly the same rules as a key:
 * - role `owner` or `admin`: everything (`read`, `write`);
 * - any other role: its `permissions` rows — `{resource: '*', access}` is `read`/`write` on every resource,
 *   `{resource, access}` is `<resource>:<access>` — plus reading `organizations` and `products`, which every member
 *   needs to find their way (the organization's name and time zone, the units of the timeline).
 * `write` implies `read` as for keys. docs/dashboard.md#sessions-api documents this.
 */
export interface MemberPermission {
  resource: string;
  access: 'read' | 'write';
}

export const ALL_ACCESS_ROLES: readonly string[] = ['owner', 'admin'];

export const MEMBER_BASELINE_SCOPES: readonly string[] = ['organizations:read', 'products:read'];

export function memberScopes(role: string, permissions: readonly MemberPermission[]): string[] {
  if (ALL_ACCESS_ROLES.includes(role)) return ['read', 'write'];
  const granted = permissions.map(({ resource, access }) => (resource === '*' ? access : `${resource}:${access}`));
  return [...new Set([...granted, ...MEMBER_BASELINE_SCOPES])];
}
