/**
 * PostgreSQL column → JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it), as the engine's JSON output spells each
 * type: `bigint` and `numeric` as numbers, dates and times as strings, `json`/`jsonb` as any JSON value, ranges and
 * `tsvector` as their text form. Closed value sets come from CHECK lists; shapes of checked JSON columns from the
 * `staykit_internal.is_*` predicate the column is checked with.
 */
import type { Column } from '../schema/types.js';

export type JsonSchema = Record<string, unknown>;

const INTEGER: Record<string, string> = { int2: 'int32', int4: 'int32', int8: 'int64' };
const NUMBER: Record<string, string | undefined> = { float4: 'float', float8: 'double', numeric: undefined, money: undefined };

function scalarSchema(udtName: string, type: string): JsonSchema {
  if (udtName in INTEGER) return { type: 'integer', format: INTEGER[udtName] };
  if (udtName in NUMBER) return NUMBER[udtName] ? { type: 'number', format: NUMBER[udtName] } : { type: 'number' };
  switch (udtName) {
    case 'bool':
      return { type: 'boolean' };
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'timestamptz':
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'time':
      return { type: 'string', pattern: '^\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?$', examples: ['16:00:00'] };
    case 'json':
    case 'jsonb':
      return {};
    case 'tsvector':
      return { type: 'string', description: 'Full-text search vector (read it with the `fts` filter operators).' };
    case 'daterange':
    case 'tstzrange':
    case 'int4range':
      return { type: 'string', examples: ['[2025-07-01,2025-07-15)'] };
    case 'datemultirange':
      return { type: 'string', examples: ['{[2025-06-01,2025-09-01),[2025-12-20,2026-01-04)}'] };
    default: {
      const length = /^character varying\((\d+)\)$/.exec(type);
      return length ? { type: 'string', maxLength: Number(length[1]) } : { type: 'string' };
    }
  }
}

/** Shapes of columns checked by Staykit's domain predicates. `$ref`s point at components (see document.ts). */
const PREDICATE_SHAPES: Record<string, JsonSchema> = {
  is_multi_language_string: { $ref: '#/components/schemas/MultiLanguageString' },
  is_currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code.', examples: ['EUR'] },
  is_language: { type: 'string', description: 'BCP 47 language tag.', examples: ['en', 'nl-NL'] },
  is_time_zone: { type: 'string', description: 'IANA time zone.', examples: ['Europe/Amsterdam'] },
  is_email: { type: 'string', format: 'email' },
  is_http_url: { type: 'string', format: 'uri' },
  is_color: { type: 'string', examples: ['#1f6feb'] },
  is_occupancy: { $ref: '#/components/schemas/Occupancy' },
  is_moment: { $ref: '#/components/schemas/Moment' },
  is_coordinates: {
    type: 'object',
    properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lng: { type: 'number', minimum: -180, maximum: 180 } },
    required: ['lat', 'lng'],
  },
  is_rate_table: { type: 'array', items: { $ref: '#/components/schemas/Rate' } },
  is_weekday_mask: { type: 'array', items: { type: 'boolean' }, minItems: 7, maxItems: 7, description: 'Index 0 = Monday.' },
  is_coupon_definition: { $ref: '#/components/schemas/CouponDefinition' },
  is_json_array_of_objects: { type: 'array', items: { type: 'object' } },
};

export interface ColumnContext {
  enumValues?: string[] | undefined;
  predicate?: string | undefined;
}

/** The schema of one column's value, with nullability, description and default. */
export function columnSchema(column: Column, context: ColumnContext = {}): JsonSchema {
  let schema: JsonSchema;
  const predicateShape = context.predicate ? PREDICATE_SHAPES[context.predicate] : undefined;
  const values = column.enumValues ?? context.enumValues;
  if (column.isArray) {
    const element = column.udtName.replace(/^_/, '');
    const items = scalarSchema(element, column.elementType ?? 'text');
    schema = predicateShape ?? { type: 'array', items: values ? { ...items, enum: values } : items };
  } else if (predicateShape) {
    schema = { ...predicateShape };
  } else {
    schema = scalarSchema(column.udtName, column.type);
    if (values) schema.enum = values;
  }
  if (column.nullable) schema = makeNullable(schema);
  if (column.comment) schema.description = column.comment;
  return schema;
}

/** `type: X` → `type: [X, 'null']`; a `$ref` or typeless schema → `anyOf` with null. Enums get `null` added. */
export function makeNullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const nullable: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) nullable.enum = [...(schema.enum as unknown[]), null];
    return nullable;
  }
  if (schema.$ref) {
    const { $ref, ...rest } = schema;
    return { ...rest, anyOf: [{ $ref }, { type: 'null' }] };
  }
  return schema;
}
