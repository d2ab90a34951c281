/**
 * Request ids: a client's `X-Request-Id` is kept when it is sane (1–128 visible characters of a conservative set,
 * so it can be logged and echoed without escaping), otherwise a UUID is generated. Every response carries it back.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && SANE.test(value);
}

/** Fastify's `genReqId`: the client's id when sane, else a fresh UUID. */
export function genReqId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return isSaneRequestId(given) ? given : randomUUID();
}
