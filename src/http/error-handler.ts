/**
 * The last word on every error: ApiErrors keep their status and body; Fastify's own request errors (body too
 * large, bad content length, …) become 4xx in the same shape; anything else is a logged 500 that reveals nothing.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { fromDatabaseError, isConnectionError } from '../errors/database-error.js';

const FASTIFY_CODES: Record<string, { code: string; message: string; details?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'SK413', message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'PGRST107', message: 'The Content-Type of the request is not supported' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'PGRST102', message: 'Empty or invalid json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'PGRST102', message: 'Empty or invalid json' },
  // Fastify's router refuses a path segment (a resource name) longer than its maxParamLength (100).
  FST_ERR_MAX_PARAM_LENGTH: {
    code: 'SK414',
    message: 'The request URI is too long',
    details: 'A segment of the path may have at most 100 characters',
  },
};

export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (isConnectionError(error)) return fromDatabaseError(error);
  const fastifyError = error as Partial<FastifyError>;
  const statusCode = fastifyError.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const known = FASTIFY_CODES[fastifyError.code ?? ''];
    return new ApiError(statusCode, known?.code ?? 'SK400', known?.message ?? fastifyError.message ?? 'Bad request', {
      details: known?.details ?? null,
    });
  }
  return undefined;
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply
    .status(error.status)
    .headers(error.headers)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(error.toBody()));
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(error);
  if (apiError) return sendError(reply, apiError);
  request.log.error({ err: error }, 'unhandled error');
  return sendError(reply, new ApiError(500, 'SK500', 'Internal server error', { hint: `request id ${request.id}` }));
}
