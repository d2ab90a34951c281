/**
 * The last word on every error: ApiErrors keep their status and body; Fastify's own request errors (body too
 * large, bad content length, …) become 4xx in the same shape, and so does a NUL character the database refused
 * (400 SK707); anything else is a logged 500 that reveals nothing.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { invalidJson } from '../errors/catalogue.js';
import { fromDatabaseError, isConnectionError, isNulCharacterError } from '../errors/database-error.js';
import { apiError } from '../errors/registry.js';

const FASTIFY_ERRORS: Record<string, () => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => apiError('SK413'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    apiError('PGRST107', { params: { message: 'The Content-Type of the request is not supported' } }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => invalidJson(),
  FST_ERR_CTP_INVALID_JSON_BODY: () => invalidJson(),
  // Fastify's router refuses a path segment (a resource name) longer than its maxParamLength (100).
  FST_ERR_MAX_PARAM_LENGTH: () => apiError('SK414', { details: 'A segment of the path may have at most 100 characters' }),
};

/** A request the HTTP layer refused with `status` before any route saw it. */
export function refusedRequest(status: number, message = 'Bad request'): ApiError {
  return apiError('SK410', { params: { message }, status });
}

export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (isConnectionError(error) || isNulCharacterError(error)) return fromDatabaseError(error);
  const fastifyError = error as Partial<FastifyError>;
  const statusCode = fastifyError.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const known = FASTIFY_ERRORS[fastifyError.code ?? ''];
    return known?.() ?? refusedRequest(statusCode, fastifyError.message);
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
  const known = toApiError(error);
  if (known) return sendError(reply, known);
  request.log.error({ err: error }, 'unhandled error');
  return sendError(reply, apiError('SK500', { hint: `request id ${request.id}` }));
}
