/**
 * Secrets of dashboard sessions and password links: 32 random bytes in base64url. Only their SHA-256 is stored, so
 * the database never holds a usable credential; the CSRF token is compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether a presented value has the form of a token (checked before any lookup). */
export function isTokenShaped(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function tokensEqual(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
