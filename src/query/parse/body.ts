/**
 * The JSON body: parsed only to validate it and learn its keys and row count; the raw text is what PostgreSQL
 * reads (json_populate_recordset). Errors as PostgREST: PGRST102 "Empty or invalid json", "All object keys must
 * match" for bulk inserts whose objects differ.
 */
import { invalidBody } from '../../errors/catalogue.js';
import type { Payload } from './types.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJsonBody(raw: string | undefined, options: { allowArray: boolean; requireSameKeys: boolean }): Payload {
  if (raw === undefined || raw.trim() === '') throw invalidBody('Empty or invalid json');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidBody('Empty or invalid json');
  }
  if (isObject(value)) return { raw, kind: 'object', keys: Object.keys(value), rowCount: 1, rowKeys: [Object.keys(value)] };
  if (Array.isArray(value) && options.allowArray) {
    if (!value.every(isObject)) throw invalidBody('Empty or invalid json');
    const rows = value as Record<string, unknown>[];
    const keys = rows.length > 0 ? Object.keys(rows[0] as Record<string, unknown>) : [];
    if (options.requireSameKeys) {
      const sorted = [...keys].sort().join('\u0000');
      for (const row of rows) {
        if (Object.keys(row).sort().join('\u0000') !== sorted) throw invalidBody('All object keys must match');
      }
    }
    return { raw, kind: 'array', keys, rowCount: rows.length, rowKeys: rows.map((row) => Object.keys(row)) };
  }
  throw invalidBody('Empty or invalid json');
}

/** RPC arguments from a JSON object body. */
export function parseJsonObject(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined || raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidBody('Empty or invalid json');
  }
  if (!isObject(value)) throw invalidBody('Empty or invalid json');
  return value;
}
