/**
 * The pino configuration behind Fastify's logger: JSON lines, one access line per request (access-log.ts, so
 * Fastify's own two request lines are turned off), and nothing secret or personal — request and response
 * serializers keep only method, path (never the query string, whose filters may hold guest data) and status;
 * errors keep type, code and message (never a driver's `detail`, which quotes row values); known secret fields are
 * redacted wherever they appear.
 */
import { hostname } from 'node:os';
import { LogController, type FastifyServerOptions } from 'fastify';
import { genReqId } from './request-id.js';

export const REDACTED_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie',
  'authorization', '*.authorization', 'api_key', '*.api_key', 'apiKey', '*.apiKey', 'secret', '*.secret',
  'signing_secret', '*.signing_secret', 'password', '*.password', 'body', '*.body', 'payload', '*.payload',
];

interface RequestLike { method?: string; url?: string; id?: unknown; routeOptions?: { url?: string } }
interface ReplyLike { statusCode?: number }
interface ErrorLike { name?: string; code?: unknown; message?: string; stack?: string; statusCode?: unknown }

export const serializers = {
  req: (request: RequestLike) => ({
    method: request.method,
    path: request.url?.split('?')[0],
    route: request.routeOptions?.url,
  }),
  res: (reply: ReplyLike) => ({ status: reply.statusCode }),
  err: (error: ErrorLike) => ({
    type: error?.name ?? 'Error',
    code: error?.code,
    message: error?.message ?? '',
    status: error?.statusCode,
    stack: error?.stack ?? '',
  }),
};

export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers,
    base: { service: 'staykit', pid: process.pid, hostname: hostname() },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
  };
}

/** The Fastify options observability depends on; `buildApp` spreads them into `Fastify({ … })`. */
export function observabilityFastifyOptions(logLevel: string): Pick<
  FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader' | 'logController'
> {
  return {
    logger: loggerOptions(logLevel),
    genReqId,
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
  };
}
