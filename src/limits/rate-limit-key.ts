/**
 * Whose budget a request spends: the API key's public `key_id` when the Authorization header holds something
 * shaped like a Staykit key (no database lookup — a wrong secret still spends that key_id's budget), otherwise the
 * client address (`request.ip`: the TCP peer, or the client a trusted proxy reports — STAYKIT_TRUST_PROXY).
 */
import type { FastifyRequest } from 'fastify';
import { parseApiKey } from '../auth/api-key-format.js';
import { bearerToken } from '../auth/bearer.js';

export function rateLimitKey(request: Pick<FastifyRequest, 'headers' | 'ip'>): string {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const token = bearerToken(header);
    const parsed = token === undefined ? undefined : parseApiKey(token);
    if (parsed) return `key:${parsed.keyId}`;
  }
  return addressKey(request);
}

/** The budget of the client's address, whatever the request carries. */
export function addressKey(request: Pick<FastifyRequest, 'ip'>): string {
  return `ip:${request.ip}`;
}
