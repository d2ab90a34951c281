/**
 * The schema cache: what the query engine knows about one exposed PostgreSQL schema — tables and views, their
 * columns, keys, privileges of the API role, the relationships derived from foreign keys, and the functions callable
 * through `/rpc`. Plain data, built once by `loadSchemaCache` and read by the (pure) planner.
 */

export interface Column {
  name: string;
  /** `format_type` spelling, e.g. `integer`, `text[]`, `timestamp with time zone`, `character varying(20)`. */
  type: string;
  /** `pg_type.typname`, e.g. `int4`, `_text`, `tsvector`. */
  udtName: string;
  nullable: boolean;
  /** The default expression (`pg_get_expr`), or null. Identity columns have none but `identity` is true. */
  defaultExpr: string | null;
  hasDefault: boolean;
  identity: boolean;
  generated: boolean;
  isArray: boolean;
  elementType: string | null;
  enumValues: string[] | null;
  comment: string | null;
  /** Privileges of the API role on this column. */
  canSelect: boolean;
  canInsert: boolean;
  canUpdate: boolean;
}

export type TableKind = 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'partitioned_table';

export interface TablePrivileges {
  select: boolean;
  /** INSERT on the table or on at least one column, and the relation accepts inserts. */
  insert: boolean;
  update: boolean;
  delete: boolean;
}

export interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  refSchema: string;
  refTable: string;
  refColumns: string[];
  /** Set for a key a view carries: whether the base table's key columns are unique there (one-to-one). */
  oneToOne?: boolean;
}

export interface Table {
  schema: string;
  name: string;
  kind: TableKind;
  comment: string | null;
  columns: Column[];
  primaryKey: string[];
  uniqueKeys: string[][];
  foreignKeys: ForeignKey[];
  privileges: TablePrivileges;
}

export type Cardinality = 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many';

export interface Junction {
  table: string;
  /** FK from the junction to the origin table. */
  constraint1: string;
  /** Junction columns referencing the origin, and the origin columns they reference. */
  sourceColumns: string[];
  sourceRefColumns: string[];
  /** FK from the junction to the target table. */
  constraint2: string;
  targetColumns: string[];
  targetRefColumns: string[];
}

/**
 * A relationship seen from `table` to `foreignTable`. For to-one and one-to-many: `columns[i]` of `table` equals
 * `foreignColumns[i]` of `foreignTable`. For many-to-many the join goes through `junction`.
 */
export interface Relationship {
  cardinality: Cardinality;
  table: string;
  foreignTable: string;
  /** The FK constraint name (for many-to-many: the junction table's name is the hint). */
  constraint: string;
  columns: string[];
  foreignColumns: string[];
  /** One-to-one seen from the side that holds the FK. */
  fkOnTableSide: boolean;
  isSelf: boolean;
  junction: Junction | null;
  /**
   * A computed relationship (PostgREST): `function(table) RETURNS SETOF other` (to-many) or `RETURNS other`
   * (to-one); embedded by the function's name, which is `constraint`. `columns` are then empty.
   */
  computed?: Routine;
}

export interface RoutineArg {
  name: string;
  type: string;
  hasDefault: boolean;
  variadic: boolean;
}

export interface Routine {
  schema: string;
  name: string;
  args: RoutineArg[];
  /** `format_type` of the return type (`integer`, `setof`-less). */
  returnType: string;
  returnsSet: boolean;
  /** Name of the table in this schema whose row type is returned, or null. */
  returnsTable: string | null;
  /** True when the result is a composite (table row type or RETURNS TABLE / OUT params). */
  returnsComposite: boolean;
  returnsVoid: boolean;
  volatility: 'immutable' | 'stable' | 'volatile';
  canExecute: boolean;
  /** The table whose row type is the only argument: a computed field or computed relationship of that table. */
  rowArgTable: string | null;
}

export interface SchemaCache {
  schema: string;
  role: string;
  tables: Map<string, Table>;
  /** Relationships keyed by origin table name. */
  relationships: Map<string, Relationship[]>;
  routines: Map<string, Routine[]>;
  /**
   * Computed fields by table name, then by field name: functions taking the table's row type and returning a
   * scalar, selectable, filterable and orderable like columns.
   */
  computedFields: Map<string, Map<string, Routine>>;
  /** PostgreSQL's time zone names (`pg_timezone_names`), the zones `Prefer: timezone=` may name. */
  timezones: ReadonlySet<string>;
}

export function columnOf(table: Table, name: string): Column | undefined {
  return table.columns.find((column) => column.name === name);
}
