/**
 * The typed request: what the parse stage makes of the query string, headers and body, before any schema
 * knowledge. Names are still the client's; the planner resolves them.
 */
import type { ExplainRequest } from './explain.js';

export interface JsonOperation {
  arrow: '->' | '->>';
  /** A key, or an integer index (then `isIndex`, value like `0` or `-1`). */
  key: string;
  isIndex: boolean;
}

export interface Field {
  name: string;
  jsonPath: JsonOperation[];
}

export type JoinType = 'inner' | 'left';

export type AggregateFunction = 'avg' | 'count' | 'max' | 'min' | 'sum';

export type SelectItem =
  | { type: 'star' }
  | { type: 'field'; field: Field; alias: string | undefined; cast: string | undefined }
  /**
   * `col.sum()`, `total:col::numeric.sum()::int`, `count()`: an aggregate of the column (none for `count()`), with
   * a cast of its input (`inputCast`) and of its result (`cast`), as PostgREST's aggregate functions.
   */
  | {
      type: 'aggregate';
      fn: AggregateFunction;
      field: Field | undefined;
      inputCast: string | undefined;
      alias: string | undefined;
      cast: string | undefined;
    }
  | {
      type: 'embed';
      name: string;
      alias: string | undefined;
      hint: string | undefined;
      join: JoinType | undefined;
      spread: boolean;
      select: SelectItem[];
    };

export type SimpleOperator =
  | 'eq'
  | 'neq'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'like'
  | 'ilike'
  | 'match'
  | 'imatch'
  | 'isdistinct'
  | 'cs'
  | 'cd'
  | 'ov'
  | 'sl'
  | 'sr'
  | 'nxr'
  | 'nxl'
  | 'adj';

export type FtsOperator = 'fts' | 'plfts' | 'phfts' | 'wfts';

export type Quantifier = 'any' | 'all';

export type Operation =
  | { kind: 'simple'; operator: SimpleOperator; value: string; quantifier: Quantifier | undefined }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: 'null' | 'true' | 'false' | 'unknown' }
  | { kind: 'fts'; operator: FtsOperator; language: string | undefined; value: string };

export interface Filter {
  field: Field;
  negated: boolean;
  operation: Operation;
}

export type LogicTree =
  | { type: 'filter'; filter: Filter }
  | { type: 'expr'; negated: boolean; operator: 'and' | 'or'; children: LogicTree[] };

export interface OrderTerm {
  /** Set for `rel(col)` terms: order by a column of an embedded to-one resource. */
  relation: string | undefined;
  field: Field;
  direction: 'asc' | 'desc' | undefined;
  nulls: 'first' | 'last' | undefined;
}

/** An embed path: [] is the root, ['clients', 'projects'] an embed of an embed (by name or alias). */
export type EmbedPath = string[];

export interface RangeSpec {
  offset: number;
  /** undefined: no limit. */
  limit: number | undefined;
}

export interface QueryParams {
  select: SelectItem[];
  /** Filters in query-string order, each at its embed path. */
  filters: { path: EmbedPath; filter: Filter }[];
  logic: { path: EmbedPath; tree: LogicTree }[];
  order: { path: EmbedPath; terms: OrderTerm[] }[];
  /** limit/offset per embed path (key: path joined by '.'; '' is the root). */
  ranges: Map<string, RangeSpec>;
  columns: string[] | undefined;
  onConflict: string[] | undefined;
  /** RPC arguments from the query string (GET /rpc/fn?a=1). */
  rpcArgs: [string, string][];
  /** PostgREST's canonical query string (sorted by key), for Content-Location. */
  canonical: string;
}

export type ReturnPreference = 'minimal' | 'headers-only' | 'representation';
export type CountPreference = 'exact' | 'planned' | 'estimated';

export interface Preferences {
  return: ReturnPreference | undefined;
  count: CountPreference | undefined;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | undefined;
  missing: 'default' | 'null' | undefined;
  handling: 'strict' | 'lenient' | undefined;
  tx: 'commit' | 'rollback' | undefined;
  /** `max-affected=N` (PostgREST 13): only honoured with `handling=strict`. */
  maxAffected: number | undefined;
  /** `timezone=Area/City`: one of PostgreSQL's `pg_timezone_names` (another is an invalid preference). */
  timezone: string | undefined;
  /** `params=single-object` (PostgREST 12; removed in 13): the arguments are the function's one JSON parameter. */
  params: 'single-object' | undefined;
  /** Preferences not understood (reported under handling=strict). */
  invalid: string[];
}

export type MediaType = 'json' | 'object' | 'csv';

export interface HeaderRange {
  /** From `Range: a-b` (only for GET/HEAD). */
  offset: number;
  limit: number | undefined;
}

/** A JSON body as parsed (only to validate it and learn its keys); the raw text goes to PostgreSQL unchanged. */
export interface Payload {
  raw: string;
  kind: 'object' | 'array';
  /** Keys of the first object (the insert/update columns when `columns=` is absent). */
  keys: string[];
  rowCount: number;
  /** Keys of every object, in order (for `Prefer: missing=default`). */
  rowKeys: string[][];
}

export type Action =
  | { type: 'read'; headersOnly: boolean }
  | { type: 'insert' }
  | { type: 'update' }
  | { type: 'delete' }
  | { type: 'rpc'; method: 'GET' | 'HEAD' | 'POST' }
  | { type: 'options' };

export interface ParsedRequest {
  action: Action;
  /** The table name, or the function name for rpc. */
  target: string;
  /** The path was `rpc/<function>`. */
  isRpc: boolean;
  query: QueryParams;
  preferences: Preferences;
  accept: MediaType;
  range: HeaderRange | undefined;
  payload: Payload | undefined;
  /** Unparsed CSV body for POST with text/csv. */
  csvBody: string | undefined;
  /** `Accept: application/vnd.pgrst.plan`: answer the statement's EXPLAIN (`accept` is then the `for` media type). */
  explain?: ExplainRequest | undefined;
}
