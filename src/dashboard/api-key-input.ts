/**
 * The body of POST /admin/api/keys, checked for a clear 400 before anything is written: a name, scopes in the API
 * keys' language (naming resources that exist), and an optional expiry in the future.
 */
import { parseScopes, ScopeError } from '../auth/scopes.js';
import { invalidBody } from '../errors/catalogue.js';
import { MAX_KEY_NAME_LENGTH as MAX_NAME_LENGTH } from './bodies.js';

export interface NewKeyInput {
  name: string;
  scopes: string[];
  expiresAt: string | null;
}

export function newKeyInput(body: unknown, resources: ReadonlySet<string>, now: Date): NewKeyInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidBody('The body must be a JSON object');
  const { name, scopes, expires_at: expiresAt } = body as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME_LENGTH) {
    throw invalidBody(`"name" is required: a text of 1 to ${MAX_NAME_LENGTH} characters`);
  }
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string')) throw invalidBody('"scopes" must be a list of scopes, e.g. ["bookings:read"]');
  let parsed: string[];
  try {
    parsed = parseScopes(scopes.join(','), resources);
  } catch (error) {
    if (error instanceof ScopeError) throw invalidBody(`"scopes": ${error.message}`);
    throw error;
  }
  return { name: name.trim(), scopes: parsed, expiresAt: expiry(expiresAt, now) };
}

function expiry(value: unknown, now: Date): string | null {
  if (value === undefined || value === null) return null;
  const time = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw invalidBody('"expires_at" must be an ISO 8601 date or timestamp, or null');
  if (time <= now.getTime()) throw invalidBody('"expires_at" must be in the future');
  return new Date(time).toISOString();
}
