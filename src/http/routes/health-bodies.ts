/**
 * The answers of `/health` and `/ready` (health.ts), each written once as a TypeBox schema: JSON Schema for the
 * OpenAPI document (src/openapi/document.ts) and, through `Static`, the routes' TypeScript types.
 */
import Type, { type Static } from 'typebox';

const migration = Type.Union([Type.String(), Type.Null()], { description: 'The newest applied migration; null on an empty database.' });

export const Health = Type.Object({
  status: Type.Literal('ok'),
  backend: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
  postgres_version: Type.Union([Type.String(), Type.Null()]),
  migration,
});
export type Health = Static<typeof Health>;

export const Readiness = Type.Object({
  ready: Type.Boolean(),
  migration: Type.Optional(migration),
  pending: Type.Optional(Type.Array(Type.String(), { description: 'Migrations not applied yet.' })),
  database: Type.Optional(Type.Literal('unreachable')),
});
export type Readiness = Static<typeof Readiness>;
