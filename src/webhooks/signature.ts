/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): a delivery carries `webhook-id` (the
 * notification id, the same on every retry), `webhook-timestamp` (unix seconds of this attempt) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 over "<id>.<timestamp>.<body>">`, keyed with the bytes that the
 * secret's base64 part (after `whsec_`) decodes to. `verifyWebhook` is the receiver's side, as in the docs.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** Receivers reject timestamps further than this from their clock (replay protection); same as the reference libraries. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

// A type alias, not an interface, so it is assignable to a plain header record.
export type SignedHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

export class WebhookSecretError extends Error {}
export class WebhookVerificationError extends Error {}

/** A new secret: `whsec_` + base64 of 32 random bytes (the database generates the same shape). */
export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new WebhookSecretError('signing secret is not base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new WebhookSecretError('signing secret is empty');
  return key;
}

/** The `v1,<base64>` signature of one message. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers for one delivery attempt of `body`. */
export function signedHeaders(secret: string, id: string, body: string, timestamp = Math.floor(Date.now() / 1000)): SignedHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  };
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/**
 * The receiver's check: the headers are present, the timestamp is within the tolerance of `now`, and one of the
 * space-separated `v1,` signatures matches (constant-time). Returns the parsed body; throws
 * WebhookVerificationError otherwise. `body` must be the raw request body, byte for byte.
 */
export function verifyWebhook(
  secret: string,
  body: string | Buffer,
  headers: Record<string, string | string[] | undefined>,
  options: { toleranceSeconds?: number; now?: number } = {},
): unknown {
  const id = header(headers, 'webhook-id');
  const timestampText = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestampText || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestampText)) throw new WebhookVerificationError('invalid webhook-timestamp');
  const timestamp = Number(timestampText);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) throw new WebhookVerificationError('webhook-timestamp outside the tolerance');
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const expected = Buffer.from(sign(secret, id, timestamp, text).slice(3), 'base64');
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return text === '' ? undefined : JSON.parse(text);
  }
  throw new WebhookVerificationError('no matching signature');
}
