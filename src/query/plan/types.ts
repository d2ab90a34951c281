/**
 * Plans: what to run, resolved against the schema cache (tables, columns, relationships), still free of SQL text.
 * The SQL stage turns a plan into one parameterised statement.
 */
import type { Column, Relationship, Routine, Table } from '../../schema/types.js';
import type { AggregateFunction, JsonOperation, MediaType, Operation, Preferences } from '../parse/types.js';

export interface EngineOptions {
  /**
   * At most this many rows in any response (PostgREST's db-max-rows); null: no limit, as PostgREST without
   * db-max-rows (`staykit rest` without `--max-rows`).
   */
  maxRows: number | null;
  /** On every table with this column, add `column = value` (a second guard beside RLS). */
  tenant?: { column: string; value: string } | undefined;
  /** PATCH/DELETE without any filter → 400 SK400. */
  requireFilterForWrites: boolean;
  /** Prefix of the `Location`/`Content-Location` paths, e.g. `/v1`. */
  basePath: string;
  /** Embedding depth limit (docs/design.md#limits: 8). */
  maxEmbedDepth?: number;
  /** or/and nesting limit (docs/design.md#limits: 10). */
  maxLogicDepth?: number;
  /** Longest like/ilike/match/imatch pattern or fts query, in characters (default 1000). */
  maxPatternLength?: number;
  /** Most objects one POST may insert (docs/design.md#limits: 1000); unlimited when absent. */
  maxInsertRows?: number;
  /**
   * Reading this schema has no side effects (tables only: no views or functions that write), so committing a
   * read and rolling it back are the same, and the caller runs nothing after the engine in its transaction. A read
   * that needs a single statement is then committed with it in the same round trip when the transaction offers
   * that (`queryAndCommit`). Staykit's `/v1` API qualifies; `staykit rest` serves arbitrary schemas and does not.
   */
  readsArePure?: boolean;
  /**
   * Rows without `order`: by primary key (`primary-key`, the default: Staykit's `/v1` promises a stable order) or in
   * whatever order PostgreSQL returns them (`none`, PostgREST's behaviour, for `staykit rest`). docs/query-engine.md.
   */
  defaultOrder?: 'primary-key' | 'none';
  /**
   * Ambiguous embeds are always 300 PGRST201, as in PostgREST (`staykit rest`). Off (the default, `/v1`): the one
   * direct relationship wins over many-to-many ones (src/query/plan/relationship.ts).
   */
  strictRelationships?: boolean;
  /** Aggregates in `select` (PostgREST's db-aggregates-enabled); enabled unless false. */
  aggregates?: boolean;
  /** `Accept: application/vnd.pgrst.plan` answers the EXPLAIN of the statement (PostgREST's db-plan-enabled). */
  plans?: boolean;
  /**
   * The PostgREST major version whose answers the engine gives where 12 and 13 differ (13, the default; 12 for
   * `staykit rest --postgrest 12`): see POSTGREST_VERSIONS.
   */
  postgrest?: PostgrestVersion;
}

/** The PostgREST versions `staykit rest` can stand for, the default last. docs/query-engine.md lists what differs. */
export const POSTGREST_VERSIONS = [12, 13] as const;
export type PostgrestVersion = (typeof POSTGREST_VERSIONS)[number];

/** Where a read node's rows come from. */
export type Source =
  | { kind: 'table' }
  /** The mutation CTE (`pgrst_source`) of an insert/update/delete. */
  | { kind: 'mutation' }
  /** A set-returning or composite function call: `FROM fn(args)`. */
  | { kind: 'function'; routine: Routine; args: RpcArg[] }
  /** A computed relationship: `FROM fn(parent row)`, the parent being the node aliased `parentAlias`. */
  | { kind: 'computed'; routine: Routine; parentAlias: string };

export interface RpcArg {
  name: string;
  type: string;
  /**
   * The argument as given: a string from the query string (GET), or any JSON value from a POST body. All arguments
   * reach PostgreSQL as one JSON object read by `json_to_record`, which converts JSON arrays, objects, numbers and
   * strings to the parameter types.
   */
  value: unknown;
  fromJson: boolean;
}

export interface ColumnExpr {
  column: string;
  jsonPath: JsonOperation[];
  /** Known column (undefined for opaque function results). */
  info: Column | undefined;
  /** A computed field: `column` is the function's name, called with the node's row. */
  computed?: Routine | undefined;
}

export type Condition =
  | { kind: 'filter'; expr: ColumnExpr; negated: boolean; operation: Operation }
  | { kind: 'logic'; negated: boolean; operator: 'and' | 'or'; children: Condition[] }
  /** `rel=is.null` / `rel=not.is.null` on an embed of this node. */
  | { kind: 'embed-null'; embedAlias: string; negated: boolean }
  | { kind: 'tenant'; column: string; value: string };

export interface OrderItem {
  expr: ColumnExpr;
  direction: 'asc' | 'desc' | undefined;
  nulls: 'first' | 'last' | undefined;
  /** Set when ordering by a column of an embedded to-one resource. */
  related: EmbedItem | undefined;
  /**
   * `expr` names an output of the related spread embed, read from its lateral join (as PostgREST orders by
   * `order=spread(column)`); otherwise the related column is looked up in a sub-select.
   */
  spreadOutput?: boolean;
}

export interface FieldItem {
  kind: 'field';
  expr: ColumnExpr;
  cast: string | undefined;
  /** The JSON key in the output. */
  name: string;
}

export interface EmbedItem {
  kind: 'embed';
  /** The JSON key in the output (alias or relation name). */
  name: string;
  /** Name the client used (for filters `name.col` and errors). */
  requestName: string;
  relationship: Relationship;
  node: ReadNode;
  join: 'inner' | 'left';
  toOne: boolean;
  spread: boolean;
  /** SQL alias of the lateral sub-select. */
  sqlAlias: string;
}

/** An aggregate in the projection: the node's other outputs become its GROUP BY. */
export interface AggregateItem {
  kind: 'aggregate';
  fn: AggregateFunction;
  /** The aggregated column; undefined for `count()` (every row). */
  expr: ColumnExpr | undefined;
  inputCast: string | undefined;
  cast: string | undefined;
  name: string;
}

export type OutputItem = FieldItem | EmbedItem | AggregateItem;

export interface ReadNode {
  table: Table;
  /** False for function results whose columns are not known (RETURNS TABLE / record). */
  knownColumns: boolean;
  source: Source;
  /** SQL alias of this node's relation. */
  alias: string;
  /**
   * The relation's name in PostgreSQL's error for a column it lacks, as PostgREST's statement aliases it: the table
   * at the top level, `<table>_<depth>` for an embed (its table itself through a many-to-many junction).
   */
  errorName: string;
  items: OutputItem[];
  where: Condition[];
  order: OrderItem[];
  offset: number;
  limit: number | undefined;
  /** Tenant predicate for the junction of a many-to-many embed. */
  junctionTenant: { column: string; value: string } | undefined;
  /** The table's computed fields, where the node's rows are the table's own rows. */
  computedFields: ReadonlyMap<string, Routine> | undefined;
  /**
   * The node is a to-one spread: its aggregates are applied by the nearest ancestor that is not one (PostgREST
   * hoists them there), so this node only selects their inputs and does not group.
   */
  aggregatedByParent: boolean;
}

export type CountMode = 'exact' | 'planned' | 'estimated' | undefined;

export interface ReadPlan {
  type: 'read';
  node: ReadNode;
  count: CountMode;
  media: MediaType;
  headersOnly: boolean;
}

/**
 * A column a mutation returns for its representation: a column of the table, or a computed field, called in
 * `RETURNING` with the written row (the CTE's rows are records, not the table's type) and read by name after it.
 */
export interface ReturnedColumn {
  name: string;
  computed?: Routine | undefined;
}

export interface InsertPlan {
  type: 'insert';
  table: Table;
  /** Columns written from the body. */
  columns: Column[];
  payloadRaw: string;
  payloadKind: 'object' | 'array';
  rowCount: number;
  /** Keys present in each body object (for `missing=default`). */
  rowKeys: string[][];
  applyDefaults: boolean;
  /** A tenant column the role may insert: set from the tenant, never from the body. */
  tenantInsert: { column: string; value: string } | undefined;
  onConflict: { columns: string[]; resolution: 'merge-duplicates' | 'ignore-duplicates' } | undefined;
  /** Tenant predicate on ON CONFLICT DO UPDATE. */
  tenant: { column: string; value: string } | undefined;
  returning: ReadNode;
  returningColumns: ReturnedColumn[];
  count: CountMode;
  media: MediaType;
  preferences: Preferences;
}

export interface UpdatePlan {
  type: 'update';
  table: Table;
  columns: Column[];
  payloadRaw: string;
  where: Condition[];
  alias: string;
  returning: ReadNode;
  returningColumns: ReturnedColumn[];
  count: CountMode;
  media: MediaType;
  preferences: Preferences;
}

export interface DeletePlan {
  type: 'delete';
  table: Table;
  where: Condition[];
  alias: string;
  returning: ReadNode;
  returningColumns: ReturnedColumn[];
  count: CountMode;
  media: MediaType;
  preferences: Preferences;
}

export interface RpcPlan {
  type: 'rpc';
  routine: Routine;
  args: RpcArg[];
  /** Scalar result (not composite): body is the JSON value (or array of values for setof). */
  scalar: boolean;
  node: ReadNode;
  count: CountMode;
  media: MediaType;
  headersOnly: boolean;
}

export interface OptionsPlan {
  type: 'options';
  allow: string;
}

export type Plan = ReadPlan | InsertPlan | UpdatePlan | DeletePlan | RpcPlan | OptionsPlan;
