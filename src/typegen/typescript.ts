/**
 * `generateTypescriptTypes`: the `Database` type of one exposed schema, in the shape Supabase's generator
 * (postgres-meta) writes and `@supabase/postgrest-js` 1.x reads — `Tables`/`Views` with `Row`, `Insert`, `Update`
 * and `Relationships`, `Functions` with `Args`/`Returns`, `Enums`, `CompositeTypes` — so that
 * `new PostgrestClient<Database>(url).from('bookings').select('…')` is checked by the compiler. Pure: built from the
 * schema cache (what the API role may see and do), the CHECK value lists and the schema's composite types.
 */
import type { Column, Relationship, Routine, SchemaCache, Table } from '../schema/types.js';
import type { CheckEnums } from '../openapi/check-enums.js';

export interface CompositeType {
  name: string;
  attributes: { name: string; udtName: string }[];
}

export interface TypegenInput {
  cache: SchemaCache;
  /** table → column → allowed values (CHECK lists); each becomes an entry of `Enums` named `<table>_<column>`. */
  checkEnums: CheckEnums;
  compositeTypes: CompositeType[];
}

const NUMBER = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'money', 'oid']);
const STRING = new Set([
  'bpchar', 'varchar', 'text', 'citext', 'name', 'char', 'uuid', 'bytea', 'date', 'time', 'timetz', 'timestamp',
  'timestamptz', 'interval', 'inet', 'cidr', 'macaddr', 'tsvector', 'tsquery',
  // Ranges and multiranges travel in their text form ("[2025-07-01,2025-07-15)").
  'daterange', 'tstzrange', 'tsrange', 'int4range', 'int8range', 'numrange', 'datemultirange', 'tstzmultirange',
]);

const key = (name: string): string => JSON.stringify(name);

/** The TypeScript type of a value of `pg_type.typname` `udtName` (arrays: `_elem`). */
function scalarType(udtName: string, schema: string, composites: ReadonlySet<string>): string {
  if (udtName.startsWith('_')) return `(${scalarType(udtName.slice(1), schema, composites)})[]`;
  if (NUMBER.has(udtName)) return 'number';
  if (STRING.has(udtName)) return 'string';
  if (udtName === 'bool') return 'boolean';
  if (udtName === 'json' || udtName === 'jsonb') return 'Json';
  if (udtName === 'void') return 'undefined';
  if (udtName === 'record') return 'Record<string, unknown>';
  if (composites.has(udtName)) return `Database[${key(schema)}]["CompositeTypes"][${key(udtName)}]`;
  return 'unknown';
}

/** Column types, enums and composites of one schema: the vocabulary every section below is written in. */
class Vocabulary {
  readonly enums = new Map<string, string[]>();
  private readonly columnEnums = new Map<string, string>();
  private readonly composites: ReadonlySet<string>;

  constructor(private readonly input: TypegenInput) {
    this.composites = new Set(input.compositeTypes.map((type) => type.name));
    for (const table of input.cache.tables.values()) {
      for (const column of table.columns) {
        if (column.enumValues) this.addEnum(table, column, column.udtName.replace(/^_/, ''), column.enumValues);
        const checked = input.checkEnums.get(table.name)?.get(column.name);
        if (!column.enumValues && checked) this.addEnum(table, column, `${table.name}_${column.name}`, checked);
      }
    }
  }

  private addEnum(table: Table, column: Column, name: string, values: string[]): void {
    this.enums.set(name, values);
    this.columnEnums.set(`${table.name}.${column.name}`, name);
  }

  get schema(): string {
    return this.input.cache.schema;
  }

  /** The type of a column's value, without `| null`. */
  columnType(table: Table, column: Column): string {
    const enumName = this.columnEnums.get(`${table.name}.${column.name}`);
    if (enumName) {
      const reference = `Database[${key(this.schema)}]["Enums"][${key(enumName)}]`;
      return column.isArray ? `(${reference})[]` : reference;
    }
    return this.type(column.udtName);
  }

  type(udtName: string): string {
    return scalarType(udtName, this.schema, this.composites);
  }

  /** Whether a relation of the schema is listed under `Tables` or `Views`. */
  relationKind(name: string): 'Tables' | 'Views' {
    const table = this.input.cache.tables.get(name);
    return table && isView(table) ? 'Views' : 'Tables';
  }
}

/** Views and materialized views go to `Views`; tables, partitioned and foreign tables to `Tables`. */
const isView = (table: Table): boolean => table.kind === 'view' || table.kind === 'materialized_view';

const nullable = (type: string, isNullable: boolean): string => (isNullable ? `${type} | null` : type);

/** `format_type` spelling (`integer`, `text[]`, `api.bookings`) → typname-like name for `scalarType`. */
const FORMAT_TO_UDT: Record<string, string> = {
  smallint: 'int2', integer: 'int4', bigint: 'int8', real: 'float4', 'double precision': 'float8', numeric: 'numeric',
  boolean: 'bool', text: 'text', uuid: 'uuid', date: 'date', jsonb: 'jsonb', json: 'json', void: 'void', record: 'record',
  'timestamp with time zone': 'timestamptz', 'timestamp without time zone': 'timestamp', 'time without time zone': 'time',
  'character varying': 'varchar', character: 'bpchar', bytea: 'bytea', interval: 'interval', daterange: 'daterange',
  tstzrange: 'tstzrange', datemultirange: 'datemultirange',
};

function formatTypeToUdt(type: string, schema: string): string {
  if (type.endsWith('[]')) return `_${formatTypeToUdt(type.slice(0, -2), schema)}`;
  const bare = type.replace(/\(.*\)$/, '').replace(new RegExp(`^${schema}\\.`), '').replace(/^"|"$/g, '');
  return FORMAT_TO_UDT[bare] ?? bare;
}

function rowMembers(vocabulary: Vocabulary, table: Table, cache: SchemaCache): string[] {
  const members = table.columns
    .filter((column) => column.canSelect)
    .map((column) => `${key(column.name)}: ${nullable(vocabulary.columnType(table, column), column.nullable)}`);
  // Computed fields read like columns (and like postgres-meta, as possibly null).
  for (const [name, routine] of cache.computedFields.get(table.name) ?? []) {
    if (!routine.canExecute || table.columns.some((column) => column.name === name)) continue;
    members.push(`${key(name)}: ${vocabulary.type(formatTypeToUdt(routine.returnType, cache.schema))} | null`);
  }
  return members;
}

function insertMembers(vocabulary: Vocabulary, table: Table): string[] {
  return table.columns.map((column) => {
    if (!table.privileges.insert || !column.canInsert) return `${key(column.name)}?: never`;
    const optional = column.nullable || column.hasDefault ? '?' : '';
    return `${key(column.name)}${optional}: ${nullable(vocabulary.columnType(table, column), column.nullable)}`;
  });
}

function updateMembers(vocabulary: Vocabulary, table: Table): string[] {
  return table.columns.map((column) => {
    if (!table.privileges.update || !column.canUpdate) return `${key(column.name)}?: never`;
    return `${key(column.name)}?: ${nullable(vocabulary.columnType(table, column), column.nullable)}`;
  });
}

/** The foreign keys this relation holds (postgrest-js finds the reverse, one-to-many, side from these). */
function relationshipEntries(relationships: Relationship[]): string[] {
  return relationships
    .filter((rel) => !rel.computed && !rel.junction && (rel.cardinality === 'many-to-one' || (rel.cardinality === 'one-to-one' && rel.fkOnTableSide)))
    .sort((a, b) => a.constraint.localeCompare(b.constraint) || a.foreignTable.localeCompare(b.foreignTable))
    .map((rel) => `{
            foreignKeyName: ${key(rel.constraint)}
            columns: ${JSON.stringify(rel.columns)}
            isOneToOne: ${rel.cardinality === 'one-to-one'}
            referencedRelation: ${key(rel.foreignTable)}
            referencedColumns: ${JSON.stringify(rel.foreignColumns)}
          }`);
}

const block = (members: string[], indent: string): string =>
  members.length === 0 ? '{\n' + `${indent}  [_ in never]: never\n${indent}}` : `{\n${members.map((m) => `${indent}  ${m}`).join('\n')}\n${indent}}`;

function relationSection(vocabulary: Vocabulary, cache: SchemaCache, tables: Table[], withWrites: (table: Table) => boolean): string[] {
  return tables.map((table) => {
    const parts = [`Row: ${block(rowMembers(vocabulary, table, cache), '        ')}`];
    if (withWrites(table)) {
      parts.push(`Insert: ${block(insertMembers(vocabulary, table), '        ')}`);
      parts.push(`Update: ${block(updateMembers(vocabulary, table), '        ')}`);
    }
    const relationships = relationshipEntries(cache.relationships.get(table.name) ?? []);
    parts.push(`Relationships: [${relationships.length === 0 ? '' : `\n          ${relationships.join(',\n          ')}\n        `}]`);
    return `${key(table.name)}: {\n        ${parts.join('\n        ')}\n      }`;
  });
}

function functionReturns(vocabulary: Vocabulary, routine: Routine): string {
  const schema = vocabulary.schema;
  let type: string;
  if (routine.returnsTable) {
    type = `Database[${key(schema)}][${key(vocabulary.relationKind(routine.returnsTable))}][${key(routine.returnsTable)}]["Row"]`;
  } else if (routine.returnsComposite) {
    type = 'Record<string, unknown>';
  } else {
    type = vocabulary.type(formatTypeToUdt(routine.returnType, schema));
  }
  return routine.returnsSet ? `(${type})[]` : type;
}

function functionEntries(vocabulary: Vocabulary, cache: SchemaCache): string[] {
  return [...cache.routines.entries()]
    .map(([name, overloads]) => [name, overloads.filter((routine) => routine.canExecute && routine.args.every((arg) => arg.name !== '' || routine.args.length === 1))] as const)
    .filter(([, overloads]) => overloads.length > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, overloads]) => {
      const args = overloads.map((routine) => routine.args.length === 0
        ? 'Record<PropertyKey, never>'
        : `{ ${routine.args.map((arg) => `${key(arg.name)}${arg.hasDefault ? '?' : ''}: ${vocabulary.type(formatTypeToUdt(arg.type, cache.schema))}`).join('; ')} }`);
      return `${key(name)}: {\n        Args: ${[...new Set(args)].join(' | ')}\n        Returns: ${functionReturns(vocabulary, overloads[0]!)}\n      }`;
    });
}

export function generateTypescriptTypes(input: TypegenInput): string {
  const { cache } = input;
  const vocabulary = new Vocabulary(input);
  const visible = [...cache.tables.values()].filter((table) => table.columns.some((column) => column.canSelect))
    .sort((a, b) => a.name.localeCompare(b.name));
  const tables = visible.filter((table) => !isView(table));
  const views = visible.filter(isView);
  const enums = [...vocabulary.enums.entries()].sort(([a], [b]) => a.localeCompare(b))
    .map(([name, values]) => `${key(name)}: ${values.map((value) => key(value)).join(' | ')}`);
  const composites = [...input.compositeTypes].sort((a, b) => a.name.localeCompare(b.name))
    .map((type) => `${key(type.name)}: ${block(type.attributes.map((attribute) => `${key(attribute.name)}: ${vocabulary.type(attribute.udtName)} | null`), '      ')}`);
  const section = (name: string, entries: string[]) => `    ${name}: ${block(entries, '    ')}`;
  const schema = key(cache.schema);
  return `/**
 * Types of Staykit's ${cache.schema} schema for @supabase/postgrest-js: generated by \`staykit gen types typescript\`;
 * do not edit (regenerate after upgrading Staykit).
 */
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];

export type Database = {
  ${schema}: {
${section('Tables', relationSection(vocabulary, cache, tables, () => true))}
${section('Views', relationSection(vocabulary, cache, views, (view) => view.privileges.insert || view.privileges.update))}
${section('Functions', functionEntries(vocabulary, cache))}
${section('Enums', enums)}
${section('CompositeTypes', composites)}
  };
};

type Schema = Database[${schema}];

/** The row of a table or view: \`Tables<'bookings'>\`. */
export type Tables<Name extends keyof (Schema["Tables"] & Schema["Views"])> = (Schema["Tables"] & Schema["Views"])[Name] extends { Row: infer Row } ? Row : never;
/** What an insert into a table accepts: \`TablesInsert<'coupons'>\`. */
export type TablesInsert<Name extends keyof Schema["Tables"]> = Schema["Tables"][Name]["Insert"];
/** What an update of a table accepts: \`TablesUpdate<'coupons'>\`. */
export type TablesUpdate<Name extends keyof Schema["Tables"]> = Schema["Tables"][Name]["Update"];
/** The values of a closed value set: \`Enums<'bookings_status'>\`. */
export type Enums<Name extends keyof Schema["Enums"]> = Schema["Enums"][Name];
`;
}
