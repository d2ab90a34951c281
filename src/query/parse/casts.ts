/**
 * The types a `select` cast (`col::type`) may name: plain data types only. A cast runs the type's input function,
 * and some types' input functions look things up in the shared catalog (`::regclass`, `::regrole`, `::regproc` …
 * tell whether a relation, role or function exists in the whole cluster), so any other type is refused.
 */
const PLAIN_TYPES = [
  'text', 'varchar', 'character varying', 'char', 'character',
  'smallint', 'integer', 'int', 'bigint', 'int2', 'int4', 'int8',
  'numeric', 'decimal', 'real', 'double precision', 'float4', 'float8',
  'boolean', 'bool',
  'date', 'time', 'timestamp', 'timestamptz', 'timestamp with time zone', 'timestamp without time zone', 'interval',
  'json', 'jsonb', 'uuid',
] as const;

const ALLOWED = new Set<string>(PLAIN_TYPES);

/** The allowed types, for error messages and documentation. */
export const ALLOWED_CASTS: readonly string[] = PLAIN_TYPES;

/** The cast in canonical spelling (lower case, single spaces, `[]` kept), or undefined when not allowed. */
export function allowedCast(cast: string): string | undefined {
  const normalized = cast.trim().toLowerCase().replace(/\s+/g, ' ');
  const array = normalized.endsWith('[]');
  const base = array ? normalized.slice(0, -2).trim() : normalized;
  return ALLOWED.has(base) ? `${base}${array ? '[]' : ''}` : undefined;
}
