/**
 * The one catalogue of errors a client of the generic resource endpoints can see: PostgREST's codes (PGRSTnnn,
 * messages as in PostgREST v12's `Error.hs`) and Staykit's own (`SKnnn`). Every constructor returns an ApiError.
 */
import { ApiError, type ErrorBody } from './api-error.js';

/** 400 PGRST100: a query parameter (select, filter, order, …) could not be parsed. */
export function queryParamError(message: string, details: string): ApiError {
  return new ApiError(400, 'PGRST100', message, { details });
}

/** 400 PGRST102: the body is not valid JSON (or not the shape the operation needs). */
export function invalidBody(message: string): ApiError {
  return new ApiError(400, 'PGRST102', message);
}

export type RangeErrorKind =
  | { kind: 'negative-limit' }
  | { kind: 'lower-gt-upper' }
  | { kind: 'out-of-bounds'; offset: number; total: number };

/** 416 PGRST103. */
export function invalidRange(error: RangeErrorKind): ApiError {
  const details =
    error.kind === 'negative-limit'
      ? 'Limit should be greater than or equal to zero.'
      : error.kind === 'lower-gt-upper'
        ? 'The lower boundary must be lower than or equal to the upper boundary in the Range header.'
        : `An offset of ${error.offset} was requested, but there are only ${error.total} rows.`;
  return new ApiError(416, 'PGRST103', 'Requested range not satisfiable', { details });
}

/** 406 PGRST107: nothing in `Accept` can be produced. */
export function mediaTypeNotAcceptable(accept: string): ApiError {
  return new ApiError(406, 'PGRST107', `None of these media types are available: ${accept}`);
}

/** 415 PGRST107-like: PostgREST answers an unsupported Content-Type with 415. */
export function unsupportedContentType(contentType: string): ApiError {
  return new ApiError(415, 'PGRST107', `None of these media types are available: ${contentType}`);
}

/** 400 PGRST108: a filter/order/limit names an embed that is not in `select`. */
export function notEmbedded(resource: string): ApiError {
  return new ApiError(400, 'PGRST108', `'${resource}' is not an embedded resource in this request`, {
    hint: `Verify that '${resource}' is included in the 'select' query parameter.`,
  });
}

/** 406 PGRST116: single object requested but the result has `rows` rows. */
export function singularityError(rows: number): ApiError {
  return new ApiError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', {
    details: `The result contains ${rows} rows`,
  });
}

/** 405 PGRST117. */
export function unsupportedMethod(method: string, allow: string): ApiError {
  return new ApiError(405, 'PGRST117', `Unsupported HTTP method: ${method}`, { headers: { Allow: allow } });
}

/** 400 PGRST118: `order=rel(col)` on a to-many embed. */
export function relatedOrderNotToOne(origin: string, target: string): ApiError {
  return new ApiError(400, 'PGRST118', `A related order on '${target}' is not possible`, {
    details: `'${origin}' and '${target}' do not form a many-to-one or one-to-one relationship`,
  });
}

/** 400 PGRST120: only `is.null`/`not.is.null` filters may name an embed itself. */
export function unacceptableFilter(target: string): ApiError {
  return new ApiError(400, 'PGRST120', `Bad operator on the '${target}' embedded resource`, {
    details: 'Only is null or not is null filters are allowed on embedded resources',
  });
}

/** 400 PGRST122: unknown preferences under `Prefer: handling=strict`. */
export function invalidPreferences(prefs: string[]): ApiError {
  return new ApiError(400, 'PGRST122', 'Invalid preferences given with handling=strict', {
    details: `Invalid preferences: ${prefs.join(', ')}`,
  });
}

/** 400 PGRST200. */
export function noRelationship(
  schema: string,
  parent: string,
  child: string,
  hint: string | undefined,
  suggestion: string | null,
): ApiError {
  return new ApiError(400, 'PGRST200', `Could not find a relationship between '${parent}' and '${child}' in the schema cache`, {
    details:
      `Searched for a foreign key relationship between '${parent}' and '${child}` +
      (hint === undefined ? '' : `' using the hint '${hint}`) +
      `' in the schema '${schema}', but no matches were found.`,
    hint: suggestion,
  });
}

export interface AmbiguousCandidate {
  cardinality: string;
  embedding: string;
  relationship: string;
  hintName: string;
}

/** 300 PGRST201: more than one relationship fits; `details` lists them (a JSON array in PostgREST). */
export function ambiguousRelationship(parent: string, child: string, candidates: AmbiguousCandidate[]): ApiError {
  const error = new ApiError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${parent}' and '${child}'`,
    {
      hint:
        `Try changing '${child}' to one of the following: ` +
        candidates.map((c) => `'${c.hintName}'`).join(', ') +
        `. Find the desired relationship in the 'details' key.`,
    },
  );
  return withJsonDetails(
    error,
    candidates.map((c) => ({ cardinality: c.cardinality, embedding: c.embedding, relationship: c.relationship })),
  );
}

/** 404 PGRST202. `suggestion`: a function name, or `name(params)` when the name exists with other parameters. */
export function functionNotFound(
  schema: string,
  name: string,
  argNames: string[],
  suggestion: string | null,
  jsonBody = false,
): ApiError {
  const params = argNames.length === 0 ? ' without parameters' : `(${argNames.join(', ')})`;
  const paramsDetail =
    argNames.length === 0
      ? ' without parameters'
      : ` with parameter${argNames.length > 1 ? 's' : ''} ${argNames.join(', ')}`;
  const jsonDetail = jsonBody ? ' or with a single unnamed json/jsonb parameter' : '';
  return new ApiError(404, 'PGRST202', `Could not find the function ${schema}.${name}${params} in the schema cache`, {
    details: `Searched for the function ${schema}.${name}${paramsDetail}${jsonDetail}, but no matches were found in the schema cache.`,
    hint: suggestion === null ? null : `Perhaps you meant to call the function ${schema}.${suggestion}`,
  });
}

/** 400 PGRST204: a column in the payload or `columns=` does not exist. */
export function columnNotFound(table: string, column: string): ApiError {
  return new ApiError(400, 'PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`);
}

/** 404 PGRST205. */
export function tableNotFound(schema: string, name: string, suggestion: string | null): ApiError {
  return new ApiError(404, 'PGRST205', `Could not find the table '${schema}.${name}' in the schema cache`, {
    hint: suggestion === null ? null : `Perhaps you meant the table '${schema}.${suggestion}'`,
  });
}

/** 400 42703, as PostgreSQL words it and PostgREST passes it on, for a column in select/filter/order. */
export function undefinedColumn(table: string, column: string): ApiError {
  return new ApiError(400, '42703', `column ${table}.${column} does not exist`);
}

/** 405 with `Allow`: the role may not use this method on this table (Staykit: no privilege = not offered). */
export function methodNotAllowed(method: string, table: string, allow: string): ApiError {
  return new ApiError(405, 'SK405', `${method} is not allowed on '${table}'`, {
    headers: { Allow: allow },
    hint: `Allowed methods: ${allow}`,
  });
}

/** 400 SK400: Staykit refuses whole-table writes. */
export function filterRequired(): ApiError {
  return new ApiError(400, 'SK400', 'a filter is required for PATCH and DELETE');
}

/** 400 SK401: a column the client may not write was sent under `Prefer: handling=strict`. */
export function columnNotWritable(table: string, column: string, method: 'insert' | 'update'): ApiError {
  return new ApiError(400, 'SK401', `column '${column}' of '${table}' cannot be set by ${method}`, {
    details: 'The column is generated, server-owned or not granted to this role.',
  });
}

/** 400 SK402: PostgREST-specific features Staykit does not implement. */
export function notSupported(feature: string): ApiError {
  return new ApiError(400, 'SK402', `${feature} is not supported`);
}

/** Error bodies with a JSON (non-string) `details`, like PGRST201's list of candidates. */
export class ApiErrorWithJsonDetails extends ApiError {
  readonly jsonDetails: Record<string, string>[];
  constructor(base: ApiError, jsonDetails: Record<string, string>[]) {
    super(base.status, base.code, base.message, { hint: base.hint, headers: base.headers });
    this.jsonDetails = jsonDetails;
  }
  override toBody(): ErrorBody {
    return { ...super.toBody(), details: this.jsonDetails };
  }
}

function withJsonDetails(error: ApiError, details: Record<string, string>[]): ApiError {
  return new ApiErrorWithJsonDetails(error, details);
}

/** 400 PGRST119 (PostgREST v12): spread `...rel()` on a to-many relationship. */
export function spreadNotToOne(origin: string, target: string): ApiError {
  return new ApiError(400, 'PGRST119', `A spread operation on '${target}' is not possible`, {
    details: `'${origin}' and '${target}' do not form a many-to-one or one-to-one relationship`,
  });
}

/** 413 SK413: a bulk POST with more objects than allowed. */
export function tooManyRows(max: number, given: number): ApiError {
  return new ApiError(413, 'SK413', `a bulk insert takes at most ${max} rows`, { details: `The body holds ${given} rows` });
}

/**
 * 429 SK430: the organization already runs as many requests at once as one server allows it, and as many wait
 * (`waitedMs` undefined), or this one waited `waitedMs` without a slot coming free.
 */
export function tooManyConcurrentRequests(maxActive: number, maxQueued: number, waitedMs: number | undefined): ApiError {
  const busy = `${maxActive} requests of this organization are running on this server`;
  return new ApiError(429, 'SK430', 'Too many concurrent requests for this organization', {
    details: waitedMs === undefined
      ? `${busy} and ${maxQueued} are waiting`
      : `${busy}; none finished within ${waitedMs / 1000} s`,
    hint: 'Send fewer requests at once (slow ones especially), and retry after Retry-After seconds',
    headers: { 'retry-after': '1' },
  });
}

/** 400 PGRST100: a like/ilike/match/imatch pattern or full-text query longer than allowed. */
export function patternTooLong(column: string, max: number, given: number): ApiError {
  return new ApiError(400, 'PGRST100', `the pattern of the filter on "${column}" is too long`, {
    details: `like, ilike, match and imatch patterns and fts queries may have at most ${max} characters; this one has ${given}`,
    hint: 'Use a shorter pattern',
  });
}

/** 400 PGRST100: a match/imatch pattern of a form that can make matching take exponential time. */
export function unsafePattern(column: string, reason: string): ApiError {
  return new ApiError(400, 'PGRST100', `the regular expression of the filter on "${column}" is not allowed`, {
    details: reason,
    hint: 'Simplify the pattern, or filter with like/ilike',
  });
}
