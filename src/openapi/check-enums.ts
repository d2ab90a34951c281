/**
 * Allowed values written as CHECK lists (`CHECK (status IN ('pending', 'sent', 'error'))`): the schema cache only
 * knows PostgreSQL enum types, while Staykit's migrations spell closed value sets as CHECKs. One catalog query reads
 * them so the OpenAPI document can show them as JSON Schema `enum`s. Also notes columns checked by Staykit's
 * domain predicates (`staykit_internal.is_multi_language_string(col)`), which the document describes by shape.
 */
import type { Queryable } from '../db/types.js';

/** table → column → allowed values. */
export type CheckEnums = Map<string, Map<string, string[]>>;

/** table → column → name of the `staykit_internal.is_*` predicate the column is checked with. */
export type CheckPredicates = Map<string, Map<string, string>>;

export interface CheckConstraints {
  enums: CheckEnums;
  predicates: CheckPredicates;
}

const CHECKS = `
SELECT cl.relname AS table_name, pg_get_constraintdef(con.oid) AS definition
FROM pg_constraint con
JOIN pg_class cl ON cl.oid = con.conrelid
JOIN pg_namespace n ON n.oid = cl.relnamespace
WHERE n.nspname = $1 AND con.contype = 'c'
ORDER BY cl.relname, con.conname`;

// `CHECK ((col = ANY (ARRAY['a'::text, 'b'::text])))`, optionally `… OR col IS NULL` — how PostgreSQL prints `IN`.
const ANY_ARRAY = /^CHECK \(\(+"?(\w+)"? = ANY \(+ARRAY\[((?:'(?:[^']|'')*'::[\w ]+(?:, )?)+)\]\)+( OR \("?\w+"? IS NULL\))?\)+$/;
const LITERAL = /'((?:[^']|'')*)'::[\w ]+/g;
const PREDICATE = /^CHECK \(+staykit_internal\.(is_\w+)\("?(\w+)"?\)\)+$/;

/** Parses one `pg_get_constraintdef` text; exported for unit tests. */
export function parseCheck(definition: string): { column: string; values: string[] } | { column: string; predicate: string } | null {
  const list = ANY_ARRAY.exec(definition);
  if (list) {
    const values = [...list[2]!.matchAll(LITERAL)].map((match) => match[1]!.replace(/''/g, "'"));
    return { column: list[1]!, values };
  }
  const predicate = PREDICATE.exec(definition);
  if (predicate) return { column: predicate[2]!, predicate: predicate[1]! };
  return null;
}

/**
 * Array columns whose allowed values a catalogue lists rather than a CHECK list: the webhook event catalogue
 * (staykit_internal.webhook_event_types, migration 0218; `*` is every event) and the host notifications (0219).
 */
const CATALOGUE_ENUMS = `
SELECT 'webhooks' AS table_name, 'events' AS column_name, staykit_internal.webhook_event_catalogue() || ARRAY['*'] AS values
UNION ALL
SELECT 'members', 'notify', staykit_internal.host_notification_kinds()`;

export async function loadCheckConstraints(db: Queryable, schema: string): Promise<CheckConstraints> {
  const { rows } = await db.query<{ table_name: string; definition: string }>(CHECKS, [schema]);
  const catalogues = schema === 'api'
    ? (await db.query<{ table_name: string; column_name: string; values: string[] }>(CATALOGUE_ENUMS)).rows
    : [];
  const enums: CheckEnums = new Map();
  const predicates: CheckPredicates = new Map();
  const put = <T>(map: Map<string, Map<string, T>>, table: string, column: string, value: T) => {
    if (!map.has(table)) map.set(table, new Map());
    map.get(table)!.set(column, value);
  };
  for (const row of rows) {
    const parsed = parseCheck(row.definition);
    if (!parsed) continue;
    if ('values' in parsed) put(enums, row.table_name, parsed.column, parsed.values);
    else put(predicates, row.table_name, parsed.column, parsed.predicate);
  }
  for (const row of catalogues) put(enums, row.table_name, row.column_name, row.values);
  return { enums, predicates };
}
