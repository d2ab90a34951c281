/** Errors as the API sends them: `{code, message, details, hint}` (PostgREST's shape, used by every endpoint). */
export interface ErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: ErrorBody) {
    super(body.message);
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).message === 'string';
}

/** Turns anything a request can fail with into an ApiError, so the page shows the API's own words. */
export function toApiError(error: unknown, status = 0): ApiError {
  if (error instanceof ApiError) return error;
  if (isErrorBody(error)) return new ApiError(status, { code: error.code ?? '', message: error.message, details: error.details ?? null, hint: error.hint ?? null });
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(status, { code: 'network', message: `The server could not be reached (${message}).`, details: null, hint: 'Check your connection and try again.' });
}
