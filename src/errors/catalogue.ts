/**
 * The constructors of the errors a client of the generic resource endpoints can see: PostgREST's codes (PGRSTnnn,
 * messages as in PostgREST v12's `Error.hs`) and Staykit's own (`SKnnn`). Codes, statuses and message templates come
 * from registry.ts; these fill them in.
 */
import { ApiError, type ErrorBody } from './api-error.js';
import { apiError } from './registry.js';

/** 400 PGRST100: a query parameter (select, filter, order, …) could not be parsed. */
export function queryParamError(message: string, details: string): ApiError {
  return apiError('PGRST100', { params: { message }, details });
}

/** 400 PGRST102: the body is not valid JSON (or not the shape the operation needs). */
export function invalidBody(message: string): ApiError {
  return apiError('PGRST102', { params: { message } });
}

/** 400 PGRST102 worded as PostgREST words a body it cannot parse; `details` says what is wrong with it. */
export function invalidJson(details: string | null = null, hint: string | null = null): ApiError {
  return apiError('PGRST102', { params: { message: 'Empty or invalid json' }, details, hint });
}

/** 400 SK707: a NUL character (U+0000) in `where`, which PostgreSQL's text cannot hold. */
export function nulCharacter(where: string): ApiError {
  return apiError('SK707', { details: `A NUL character in ${where}` });
}

/** 404 SK404: no route answers this method and path, or (`what`) the object a route names does not exist. */
export function notFound(what: string): ApiError {
  return apiError('SK404', { params: { message: what } });
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
  return apiError('PGRST103', { details });
}

/** 406 PGRST107: nothing in `Accept` can be produced. */
export function mediaTypeNotAcceptable(accept: string): ApiError {
  return apiError('PGRST107', { params: { message: `None of these media types are available: ${accept}` }, status: 406 });
}

/** 415 PGRST107: PostgREST answers an unsupported Content-Type with 415. */
export function unsupportedContentType(contentType: string): ApiError {
  return apiError('PGRST107', { params: { message: `None of these media types are available: ${contentType}` } });
}

/** 400 PGRST108: a filter/order/limit names an embed that is not in `select`. */
export function notEmbedded(resource: string): ApiError {
  return apiError('PGRST108', { params: { resource } });
}

/** 406 PGRST116: single object requested but the result has `rows` rows (worded as PostgREST 12 or 13 words it). */
export function singularityError(rows: number, postgrest12 = false): ApiError {
  return apiError('PGRST116', { details: `The result contains ${rows} rows`, postgrest12 });
}

/** 405 PGRST117. */
export function unsupportedMethod(method: string, allow: string): ApiError {
  return apiError('PGRST117', { params: { method }, headers: { Allow: allow } });
}

/** 400 PGRST118: `order=rel(col)` on a to-many embed. */
export function relatedOrderNotToOne(origin: string, target: string): ApiError {
  return apiError('PGRST118', {
    params: { target },
    details: `'${origin}' and '${target}' do not form a many-to-one or one-to-one relationship`,
  });
}

/** 400 PGRST120: only `is.null`/`not.is.null` filters may name an embed itself. */
export function unacceptableFilter(target: string): ApiError {
  return apiError('PGRST120', {
    params: { target },
    details: 'Only is null or not is null filters are allowed on embedded resources',
  });
}

/** 400 PGRST122: unknown preferences under `Prefer: handling=strict`. */
export function invalidPreferences(prefs: string[]): ApiError {
  return apiError('PGRST122', {
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
  return apiError('PGRST200', {
    params: { parent, child },
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
  const error = apiError('PGRST201', {
    params: { parent, child },
    hint:
      `Try changing '${child}' to one of the following: ` +
      candidates.map((c) => `'${c.hintName}'`).join(', ') +
      `. Find the desired relationship in the 'details' key.`,
  });
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
  return apiError('PGRST202', {
    params: { function: `${schema}.${name}${params}` },
    details: `Searched for the function ${schema}.${name}${paramsDetail}${jsonDetail}, but no matches were found in the schema cache.`,
    hint: suggestion === null ? null : `Perhaps you meant to call the function ${schema}.${suggestion}`,
  });
}

/** 400 PGRST204: a column in the payload or `columns=` does not exist. */
export function columnNotFound(table: string, column: string): ApiError {
  return apiError('PGRST204', { params: { column, table } });
}

/** 404 42P01: PostgREST 12 has no check of its own and passes on PostgreSQL's error for the schema-qualified name. */
export function relationDoesNotExist(schema: string, name: string): ApiError {
  return apiError('42P01', { params: { table: `${schema}.${name}` } });
}

/** 404 PGRST205 (PostgREST 13). */
export function tableNotFound(schema: string, name: string, suggestion: string | null): ApiError {
  return apiError('PGRST205', {
    params: { table: `${schema}.${name}` },
    hint: suggestion === null ? null : `Perhaps you meant the table '${schema}.${suggestion}'`,
  });
}

/** 400 42703, as PostgreSQL words it and PostgREST passes it on, for a column in select/filter/order. */
export function undefinedColumn(table: string, column: string): ApiError {
  return apiError('42703', { params: { table, column } });
}

/** 405 with `Allow`: the role may not use this method on this table (Staykit: no privilege = not offered). */
export function methodNotAllowed(method: string, table: string, allow: string): ApiError {
  return apiError('SK405', { params: { method, table, allow }, headers: { Allow: allow } });
}

/** 400 SK400: Staykit refuses whole-table writes. */
export function filterRequired(): ApiError {
  return apiError('SK400');
}

/** 400 SK407: a column the client may not write was sent under `Prefer: handling=strict`. */
export function columnNotWritable(table: string, column: string, method: 'insert' | 'update'): ApiError {
  return apiError('SK407', {
    params: { column, table, operation: method },
    details: 'The column is generated, server-owned or not granted to this role.',
  });
}

/** 400 SK402: PostgREST-specific features Staykit does not implement. */
export function notSupported(feature: string): ApiError {
  return apiError('SK402', { params: { feature } });
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

/** 413 SK440: a bulk POST with more objects than allowed. */
export function tooManyRows(max: number, given: number): ApiError {
  return apiError('SK440', { params: { max }, details: `The body holds ${given} rows` });
}

/**
 * 429 SK430: the organization already runs as many requests at once as one server allows it, and as many wait
 * (`waitedMs` undefined), or this one waited `waitedMs` without a slot coming free.
 */
export function tooManyConcurrentRequests(maxActive: number, maxQueued: number, waitedMs: number | undefined): ApiError {
  const busy = `${maxActive} requests of this organization are running on this server`;
  return apiError('SK430', {
    details: waitedMs === undefined
      ? `${busy} and ${maxQueued} are waiting`
      : `${busy}; none finished within ${waitedMs / 1000} s`,
    headers: { 'retry-after': '1' },
  });
}

/** 400 PGRST100: a like/ilike/match/imatch pattern or full-text query longer than allowed. */
export function patternTooLong(column: string, max: number, given: number): ApiError {
  return apiError('PGRST100', {
    params: { message: `the pattern of the filter on "${column}" is too long` },
    details: `like, ilike, match and imatch patterns and fts queries may have at most ${max} characters; this one has ${given}`,
    hint: 'Use a shorter pattern',
  });
}

/** 400 PGRST100: a match/imatch pattern of a form that can make matching take exponential time. */
export function unsafePattern(column: string, reason: string): ApiError {
  return apiError('PGRST100', {
    params: { message: `the regular expression of the filter on "${column}" is not allowed` },
    details: reason,
    hint: 'Simplify the pattern, or filter with like/ilike',
  });
}
