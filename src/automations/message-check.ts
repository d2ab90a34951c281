/**
 * The resource API's write hook for `messages` (POST and PATCH): an outbound e-mail's `to_address` must be one
 * e-mail address, optionally with a name (`Jörg Müller <joerg@example.com>`), and `from_address` too when given;
 * else 400 SK682 — rather than a message that fails at every delivery attempt.
 */
import addressparser from 'nodemailer/lib/addressparser';
import { EMAIL } from '../common/patterns.js';
import { apiError } from '../errors/registry.js';
import type { JsonRow, WriteHook } from '../query/serve.js';

/** True for exactly one address, with or without a display name. */
export function isSingleAddress(value: string): boolean {
  const parsed = addressparser(value, { flatten: true });
  return parsed.length === 1 && EMAIL.test(parsed[0]!.address);
}

function checkRow(row: JsonRow): void {
  if ((row.direction ?? 'outbound') !== 'outbound' || (row.channel ?? 'email') !== 'email') return;
  for (const field of ['to_address', 'from_address'] as const) {
    const value = row[field];
    if (typeof value !== 'string' || (field === 'from_address' && value === '')) continue;
    if (!isSingleAddress(value)) {
      throw apiError('SK682', { params: { field }, details: `got "${value.slice(0, 200)}"` });
    }
  }
}

export function messageWriteHook(): WriteHook {
  return async ({ rows }) => {
    rows.forEach(checkRow);
    return undefined;
  };
}
