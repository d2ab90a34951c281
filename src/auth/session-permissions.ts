/**
 * What a member's session may do, as API-key scopes (src/auth/scopes.ts), so the HTTP layer and the database
 * (staykit.readable_tables / staykit.writable_tables) hold a session to exactly the same rules as a key:
 * - role `owner` or `admin`: everything (`read`, `write`);
 * - any other role: its `permissions` rows — `{resource: '*', access}` is `read`/`write` on every resource,
 *   `{resource, access}` is `<resource>:<access>` — plus reading `organizations` and `products`, which every member
 *   needs to find their way (the organization's name and time zone, the units of the timeline), plus what the role
 *   needs on its first day (`ROLE_DEFAULT_SCOPES`): everyone reads the calendar; field staff (cleaner, maintenance)
 *   also read and complete their tasks — only their own, which the database's row policies hold (migration 0141).
 * `write` implies `read` as for keys. docs/dashboard.md#sessions-api documents this.
 */
export interface MemberPermission {
  resource: string;
  access: 'read' | 'write';
}

export const ALL_ACCESS_ROLES: readonly string[] = ['owner', 'admin'];

export const MEMBER_BASELINE_SCOPES: readonly string[] = ['organizations:read', 'products:read'];

const FIELD_STAFF_SCOPES = ['calendar_events:read', 'calendar_event_tasks:write', 'tasks:write', 'task_assignees:read'];

/** What a new member of each role may do before anyone grants more: a working first screen, never guests' data. */
export const ROLE_DEFAULT_SCOPES: Readonly<Record<string, readonly string[]>> = {
  manager: ['calendar_events:read'],
  staff: ['calendar_events:read'],
  cleaner: FIELD_STAFF_SCOPES,
  maintenance: FIELD_STAFF_SCOPES,
};

export function memberScopes(role: string, permissions: readonly MemberPermission[]): string[] {
  if (ALL_ACCESS_ROLES.includes(role)) return ['read', 'write'];
  const granted = permissions.map(({ resource, access }) => (resource === '*' ? access : `${resource}:${access}`));
  return [...new Set([...granted, ...MEMBER_BASELINE_SCOPES, ...(ROLE_DEFAULT_SCOPES[role] ?? [])])];
}
