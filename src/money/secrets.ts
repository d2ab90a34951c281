/**
 * Secrets at rest (organizations' Stripe keys): AES-256-GCM under a key derived from the server's
 * STAYKIT_SECRET_KEY (SHA-256 of it), a fresh random nonce per value. Stored as `v1.<nonce>.<tag>.<ciphertext>`
 * (base64url). Without the server's key nothing can be stored or read; a changed key makes stored values unreadable
 * (they must be entered again).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

function key(serverSecret: string): Buffer {
  return createHash('sha256').update(serverSecret, 'utf8').digest();
}

export function encryptSecret(serverSecret: string, plain: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(serverSecret), nonce);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', nonce, cipher.getAuthTag(), data].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export function decryptSecret(serverSecret: string, stored: string): string {
  const [version, nonce, tag, data] = stored.split('.');
  if (version !== 'v1' || !nonce || !tag || data === undefined) throw new Error('not an encrypted secret');
  const decipher = createDecipheriv('aes-256-gcm', key(serverSecret), Buffer.from(nonce, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
