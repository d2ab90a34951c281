import type { FastifyRequest } from 'fastify';

/** Scheme, host and port the request was sent to: Staykit's own origin (behind a proxy: as STAYKIT_TRUST_PROXY lets it say). */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
