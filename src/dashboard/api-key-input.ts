/**
 * What POST /admin/api/keys checks beyond its body's schema (bodies.ts), for a clear 400 before anything is
 * written: a name that is not blank, scopes in the API keys' language (naming resources that exist), and an
 * optional expiry in the future.
 */
import { parseScopes, ScopeError } from '../auth/scopes.js';
import { invalidBody } from '../errors/catalogue.js';
import type { NewApiKey } from './bodies.js';

export interface NewKeyInput {
  name: string;
  scopes: string[];
  expiresAt: string | null;
}

export function newKeyInput(body: NewApiKey, resources: ReadonlySet<string>, now: Date): NewKeyInput {
  const name = body.name.trim();
  if (name === '') throw invalidBody('"name" is required: a text that is not blank');
  let scopes: string[];
  try {
    scopes = parseScopes(body.scopes.join(','), resources);
  } catch (error) {
    if (error instanceof ScopeError) throw invalidBody(`"scopes": ${error.message}`);
    throw error;
  }
  return { name, scopes, expiresAt: expiry(body.expires_at, now) };
}

function expiry(value: string | null | undefined, now: Date): string | null {
  if (value === undefined || value === null) return null;
  const time = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw invalidBody('"expires_at" must be an ISO 8601 date or timestamp, or null');
  if (time <= now.getTime()) throw invalidBody('"expires_at" must be in the future');
  return new Date(time).toISOString();
}
