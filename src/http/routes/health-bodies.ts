/**
 * `/health` and `/ready` (health.ts) as route definitions (src/routing/route-schema.ts): their answers written once
 * as TypeBox schemas, for the OpenAPI document (src/openapi/document.ts), the answers test and, through `Static`,
 * the routes' TypeScript types. Both are served at the root, outside /v1, to anyone.
 */
import Type, { type Static } from 'typebox';
import { invalidBody } from '../../errors/catalogue.js';
import { defineRoute } from '../../routing/route-schema.js';
import { component } from '../../routing/schema-component.js';

const migration = Type.Union([Type.String(), Type.Null()], { description: 'The newest applied migration; null on an empty database.' });

export const Health = Type.Object({
  status: Type.Literal('ok'),
  backend: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
  postgres_version: Type.Union([Type.String(), Type.Null()]),
  migration,
});
export type Health = Static<typeof Health>;

export const Readiness = component('Readiness', Type.Object({
  ready: Type.Boolean(),
  migration: Type.Optional(migration),
  pending: Type.Optional(Type.Array(Type.String(), { description: 'Migrations not applied yet.' })),
  database: Type.Optional(Type.Literal('unreachable')),
}));
export type Readiness = Static<typeof Readiness>;

/** What every operation outside the API's prefix and its keys says: served at the root, to anyone. */
export const AT_THE_ROOT: { servers: Record<string, string>[]; security: []; scope: undefined } = {
  servers: [{ url: '/', description: 'The server root (outside /v1)' }], security: [], scope: undefined,
};

export const healthRoute = defineRoute({
  method: 'GET', url: '/health', ...AT_THE_ROOT, operationId: 'health', summary: 'Liveness', tags: ['operations'],
  description: 'The process is up; which database backend it runs on, its Postgres version and newest migration.',
  responses: {
    200: { description: 'Up.', schema: Health, example: { status: 'ok', backend: 'postgres', postgres_version: '16.4', migration: '0060_booking_flow' } },
  },
  // The request-size limit applies before any route: the one refusal of a request without a body or a key.
  errors: ['UriTooLong'], invalid: invalidBody,
});

export const readyRoute = defineRoute({
  method: 'GET', url: '/ready', ...AT_THE_ROOT, operationId: 'ready', summary: 'Readiness', tags: ['operations'],
  description: 'The database answers and every migration is applied. Load balancers should route only to ready processes.',
  responses: {
    200: { description: 'Ready.', schema: Readiness },
    503: {
      description: 'Not ready: the database is unreachable or migrations are pending.',
      headers: { 'Retry-After': { schema: { type: 'integer' } } },
      schema: Readiness,
    },
  },
  errors: ['UriTooLong'], invalid: invalidBody,
});

export const HEALTH_ROUTES = [healthRoute, readyRoute];
