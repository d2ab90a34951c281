/** Reads what `generateTypescriptTypes` needs from a database: the schema cache as the API role sees it, CHECK lists, composite types. */
import type { Queryable } from '../db/types.js';
import { loadSchemaCache } from '../schema/load.js';
import { loadCheckConstraints } from '../openapi/check-enums.js';
import { API_SCHEMA } from '../transaction/tenant-transaction.js';
import { generateTypescriptTypes, type CompositeType } from './typescript.js';

// Standalone composite types (CREATE TYPE … AS (…)), not the row types every table and view also has.
const COMPOSITE_TYPES = `
SELECT t.typname AS name,
  json_agg(json_build_object('name', a.attname, 'udtName', at.typname) ORDER BY a.attnum) AS attributes
FROM pg_type t
JOIN pg_namespace n ON n.oid = t.typnamespace
JOIN pg_class c ON c.oid = t.typrelid AND c.relkind = 'c'
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_type at ON at.oid = a.atttypid
WHERE n.nspname = $1
GROUP BY t.typname
ORDER BY t.typname`;

/**
 * The `Database` type of `schema`. Staykit's `api` schema is described as its API role (`staykit_api`) sees it —
 * what a key can read and write; any other schema as the connecting user sees it.
 */
export async function databaseTypes(db: Queryable, schema = 'api'): Promise<string> {
  const cache = await loadSchemaCache(db, schema === API_SCHEMA.schema ? API_SCHEMA : { schema });
  const { enums } = await loadCheckConstraints(db, schema);
  const { rows } = await db.query<CompositeType>(COMPOSITE_TYPES, [schema]);
  return generateTypescriptTypes({ cache, checkEnums: enums, compositeTypes: rows });
}
