/**
 * One definition per route — method, url, scope, documentation, body/query schema, answers — from which everything
 * else is derived, so a body is never described twice (docs/design.md#route-definitions):
 *
 *   - the Fastify route, validating its body and query with the definition's TypeBox schemas (the handler gets them
 *     typed: `Static<typeof Body>`), a refusal answered in the API's error shape with the definition's own code;
 *   - the TypeScript types of bodies and answers (`Static<typeof Schema>`), used by the code and the widget;
 *   - the OpenAPI operation (`openApiPaths`, pure data: the document never needs a running app).
 *
 * Use:
 *
 *   const Body = Type.Object({ booking_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
 *   export const cancelRoute = defineRoute({
 *     method: 'POST', url: '/booking-cancel', scope: { resource: 'bookings', access: 'write' },
 *     operationId: 'booking_cancel', summary: '…', description: '…', tags: ['booking flow'],
 *     body: Body, invalid: invalidInput,                       // a refused body: 400 invalidInput(message, details)
 *     responses: { 200: { description: 'The booking, cancelled.', schema: Cancelled } },
 *     errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound'],   // components/responses by name
 *   });
 *   registerRoute(app, cancelRoute, authorize, async (request, reply, principal) => … request.body.booking_id …);
 *   // A public route says `scope: undefined` and is registered with registerPublicRoute; routeOptions gives the
 *   // Fastify options to add hooks of the route's own; `params: Type.Object({id: …})` types and checks `/x/:id`;
 *   // an answer that is not JSON says its `mediaType` (a PDF); a body read as bytes is a documented `rawBody`.
 *   // Every route is a definition: route-list.ts marks it, and the answers test fails on a route that is not.
 *   export const cancelPaths = openApiPaths([cancelRoute]);  // { paths, schemas } for src/openapi/document.ts
 *
 * Rules:
 *   - Objects say `additionalProperties: false`: an unknown field is a 400 naming it ("Unknown field: price"), never
 *     silently dropped. Nothing is coerced or defaulted in a body (the handler sees what the client sent; defaults
 *     are documented with `default` and applied by the code). Query and path parameters are strings converted to
 *     the schema's type (`perform_sync=true` → true); a query parameter given twice counts with its last value.
 *   - A refusal names the field and what it must be, derived from the schema ("interval.start must be a date
 *     (YYYY-MM-DD)"); where the schema's keywords say it badly (a pattern), `expected` gives the words: `Type.String(
 *     { pattern: '^[A-Z]{3}$', expected: 'an ISO 4217 code like EUR' })`. `expected` is not in the served document.
 *   - `component('Name', schema)` makes a schema a named component of the document (`$ref`); `sharedComponent` one
 *     the document has from elsewhere but requests validate with; `documentRef('name')` points at a component the
 *     document has from elsewhere (a table's row), for answers only: it validates nothing (schema-component.ts).
 *   - Answers are documented and validated by tests against the served document, never stripped or reshaped at run
 *     time: they are sent with JSON.stringify, as without a schema.
 *   - Rules that need the database (an unknown product, a capacity group) stay in code, with their own codes.
 *   - Authorization runs before validation (preValidation): a request without a valid key is a 401 whatever its body.
 */
import type {
  FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RawRequestDefaultExpression, RawServerDefault, RouteGenericInterface,
  RouteOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TObject, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import Format from 'typebox/format';
import { Value } from 'typebox/value';
import type { ApiError } from '../errors/api-error.js';
import { isDate } from '../common/dates.js';
import { EMAIL, UUID } from '../common/patterns.js';
import { COMPONENT, SHARED_COMPONENT } from './schema-component.js';

// The project's own definitions of the formats it checks, so a schema accepts exactly what the code does elsewhere.
Format.Set('date', isDate);
Format.Set('uuid', (value) => UUID.test(value));
Format.Set('email', (value) => EMAIL.test(value));

type JsonObject = Record<string, unknown>;

/** The responses of src/openapi/components.ts a route may answer with, by name, and their statuses. */
const ERROR_RESPONSES = {
  BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, NotAcceptable: 406, Conflict: 409, Gone: 410,
  PayloadTooLarge: 413, UriTooLong: 414, RangeNotSatisfiable: 416, UnprocessableContent: 422, TooManyRequests: 429, BadGateway: 502,
} as const;
export type ErrorResponse = keyof typeof ERROR_RESPONSES;

export interface RouteAnswer {
  description: string;
  /** The body's schema; none for an empty answer (204). */
  schema?: TSchema;
  /** The body's media type (default application/json); only a JSON answer's schema is given to Fastify. */
  mediaType?: string;
  /** Further media types of the same body (a download served with its file's own type), documented alike. */
  otherMediaTypes?: readonly string[];
  /** An example of the body, for the document. */
  example?: unknown;
  /** Named examples of the body (an error answer's several causes), for the document. */
  examples?: Record<string, unknown>;
  /** Response headers as OpenAPI header objects, by name. */
  headers?: Record<string, JsonObject>;
}

/** What a scope grants on a resource (src/auth/scopes.ts takes it from here: this folder depends on no folder of routes). */
export type Access = 'read' | 'write';

/**
 * Who checks a scoped route's key or session: src/auth's `Authorize` is one, answering its Principal; written here by
 * shape so this folder needs nothing from src/auth, whose own routes are definitions.
 */
export type RouteAuthorize<P> = (request: FastifyRequest, resource: string, access: Access, options: { sideEffects?: boolean }) => Promise<P>;

export interface RouteScope {
  resource: string;
  access: Access;
  /** A read that changes something (a GET that syncs calendars): see AuthorizeOptions.sideEffects. */
  sideEffects?: (request: FastifyRequest) => boolean;
}

export interface RouteDefinition<
  Body extends TSchema | undefined = TSchema | undefined, Query extends TObject | undefined = TObject | undefined,
  Params extends TObject | undefined = TObject | undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to the plugin's prefix (`/v1`), as the document's paths are. */
  url: string;
  /** The scope the request needs (registerRoute); none for a public route (registerPublicRoute). */
  scope?: RouteScope | undefined;
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  body?: Body;
  /** Whether a body must be sent (default true when there is a body schema); without one the handler sees `{}`. */
  bodyRequired?: boolean;
  query?: Query;
  /** The path's parameters (`/webhooks/:id`: `{id}`), converted from strings to the schema's types. */
  params?: Params;
  /** Further parameters of the operation, as OpenAPI parameter objects or `$ref`s (an Idempotency-Key header). */
  parameters?: JsonObject[];
  /**
   * A body the handler reads as bytes (a signature over them, an image): documented with a schema per media type it
   * accepts, never validated. The route's plugin keeps the bytes (a content-type parser of its own); the handler
   * gets what that parser gives.
   */
  rawBody?: Record<string, TSchema>;
  /** Who may call it, as OpenAPI security requirements (`[]`: anyone); default the document's (an API key). */
  security?: JsonObject[];
  /** Where it is served, when not under the API's prefix (`[{url: '/'}]` for /health): the path item's servers. */
  servers?: JsonObject[];
  /** The answers the route gives on success, by status. */
  responses: Record<number, RouteAnswer>;
  /** The error answers, by the name of their shared response (components/responses). */
  errors: ErrorResponse[];
  /** The ApiError of a refused body or query (the route's "malformed input" code): 400 with this message. */
  invalid: (message: string, details: string | null) => ApiError;
}

/** Returns the definition: a place for TypeScript to check it and keep its schemas' (and its scope's) types. */
export function defineRoute<
  Body extends TSchema | undefined, Query extends TObject | undefined, Scope extends RouteScope | undefined,
  Params extends TObject | undefined = undefined,
>(definition: RouteDefinition<Body, Query, Params> & { scope: Scope }): RouteDefinition<Body, Query, Params> & { scope: Scope } {
  return definition;
}

const ANNOTATIONS_NOT_SERVED = new Set([COMPONENT, SHARED_COMPONENT, 'expected']);

// ---------------------------------------------------------------------------------------------------------------
// Validation: the definition's schemas checked by TypeBox's compiler, refusals worded from the schema.

type Part = 'body' | 'querystring' | 'params';

/** How a refusal names a whole part of the request. */
const PART_NAMES: Record<Part, string> = { body: 'The request body', querystring: 'The query', params: 'The path' };

interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
}

const FORMATS: Record<string, string> = {
  date: 'a date (YYYY-MM-DD)', 'date-time': 'a date and time (RFC 3339)', uuid: 'a uuid', email: 'an e-mail address',
  uri: 'a URI', url: 'a URL',
};

/** What a value under `schema` must be, in words: "a uuid", "one of nightly, daily", "a non-negative integer". */
function expectation(schema: JsonObject): string {
  if (typeof schema.expected === 'string') return schema.expected;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonObject[] | undefined;
  if (branches) {
    const described = branches.filter((branch) => branch.type !== 'null').map(expectation);
    return [...new Set(described)].join(' or ');
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) {
    return `one of ${schema.enum.filter((value) => value !== null).map((value) => (value === '' ? '""' : String(value))).join(', ')}`;
  }
  if (typeof schema.format === 'string') return FORMATS[schema.format] ?? `a ${schema.format}`;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== 'null') as string[];
  if (types.length !== 1) return types.map((type) => expectation({ type })).join(' or ') || 'a value';
  return typeExpectation(types[0]!, schema);
}

function typeExpectation(type: string, schema: JsonObject): string {
  switch (type) {
    case 'string': {
      if (typeof schema.pattern === 'string') return `a string matching ${schema.pattern}`;
      const shortest = Number(schema.minLength ?? 0);
      const longest = schema.maxLength as number | undefined;
      const base = shortest > 0 ? 'a non-empty string' : 'a string';
      return longest === undefined ? base : `${base} of at most ${longest} characters`;
    }
    case 'integer':
    case 'number': {
      const noun = type === 'integer' ? 'an integer' : 'a number';
      const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
      if (minimum !== undefined && maximum !== undefined) return `${noun} from ${minimum} to ${maximum}`;
      if (minimum === 0) return `a non-negative ${type}`;
      if (minimum !== undefined) return `${noun} of at least ${minimum}`;
      return noun;
    }
    case 'boolean':
      return 'a boolean';
    case 'object': {
      const required = (schema.required ?? []) as string[];
      return required.length > 0 ? `a JSON object with ${required.join(', ')}` : 'a JSON object';
    }
    case 'array': {
      // What each item must be is said when an item is wrong (the error then names it: `coupon_codes[0]`).
      const bounds = schema.maxItems !== undefined ? ` of at most ${String(schema.maxItems)} items` : '';
      return `${Number(schema.minItems ?? 0) > 0 ? 'a non-empty array' : 'an array'}${bounds}`;
    }
    case 'null':
      return 'null';
    default:
      return 'a value';
  }
}

/** `/cart/items/0/interval/start` → `cart.items[0].interval.start`; the root is named by the part. */
function fieldName(instancePath: string, part: Part): string {
  if (instancePath === '') return PART_NAMES[part];
  return instancePath.slice(1).split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`), '');
}

/** The schema node a TypeBox error's `schemaPath` (`#/properties/interval/properties/start`) points at. */
function schemaAt(root: TSchema, schemaPath: string): JsonObject {
  let node: unknown = root;
  for (const segment of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean)) node = (node as JsonObject)[segment];
  return (node ?? {}) as JsonObject;
}

/** The keywords that fail when a value is not of a branch's kind at all. */
const TYPE_KEYWORDS = new Set(['type', 'anyOf', 'oneOf', 'const', 'enum']);

const prefixed = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/**
 * The one error a client is told about, of all the schema found: an unknown field first (as rejectUnknownFields
 * always did), else the first error — or, inside alternatives (`anyOf`) none of which fit the value's type, the
 * alternatives as a whole ("name must be a non-empty string or a JSON object").
 */
function mainError(schema: TSchema, errors: SchemaError[]): SchemaError | undefined {
  // Left out: the per-key echoes of `additionalProperties: false` and of `propertyNames` (each reported once, whole),
  // and an `additionalProperties` schema's summary (its value's own error says more).
  const relevant = errors.filter((error) => error.keyword !== 'boolean' && !error.schemaPath.endsWith('/propertyNames')
    && !(error.keyword === 'additionalProperties' && schemaAt(schema, error.schemaPath).additionalProperties !== false));
  const unknown = relevant.find((error) => error.keyword === 'additionalProperties');
  if (unknown) return unknown;
  const first = relevant.find((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf');
  if (!first) return relevant[0];
  const alternatives = relevant
    .filter((error) => (error.keyword === 'anyOf' || error.keyword === 'oneOf') && first.schemaPath.startsWith(`${error.schemaPath}/`))
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length)[0];
  if (!alternatives) return first;
  // A branch whose type fit and that failed deeper (inside the value, or a bound) is what the client meant: its error.
  const deeper = relevant.find((error) => error.schemaPath.startsWith(`${alternatives.schemaPath}/`)
    && (error.instancePath.length > alternatives.instancePath.length || !TYPE_KEYWORDS.has(error.keyword)));
  return deeper ?? alternatives;
}

/** The refusal of a value `schema` did not accept: `invalid(message, details)` naming the field. */
function refusal(schema: TSchema, value: unknown, errors: SchemaError[], part: Part, invalid: RouteDefinition['invalid']): ApiError {
  const error = mainError(schema, errors);
  if (!error) return invalid(`${PART_NAMES[part]} is not valid`, null);
  const field = fieldName(error.instancePath, part);
  const path = error.instancePath === '' ? '' : field;
  const node = schemaAt(schema, error.schemaPath);
  switch (error.keyword) {
    case 'additionalProperties': {
      const unknown = (error.params.additionalProperties as string[]).map((key) => prefixed(path, key));
      const allowed = Object.keys((node.properties ?? {}) as JsonObject).map((key) => prefixed(path, key));
      return invalid(`Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, `allowed: ${allowed.join(', ')}`);
    }
    case 'required': {
      const present = valueAt(value, error.instancePath) as JsonObject;
      const required = error.params.requiredProperties as string[];
      const missing = required.find((key) => !(key in present)) ?? required[0]!;
      const property = ((node.properties ?? {}) as Record<string, JsonObject>)[missing] ?? {};
      return invalid(`${prefixed(path, missing)} is required: ${expectation(property)}`, null);
    }
    case 'propertyNames': {
      const names = error.params.propertyNames as string[];
      return invalid(`${field} keys must each be ${expectation(node.propertyNames as JsonObject)}`, `got ${names.map((name) => JSON.stringify(name)).join(', ')}`);
    }
    default:
      return invalid(`${field} must be ${expectation(node)}`, null);
  }
}

/** Query parameters are single values: the last one counts when a parameter is repeated. */
function lastValues(query: unknown): unknown {
  if (typeof query !== 'object' || query === null) return query;
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, Array.isArray(value) ? value.at(-1) : value]));
}

type Validation = { value: unknown } | { error: Error };

/** A validator for one part of a request, answering Fastify's validator-compiler contract. */
function validatorFor(definition: RouteDefinition, part: Part): ((value: unknown) => Validation) | undefined {
  const schema = { body: definition.body, querystring: definition.query, params: definition.params }[part];
  if (!schema) return undefined;
  const check = Compile(schema);
  const required = part === 'body' ? definition.bodyRequired ?? true : false;
  return (input) => {
    // Fastify passes null for an absent body (and for a JSON `null`); an optional body is then empty.
    let value = part === 'body' ? input : Value.Convert(schema, part === 'querystring' ? lastValues(input ?? {}) : input ?? {});
    if (value === null && !required) value = {};
    if (check.Check(value)) return { value };
    // The error is the route's ApiError; Fastify answers it through the app's error handler.
    return { error: refusal(schema, value, check.Errors(value) as unknown as SchemaError[], part, definition.invalid) };
  };
}

/** The part of `value` at a JSON pointer (`/cart/items/0`). */
function valueAt(value: unknown, instancePath: string): unknown {
  let node = value;
  for (const segment of instancePath.split('/').filter(Boolean)) node = (node as JsonObject | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

// ---------------------------------------------------------------------------------------------------------------
// Registration.

/** A route's request, its body and query typed from the definition's schemas by Fastify's TypeBox type provider. */
export type RouteRequest<Body extends TSchema | undefined, Query extends TObject | undefined, Params extends TObject | undefined = undefined> = FastifyRequest<
  RouteGenericInterface, RawServerDefault, RawRequestDefaultExpression, { body: Body; querystring: Query; params: Params }, TypeBoxTypeProvider
>;

/** What a route's handler gets: its typed request, the reply, and who asked. */
export type RouteHandler<Body extends TSchema | undefined, Query extends TObject | undefined, Params extends TObject | undefined = undefined, P = unknown> = (
  request: RouteRequest<Body, Query, Params>, reply: FastifyReply, principal: P,
) => Promise<unknown>;

/** What a public route's handler gets: its typed request and the reply. */
export type PublicRouteHandler<Body extends TSchema | undefined, Query extends TObject | undefined, Params extends TObject | undefined = undefined> = (
  request: RouteRequest<Body, Query, Params>, reply: FastifyReply,
) => Promise<unknown>;

/** The route's schemas, their validation and the answers' serialization (JSON.stringify: a schema never reshapes). */
function schemaOptions(definition: RouteDefinition): Pick<RouteOptions, 'method' | 'url' | 'schema' | 'validatorCompiler' | 'serializerCompiler' | 'config'> {
  const schema: FastifySchema = {
    ...(definition.body ? { body: definition.body } : {}),
    ...(definition.query ? { querystring: definition.query } : {}),
    ...(definition.params ? { params: definition.params } : {}),
    response: Object.fromEntries(Object.entries(definition.responses)
      .filter(([, answer]) => answer.schema && isJson(answer.mediaType)).map(([status, answer]) => [status, answer.schema])),
  };
  return {
    method: definition.method,
    url: definition.url,
    // What the route is, for the app's route list (route-role.ts): the operation of a definition.
    config: { staykitRoute: { kind: 'definition', operationId: definition.operationId } },
    schema,
    validatorCompiler: ({ httpPart }) => validatorFor(definition, httpPart as Part) ?? ((value: unknown) => ({ value })),
    serializerCompiler: () => (data: unknown) => JSON.stringify(data),
  };
}

/**
 * The Fastify route of a scoped definition: `authorize` checks its scope in preValidation, before the body is looked
 * at, and the handler gets the principal. For a route that needs more (a hook of its own): `app.route({...routeOptions(…), …})`.
 */
export function routeOptions<Body extends TSchema | undefined, Query extends TObject | undefined, Params extends TObject | undefined, P>(
  definition: RouteDefinition<Body, Query, Params> & { scope: RouteScope }, authorize: RouteAuthorize<P>, handler: RouteHandler<Body, Query, Params, P>,
): RouteOptions {
  const { scope } = definition;
  const principals = new WeakMap<FastifyRequest, P>();
  return {
    ...schemaOptions(definition as RouteDefinition),
    preValidation: async (request) => {
      const sideEffects = scope.sideEffects?.(request) ?? false;
      principals.set(request, await authorize(request, scope.resource, scope.access, sideEffects ? { sideEffects } : {}));
    },
    handler: async (request, reply) => {
      if (!principals.has(request)) throw new Error(`route ${definition.url}: no principal after preValidation`);
      return handler(request as unknown as RouteRequest<Body, Query, Params>, reply, principals.get(request) as P);
    },
  };
}

/** Registers a scoped definition on `app` (see routeOptions). */
export function registerRoute<Body extends TSchema | undefined, Query extends TObject | undefined, Params extends TObject | undefined, P>(
  app: FastifyInstance, definition: RouteDefinition<Body, Query, Params> & { scope: RouteScope }, authorize: RouteAuthorize<P>, handler: RouteHandler<Body, Query, Params, P>,
): void {
  app.route(routeOptions(definition, authorize, handler));
}

/** Registers a definition without a scope (the handler authenticates itself, or nobody need). */
export function registerPublicRoute<Body extends TSchema | undefined, Query extends TObject | undefined, Params extends TObject | undefined = undefined>(
  app: FastifyInstance, definition: RouteDefinition<Body, Query, Params> & { scope?: undefined }, handler: PublicRouteHandler<Body, Query, Params>,
): void {
  app.route({
    ...schemaOptions(definition as RouteDefinition),
    handler: async (request, reply) => handler(request as unknown as RouteRequest<Body, Query, Params>, reply),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The OpenAPI document's share: pure data from the definitions.

/** A schema as served: plain JSON, named components as `$ref`s (collected into `components`), no validator annotations. */
function servedSchema(schema: unknown, components: Record<string, JsonObject>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => servedSchema(item, components));
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = schema as JsonObject;
  if (typeof node[SHARED_COMPONENT] === 'string') return { $ref: `#/components/schemas/${node[SHARED_COMPONENT]}` };
  const name = node[COMPONENT];
  const entries = Object.entries(node).filter(([key]) => !ANNOTATIONS_NOT_SERVED.has(key));
  const plain = Object.fromEntries(entries.map(([key, value]) => [key, servedSchema(value, components)]));
  if (typeof name !== 'string') return plain;
  const existing = components[name];
  if (existing && JSON.stringify(existing) !== JSON.stringify(plain)) throw new Error(`component ${name} is defined twice, differently`);
  components[name] = plain;
  return { $ref: `#/components/schemas/${name}` };
}

const JSON_MEDIA = 'application/json';
const isJson = (mediaType: string | undefined): boolean => mediaType === undefined || mediaType === JSON_MEDIA;
const json = (schema: unknown) => ({ [JSON_MEDIA]: { schema } });

/** An object schema's properties as OpenAPI parameters `in` the query or the path. */
function parametersOf(schema: TObject, where: 'query' | 'path', components: Record<string, JsonObject>): JsonObject[] {
  const required = new Set((schema as unknown as { required?: string[] }).required ?? []);
  return Object.entries(schema.properties as Record<string, JsonObject>).map(([name, property]) => {
    const { description, ...rest } = servedSchema(property, components) as JsonObject;
    return { name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}

/** The operation of one definition. */
function operationOf(definition: RouteDefinition, components: Record<string, JsonObject>): JsonObject {
  const parameters = [
    ...(definition.params ? parametersOf(definition.params, 'path', components) : []),
    ...(definition.query ? parametersOf(definition.query, 'query', components) : []),
    ...(definition.parameters ?? []),
  ];
  const answers = Object.entries(definition.responses).map(([status, answer]) => [status, {
    description: answer.description,
    ...(answer.headers ? { headers: answer.headers } : {}),
    ...(answer.schema ? {
      content: Object.fromEntries([answer.mediaType ?? JSON_MEDIA, ...(answer.otherMediaTypes ?? [])].map((mediaType) => [mediaType, {
        schema: servedSchema(answer.schema, components),
        ...(answer.example === undefined ? {} : { example: answer.example }),
        ...(answer.examples ? { examples: Object.fromEntries(Object.entries(answer.examples).map(([name, value]) => [name, { value }])) } : {}),
      }])),
    } : {}),
  }]);
  const { body, rawBody } = definition;
  const requestBody = body ? { required: definition.bodyRequired ?? true, content: json(servedSchema(body, components)) }
    : rawBody ? {
      required: true,
      content: Object.fromEntries(Object.entries(rawBody).map(([mediaType, schema]) => [mediaType, { schema: servedSchema(schema, components) }])),
    } : undefined;
  const errors = definition.errors.map((name) => [String(ERROR_RESPONSES[name]), { $ref: `#/components/responses/${name}` }]);
  return {
    tags: definition.tags, operationId: definition.operationId, summary: definition.summary, description: definition.description,
    ...(definition.security ? { security: definition.security } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: Object.fromEntries([...answers, ...errors]),
  };
}

/** The paths and component schemas of `definitions`, for src/openapi/document.ts to merge. */
export function openApiPaths(definitions: readonly RouteDefinition[]): { paths: Record<string, JsonObject>; schemas: Record<string, JsonObject> } {
  const schemas: Record<string, JsonObject> = {};
  const paths: Record<string, JsonObject> = {};
  for (const definition of definitions) {
    // Fastify's `/webhooks/:id` is OpenAPI's `/webhooks/{id}`.
    const item = (paths[definition.url.replace(/:(\w+)/g, '{$1}')] ??= definition.servers ? { servers: definition.servers } : {});
    item[definition.method.toLowerCase()] = operationOf(definition, schemas);
  }
  return { paths, schemas };
}
