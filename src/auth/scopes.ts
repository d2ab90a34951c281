/**
 * Scopes (docs/design.md#scopes): `read` and `write` cover every resource; `<resource>:read` and `<resource>:write` one.
 * `write` implies `read` for the same resource: a key that may change rows may also see them. The report views (every
 * resource named `report_*`, docs/reports.md) are read-only and share one scope, `reports:read`.
 */
import type { Access } from '../routing/route-schema.js';

export type { Access };

const SCOPE_PATTERN = /^(?:([a-z][a-z0-9_]*):)?(read|write)$/;

export class ScopeError extends Error {}

/** The scope resource of the report views: `reports:read` reads every `report_*` resource. */
export const REPORTS = 'reports';

/** The resource a scope names for `resource`: `reports` for a report view, else the resource itself. */
export function scopeResource(resource: string): string {
  return resource.startsWith('report_') ? REPORTS : resource;
}

/**
 * Validates scope strings; `resources` is the set of known resource names for `<resource>:…` (undefined checks
 * only the form).
 */
export function parseScopes(raw: string, resources?: ReadonlySet<string>): string[] {
  const scopes = raw.split(',').map((scope) => scope.trim()).filter(Boolean);
  if (scopes.length === 0) throw new ScopeError('at least one scope is required');
  for (const scope of scopes) {
    const match = SCOPE_PATTERN.exec(scope);
    if (!match) throw new ScopeError(`invalid scope "${scope}": use read, write, <resource>:read or <resource>:write`);
    if (match[1] === REPORTS && match[2] === 'write') throw new ScopeError(`invalid scope "${scope}": reports are read-only, use reports:read`);
    if (match[1] !== undefined && match[1] !== REPORTS && scopeResource(match[1]) === REPORTS) {
      throw new ScopeError(`invalid scope "${scope}": report views are read with reports:read`);
    }
    if (match[1] && match[1] !== REPORTS && resources && !resources.has(match[1])) throw new ScopeError(`invalid scope "${scope}": no resource "${match[1]}"`);
  }
  return [...new Set(scopes)];
}

export function requiredScope(resource: string, access: Access): string {
  return `${scopeResource(resource)}:${access}`;
}

export function hasScope(granted: readonly string[], resource: string, access: Access): boolean {
  const accepted = access === 'read' ? ['read', 'write'] : ['write'];
  const named = scopeResource(resource);
  return accepted.some((level) => granted.includes(level) || granted.includes(`${named}:${level}`));
}

/** The tables a transaction may read: every table (`'all'`), or the listed ones. */
export type ReadableTables = 'all' | readonly string[];

/**
 * What a key's scopes let it read: everything for `read`/`write`, otherwise the resources named in its
 * `<resource>:read` and `<resource>:write` scopes.
 */
export function readableTables(granted: readonly string[]): ReadableTables {
  if (granted.includes('read') || granted.includes('write')) return 'all';
  const resources = granted.map((scope) => SCOPE_PATTERN.exec(scope)?.[1]).filter((name): name is string => name !== undefined);
  return [...new Set(resources)];
}

/** What scopes let a principal write: everything for `write`, otherwise the resources of its `<resource>:write` scopes. */
export function writableTables(granted: readonly string[]): ReadableTables {
  if (granted.includes('write')) return 'all';
  const resources = granted.map((scope) => SCOPE_PATTERN.exec(scope)).filter((match) => match?.[1] !== undefined && match[2] === 'write');
  return [...new Set(resources.map((match) => match![1]!))];
}
