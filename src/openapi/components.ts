/**
 * The parts of the document every resource shares: PostgREST's query parameters and headers, the error body and
 * the responses that carry it, the bearer scheme, and the shapes of Staykit's structured JSON columns.
 */
import type { ApiError } from '../errors/api-error.js';
import { authErrors } from '../errors/auth.js';
import {
  filterRequired,
  invalidRange,
  queryParamError,
  singularityError,
  tableNotFound,
  tooManyRows,
  undefinedColumn,
} from '../errors/catalogue.js';
import { fromDatabaseError } from '../errors/database-error.js';
import { apiError } from '../errors/registry.js';
import { notAvailable, productNotFound, stayRulesViolated } from '../booking/errors.js';
import { uriTooLong } from '../limits/errors.js';
import { stripeRefused } from '../money/errors.js';
import { SESSION_COOKIE } from '../auth/session-cookie.js';
import type { JsonSchema } from './json-schema.js';

/** An example body, made by the constructor that makes the real one, so the two cannot drift apart. */
const errorExample = (error: ApiError) => ({ value: error.toBody() });

/** Every error response names its request (`X-Request-Id`): the id to quote when asking about it. */
function errorResponse(description: string, examples: Record<string, { value: unknown }>, headers: JsonSchema = {}): JsonSchema {
  return {
    description,
    headers: { ...headers, 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, examples } },
  };
}

export const responses = {
  BadRequest: errorResponse('The request is malformed: a query parameter, header or body could not be used.', {
    parse: errorExample(queryParamError('"failed to parse filter (eq)" (line 1, column 4)', 'unexpected end of input expecting value')),
    column: errorExample(undefinedColumn('bookings', 'nope')),
    filterRequired: errorExample(filterRequired()),
  }),
  Unauthorized: errorResponse('No API key, or an unknown, expired or revoked one.', {
    missing: errorExample(authErrors.missingKey()),
    invalid: errorExample(authErrors.invalidKey()),
  }, { 'WWW-Authenticate': { schema: { type: 'string' }, example: 'Bearer realm="staykit"' } }),
  Forbidden: errorResponse('The API key lacks the scope this request needs.', {
    scope: errorExample(authErrors.missingScope('bookings:write')),
  }),
  NotFound: errorResponse('The resource, function or referenced row does not exist.', {
    table: errorExample(tableNotFound('api', 'nope', null)),
    product: errorExample(productNotFound('3f2a6c1e-8b7d-4c55-9a0e-2d4b6f8a1c3e')),
  }),
  NotAcceptable: errorResponse('The `Accept` header cannot be met, or a single object was asked for and the result is not one row.', {
    single: errorExample(singularityError(0)),
  }),
  Conflict: errorResponse('A constraint refused the change: duplicate key, a referenced row in use, overlapping dates, or an idempotency key still in use.', {
    duplicate: errorExample(fromDatabaseError({ code: '23505', message: 'duplicate key value violates unique constraint "coupons_code_key"' })),
    overlap: errorExample(notAvailable()),
  }),
  PayloadTooLarge: errorResponse('The body is larger than 1 MiB, or a bulk POST holds more than 1000 rows.', {
    body: errorExample(apiError('SK413')),
    bulk: errorExample(tooManyRows(1000, 1200)),
  }),
  RangeNotSatisfiable: errorResponse('The requested range starts past the end of the result.', {
    range: errorExample(invalidRange({ kind: 'out-of-bounds', offset: 100, total: 3 })),
  }),
  UriTooLong: errorResponse('The path and query string are longer than the server accepts (`STAYKIT_MAX_URL_LENGTH`); answered before any route.', {
    uri: errorExample(uriTooLong(8192, 9100)),
  }),
  UnprocessableContent: errorResponse('The stay breaks a rule (stay rules, occupancy, rates, coupons), or an idempotency key was reused with another body.', {
    rules: errorExample(stayRulesViolated(['Check-in is not possible on Tuesday'])),
  }),
  TooManyRequests: errorResponse('Too many tries: wait `Retry-After` seconds.', {
    limit: errorExample(apiError('SK429', { details: 'The "login" rate-limit policy is exhausted; retry in 60 s' })),
  }, { 'Retry-After': { schema: { type: 'integer' } } }),
  Gone: errorResponse('What the request points at is no longer kept.', {
    cursor: errorExample(apiError('SK741')),
  }),
  BadGateway: errorResponse('A service the request needs (Stripe, the mail server) refused it or could not be reached; nothing changed here.', {
    stripe: errorExample(stripeRefused('No such customer')),
  }),
} satisfies Record<string, JsonSchema>;

export const parameters: Record<string, JsonSchema> = {
  select: {
    name: 'select', in: 'query', required: false,
    description: 'Columns to return: `*`, `id,name`, renames `label:name`, casts `amount::text`, JSON paths `data->>city`, embedded resources `name,calendar_events(start_date,end_date)`.',
    schema: { type: 'string' }, example: '*',
  },
  order: {
    name: 'order', in: 'query', required: false,
    description: 'Ordering: `<column>.<asc|desc>[.<nullsfirst|nullslast>]`, comma-separated, e.g. `created_at.desc`. Default: the primary key.',
    schema: { type: 'string' },
  },
  limit: {
    name: 'limit', in: 'query', required: false,
    description: 'At most this many rows (never more than 1000).', schema: { type: 'integer', minimum: 0 }, example: 10,
  },
  offset: {
    name: 'offset', in: 'query', required: false, description: 'Skip this many rows.', schema: { type: 'integer', minimum: 0 },
  },
  or: {
    name: 'or', in: 'query', required: false,
    description: 'Any of the filters holds: `(col.op.value,and(col.op.value,…))`, nested at most 10 levels, e.g. `(status.eq.CONFIRMED,status.eq.TENTATIVE)`. `and` likewise; prefix `not.` to negate.',
    schema: { type: 'string' },
  },
  and: {
    name: 'and', in: 'query', required: false, description: 'All of the filters hold: `(col.op.value,…)`.', schema: { type: 'string' },
  },
  columns: {
    name: 'columns', in: 'query', required: false,
    description: 'Only these keys of the body are written (comma-separated); others are ignored, missing ones are null or (with `Prefer: missing=default`) the default.',
    schema: { type: 'string' },
  },
  on_conflict: {
    name: 'on_conflict', in: 'query', required: false,
    description: 'The unique columns an upsert (`Prefer: resolution=…`) matches on, instead of the primary key.',
    schema: { type: 'string' },
  },
  Range: {
    name: 'Range', in: 'header', required: false, description: 'Rows to return, zero-based and inclusive: `0-9`. Combined with `limit`/`offset` as an intersection.',
    schema: { type: 'string', pattern: '^\\d+-\\d*$' }, example: '0-9',
  },
  'Range-Unit': { name: 'Range-Unit', in: 'header', required: false, schema: { type: 'string', enum: ['items'] } },
  Accept: {
    name: 'Accept', in: 'header', required: false,
    description: '`application/json` (an array), `application/vnd.pgrst.object+json` (exactly one row as an object, else 406) or `text/csv`.',
    schema: { type: 'string', enum: ['application/json', 'application/vnd.pgrst.object+json', 'text/csv'] },
  },
  preferRead: {
    name: 'Prefer', in: 'header', required: false,
    description: '`count=exact|planned|estimated` adds the total to `Content-Range` (and answers 206 for a partial page). `handling=strict` refuses unknown preferences.',
    schema: { type: 'string' }, examples: { count: { value: 'count=exact' } },
  },
  preferWrite: {
    name: 'Prefer', in: 'header', required: false,
    description: 'Comma-separated: `return=minimal|representation|headers-only`, `resolution=merge-duplicates|ignore-duplicates` (POST upsert), `missing=default|null`, `count=exact`, `tx=rollback` (dry run), `handling=strict|lenient`.',
    schema: { type: 'string' }, examples: { representation: { value: 'return=representation' } },
  },
  csrfToken: {
    name: 'X-CSRF-Token', in: 'header', required: true,
    description: 'The `csrf_token` of the session (from `POST /auth/login` or `GET /auth/session`): every write with the session cookie carries it.',
    schema: { type: 'string' },
  },
  'Idempotency-Key': {
    name: 'Idempotency-Key', in: 'header', required: false,
    description: 'Makes the request safe to retry: the same key with the same body returns the stored first response (with `Idempotent-Replayed: true`); with another body 422; while the first is running 409. Keys are kept at least 24 hours.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
};

export const headers: Record<string, JsonSchema> = {
  'Content-Range': {
    description: 'The rows returned and, with a count, the total: `0-9/120`, `0-9/*`, `*/0`.',
    schema: { type: 'string' },
  },
  'X-Request-Id': {
    description: 'The id of this request (yours when you sent a sane `X-Request-Id`, else generated); it is in the server logs.',
    schema: { type: 'string' },
  },
};

export const sharedSchemas: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    description: "PostgREST's error body. `code` is PostgREST's (PGRSTnnn), a PostgreSQL SQLSTATE, or Staykit's own (SKnnn).",
    properties: {
      code: { type: 'string', examples: [queryParamError('', '').code, '23505', notAvailable().code] },
      message: { type: 'string' },
      details: {
        description: 'More about the error; for PGRST201 the list of candidate relationships.',
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object', additionalProperties: { type: 'string' } } }, { type: 'null' }],
      },
      hint: { type: ['string', 'null'] },
    },
    required: ['code', 'message', 'details', 'hint'],
  },
  MultiLanguageString: {
    type: 'object',
    description: 'A localized text: `default` plus optional locale keys such as `nl-NL`; every value is a string.',
    properties: { default: { type: 'string' } },
    required: ['default'],
    additionalProperties: { type: 'string' },
    example: { default: 'Beach house', 'nl-NL': 'Strandhuis' },
  },
  Occupancy: {
    type: 'object',
    description: 'Guests per capacity group: capacity_groups ids → non-negative integers.',
    propertyNames: { format: 'uuid' },
    additionalProperties: { type: 'integer', minimum: 0 },
    example: { '0b8c2f9e-2b1a-4f6e-9d41-6a0c1e7b5d23': 2 },
  },
  Moment: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['check-in', 'checkout', 'confirmation', 'on-site', 'request'] },
      offset: { type: 'integer', description: 'Days relative to the moment (negative = before).' },
    },
    required: ['type', 'offset'],
  },
  Rate: {
    type: 'object',
    description: "A rate table entry: for a stay of at least `duration` nights and at least `occupancy` guests, `rate` (minor units) per night.",
    properties: { duration: { type: 'integer', minimum: 1 }, occupancy: { type: 'integer', minimum: 0 }, rate: { type: 'integer', minimum: 0 } },
    required: ['duration', 'occupancy', 'rate'],
  },
  CouponDefinition: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['percentage', 'fixed'] },
      value: { type: 'number' },
      min_duration: { type: 'integer' },
      booking_from: { type: 'string', format: 'date' },
      booking_until: { type: 'string', format: 'date' },
      stay_from: { type: 'string', format: 'date' },
      stay_until: { type: 'string', format: 'date' },
    },
    required: ['type', 'value'],
  },
};

export const securitySchemes: Record<string, JsonSchema> = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'A dashboard session, set by `POST /auth/login` (docs/dashboard.md#sessions-api). Writes also need the session\'s `X-CSRF-Token`.',
  },
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk_<key_id>_<secret>',
    description: 'An API key of your organization: `Authorization: Bearer sk_…`. Create one with `staykit key create --org <id>`. Scopes: `read`, `write`, or `<resource>:read` / `<resource>:write`.',
  },
};
