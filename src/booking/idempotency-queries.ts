/**
 * The statements of Idempotency-Key handling (idempotency.ts), as `{ text, values }`. Rows are the request's
 * organization's only (row-level security on staykit_internal.idempotency_keys).
 */
import type { SqlQuery } from './queries.js';

export interface StoredKeyRow {
  request_hash: string;
  response_status: number;
  response_body: unknown;
  /** Younger than the key's lifetime. */
  fresh: boolean;
}

/** A transaction-level advisory lock on (organization, key), tried without waiting: `locked` false when held. */
export function lockKeyQuery(organizationId: string, key: string): SqlQuery {
  return {
    text: 'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
    values: [`staykit-idempotency:${organizationId}:${key}`],
  };
}

export function storedKeyQuery(key: string, ttlHours: number): SqlQuery {
  return {
    text: `SELECT request_hash, response_status, response_body, created_at > now() - make_interval(hours => $2) AS fresh
     FROM staykit_internal.idempotency_keys WHERE key = $1`,
    values: [key, ttlHours],
  };
}

export function deleteKeyQuery(key: string): SqlQuery {
  return { text: 'DELETE FROM staykit_internal.idempotency_keys WHERE key = $1', values: [key] };
}

export function storeKeyQuery(
  organizationId: string, key: string, operation: string, hash: string, response: { status: number; body: unknown },
): SqlQuery {
  return {
    text: `INSERT INTO staykit_internal.idempotency_keys (organization_id, key, operation, request_hash, response_status, response_body)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
    values: [organizationId, key, operation, hash, response.status, JSON.stringify(response.body)],
  };
}
