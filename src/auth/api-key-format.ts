/**
 * API key format (docs/design.md#api-keys): `sk_<key_id>_<secret>`. `key_id` is 12 lowercase base32 characters, public
 * and indexed, so a key is found in O(1); `secret` is 32 random bytes in base62. Only SHA-256 of the secret is stored.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_ID_LENGTH = 12;
const SECRET_BYTES = 32;
const KEY_PATTERN = /^sk_([a-z2-7]{12})_([0-9A-Za-z]{20,64})$/;

function base32(bytes: Buffer, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE32[bytes[i]! % 32];
  return out;
}

function base62(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(43, '0');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface GeneratedKey {
  keyId: string;
  token: string;
  secretHash: string;
}

export function generateApiKey(): GeneratedKey {
  const keyId = base32(randomBytes(KEY_ID_LENGTH), KEY_ID_LENGTH);
  const secret = base62(randomBytes(SECRET_BYTES));
  return { keyId, token: `sk_${keyId}_${secret}`, secretHash: hashSecret(secret) };
}

export function parseApiKey(token: string): { keyId: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(token);
  return match ? { keyId: match[1]!, secret: match[2]! } : undefined;
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
