/**
 * Idempotency-Key (IETF draft) for /book, /cart-checkout and /create-product. The first response per
 * (organization, key) is stored in the transaction that created the booking, so it exists exactly when the
 * booking does. Same key + same request → that response again (nothing new is created); same key + another
 * request → 422; same key while the first request is still running → 409 (a transaction-level advisory lock,
 * tried without waiting). Keys expire after 24 hours. Failed requests store nothing: a retry runs again.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/types.js';
import { idempotencyInProgress, idempotencyKeyInvalid, idempotencyMismatch } from './errors.js';
import { deleteKeyQuery, lockKeyQuery, storedKeyQuery, storeKeyQuery, type StoredKeyRow } from './idempotency-queries.js';
import { run } from './queries.js';

export const KEY_TTL_HOURS = 24;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  status: number;
  body: unknown;
  replayed: boolean;
}

/** Canonical JSON: object keys sorted, so the same request always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(operation: string, body: unknown): string {
  return createHash('sha256').update(`${operation}\n${canonicalJson(body)}`).digest('hex');
}

/** The header value, or undefined when absent; throws 400 SK622 when malformed. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  // The draft's header is an RFC 8941 string: a quoted value is accepted, unquoted too.
  const key = value?.trim().replace(/^"(.*)"$/, '$1');
  if (!key || !KEY_PATTERN.test(key)) throw idempotencyKeyInvalid();
  return key;
}

/** Runs `work` once per key; must be called inside the tenant transaction that does the work. */
export async function withIdempotency(
  tx: Queryable,
  organizationId: string,
  key: string | undefined,
  operation: string,
  body: unknown,
  work: () => Promise<{ status: number; body: unknown }>,
): Promise<StoredResponse> {
  if (key === undefined) return { ...(await work()), replayed: false };
  const [lock] = await run<{ locked: boolean }>(tx, lockKeyQuery(organizationId, key));
  if (!lock?.locked) throw idempotencyInProgress();
  const hash = requestHash(operation, body);
  const [stored] = await run<StoredKeyRow>(tx, storedKeyQuery(key, KEY_TTL_HOURS));
  if (stored?.fresh) {
    if (stored.request_hash !== hash) throw idempotencyMismatch();
    return { status: stored.response_status, body: stored.response_body, replayed: true };
  }
  if (stored) await run(tx, deleteKeyQuery(key));
  const result = await work();
  await run(tx, storeKeyQuery(organizationId, key, operation, hash, result));
  return { ...result, replayed: false };
}
