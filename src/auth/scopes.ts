/**
 * Scopes (docs/design.md#scopes): `read` and `write` cover every resource; `<resource>:read` and `<resource>:write` one.
 * `write` implies `read` for the same resource: a key that may change rows may also see them.
 */
import type { Access } from '../routing/route-schema.js';

export type { Access };

const SCOPE_PATTERN = /^(?:([a-z][a-z0-9_]*):)?(read|write)$/;

export class ScopeError extends Error {}

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
    if (match[1] && resources && !resources.has(match[1])) throw new ScopeError(`invalid scope "${scope}": no resource "${match[1]}"`);
  }
  return [...new Set(scopes)];
}

export function requiredScope(resource: string, access: Access): string {
  return `${resource}:${access}`;
}

export function hasScope(granted: readonly string[], resource: string, access: Access): boolean {
  const accepted = access === 'read' ? ['read', 'write'] : ['write'];
  return accepted.some((level) => granted.includes(level) || granted.includes(`${resource}:${level}`));
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
