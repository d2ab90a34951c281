/**
 * Examples made from the schemas they illustrate: a value is derived from a JSON Schema (its own `example`/
 * `examples` first, then `const`, `enum`, `format`, bounds, and for objects the required properties), so an
 * example cannot contradict its schema when a column's type, CHECK list or shape changes.
 */
import type { JsonSchema } from './json-schema.js';

const SAMPLE_UUID = '3f2a6c1e-8b7d-4c55-9a0e-2d4b6f8a1c3e';

const FORMAT_SAMPLES: Record<string, string> = {
  uuid: SAMPLE_UUID,
  date: '2025-07-08',
  'date-time': '2025-05-01T09:30:00Z',
  email: 'guest@example.com',
  uri: 'https://example.com/',
};

const COMPONENT = /^#\/components\/schemas\/(.+)$/;

/** The schema's first type other than `null` (`type: ['string', 'null']` → `string`). */
function mainType(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return (type as string[]).find((name) => name !== 'null');
  return typeof type === 'string' ? type : undefined;
}

const isNullSchema = (schema: JsonSchema): boolean => schema.type === 'null';

/** A value valid under `schema`; `$ref`s are resolved against `components` (the document's `components.schemas`). */
export function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>): unknown {
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (typeof schema.$ref === 'string') {
    const target = components[COMPONENT.exec(schema.$ref)?.[1] ?? ''];
    if (!target) throw new Error(`example: unresolvable $ref ${schema.$ref}`);
    return exampleOf(target, components);
  }
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).find((value) => value !== null) ?? null;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) return exampleOf(branches.find((branch) => !isNullSchema(branch)) ?? branches[0]!, components);
  switch (mainType(schema)) {
    case 'string': {
      const sample = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format] : undefined;
      return sample ?? 'x'.repeat(Number(schema.minLength ?? 0));
    }
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 0);
    case 'boolean':
      return false;
    case 'array': {
      const items = (schema.items ?? {}) as JsonSchema;
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => exampleOf(items, components));
    }
    case 'object':
      return objectExample(schema, (schema.required ?? []) as string[], components);
    case 'null':
      return null;
    default:
      return {};
  }
}

/** An object with the given properties of `schema` (e.g. every column of a row, or only the required ones). */
export function objectExample(schema: JsonSchema, names: string[], components: Record<string, JsonSchema>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.fromEntries(names.filter((name) => name in properties).map((name) => [name, exampleOf(properties[name]!, components)]));
}
