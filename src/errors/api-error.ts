/**
 * Every error a client can see is an ApiError: an HTTP status and PostgREST's body
 * `{code, message, details, hint}`. Codes are PostgREST's (PGRSTnnn, or a SQLSTATE) where PostgREST has the case,
 * `SKnnn` for Staykit's own. The constructors for each case live in this folder, one catalogue.
 */
export interface ErrorBody {
  code: string;
  message: string;
  /** A string, or (PGRST201) the list of candidate relationships. */
  details: string | Record<string, string>[] | null;
  hint: string | null;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: string | null;
  readonly hint: string | null;
  /** Extra response headers, e.g. `Allow` on 405 or `WWW-Authenticate` on 401. */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { details?: string | null; hint?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = options.details ?? null;
    this.hint = options.hint ?? null;
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}
