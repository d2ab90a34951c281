/**
 * Naming schemas for the OpenAPI document (route-schema.ts): a schema marked here is served as a `$ref` to a
 * component instead of inline. Its own file, depending on TypeBox only, so browser code (the widget) can import the
 * answer schemas' types without the server.
 */
import Type, { type TSchema } from 'typebox';

/** The annotation naming a component the route definitions define (collected into `components.schemas`). */
export const COMPONENT = 'x-component';
/** The annotation naming a component the document has from elsewhere (src/openapi/components.ts): only `$ref`. */
export const SHARED_COMPONENT = 'x-shared-component';

/** A schema that is a named component of the document (`#/components/schemas/<name>`) wherever it is used. */
export function component<T extends TSchema>(name: string, schema: T): T {
  return { ...schema, [COMPONENT]: name };
}

/**
 * A schema the document already has as a component (src/openapi/components.ts): validates with `schema`, served as
 * its `$ref`. For a shape other parts of the document share (an occupancy column and an occupancy in a body).
 */
export function sharedComponent<T extends TSchema>(name: string, schema: T): T {
  return { ...schema, [SHARED_COMPONENT]: name };
}

/** A component the document has from elsewhere (a table's row schema): documents an answer, validates nothing. */
export function documentRef<T = Record<string, unknown>>(name: string): TSchema & { static: T } {
  return Type.Unsafe<T>({ $ref: `#/components/schemas/${name}` }) as unknown as TSchema & { static: T };
}

/** A field that may also be sent as `null`, meaning "not given". */
export const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
