/**
 * Relationships through views, as PostgREST derives them (its schema cache's view key dependencies): a view column
 * that is a plain reference to a column — PostgreSQL records its origin in the view's query tree, the top-level
 * target entry's `resorigtbl`/`resorigcol`, followed through views over views — carries that base column's keys.
 * A column that is an expression (`id + 0`, `upper(name)`) has no origin and carries none.
 *
 * For every foreign key T(cols) → F(refs) whose columns a view exposes, the exposed schema gets the relationship
 * between each pair of its relations standing for T and F: the tables themselves when they are in the schema, and every
 * view exposing all of the key's columns on that side (once per combination when a view repeats a column). So
 * view → table, table → view and view → view, also when T and F live in another schema that only the views expose.
 * A view exposing every column of its base table's primary key gets it as its own.
 */
import type { Queryable } from '../db/types.js';
import type { ForeignKey, Table } from './types.js';

/** The `_RETURN` rules of the schema's views, or of the views among `$2` (views other views select from). */
const VIEW_RULES = `
SELECT c.oid::text AS oid, c.relname AS name, n.nspname = $1 AS exposed, r.ev_action::text AS action,
  (SELECT json_object_agg(a.attnum, a.attname) FROM pg_attribute a
     WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns
FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('v', 'm') AND r.rulename = '_RETURN' AND (n.nspname = $1 OR c.oid::text = ANY($2::text[]))`;

/** Primary and foreign keys of the given relations, or referencing them; columns by number and by name. */
const KEYS = `
SELECT con.conname AS name, con.contype::text AS type,
  con.conrelid::text AS table_oid, tn.nspname AS table_schema, tc.relname AS table_name, to_json(con.conkey) AS columns,
  (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS column_names,
  con.confrelid::text AS ref_oid, fn.nspname AS ref_schema, fc.relname AS ref_table, to_json(con.confkey) AS ref_columns,
  (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS ref_column_names,
  EXISTS (SELECT 1 FROM pg_constraint u WHERE u.conrelid = con.conrelid AND u.contype IN ('p', 'u')
            AND u.conkey @> con.conkey AND u.conkey <@ con.conkey) AS one_to_one
FROM pg_constraint con
JOIN pg_class tc ON tc.oid = con.conrelid JOIN pg_namespace tn ON tn.oid = tc.relnamespace
LEFT JOIN pg_class fc ON fc.oid = con.confrelid LEFT JOIN pg_namespace fn ON fn.oid = fc.relnamespace
WHERE con.contype IN ('p', 'f') AND (con.conrelid::text = ANY($1::text[]) OR con.confrelid::text = ANY($1::text[]))`;

interface ViewRow {
  oid: string;
  name: string;
  exposed: boolean;
  action: string;
  columns: Record<string, string> | null;
}

interface KeyRow {
  name: string;
  type: 'p' | 'f';
  table_oid: string;
  table_schema: string;
  table_name: string;
  columns: number[];
  column_names: string[];
  ref_oid: string | null;
  ref_schema: string | null;
  ref_table: string | null;
  ref_columns: number[] | null;
  ref_column_names: string[] | null;
  one_to_one: boolean;
}

/** A column of a relation: `<oid>:<attnum>`. */
type ColumnKey = string;

const columnKey = (oid: string, attnum: number): ColumnKey => `${oid}:${attnum}`;

// --- PostgreSQL's node tree text (`pg_node_tree`, as read by its read.c) -------------------------------------------

type NodeValue = string | NodeValue[] | TreeNode;

interface TreeNode {
  type: string;
  fields: Map<string, NodeValue[]>;
}

/** Tokens: `(`, `)`, `{`, `}` alone; anything else up to whitespace or one of those; `\` escapes the next character. */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let current = '';
  const flush = (): void => {
    if (current !== '') tokens.push(current);
    current = '';
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (char === '\\') {
      current += text.slice(i, i + 2);
      i += 1;
    } else if (char === '(' || char === ')' || char === '{' || char === '}') {
      flush();
      tokens.push(char);
    } else if (/\s/.test(char)) {
      flush();
    } else {
      current += char;
    }
  }
  flush();
  return tokens;
}

function parseTree(text: string): NodeValue {
  const tokens = tokenize(text);
  let at = 0;
  const next = (): string => {
    const token = tokens[at];
    if (token === undefined) throw new Error('unexpected end of the node tree');
    at += 1;
    return token;
  };
  const value = (): NodeValue => {
    const token = next();
    if (token === '(') {
      const list: NodeValue[] = [];
      while (tokens[at] !== ')') list.push(value());
      at += 1;
      return list;
    }
    if (token !== '{') return token;
    const node: TreeNode = { type: next(), fields: new Map() };
    let field = '';
    while (tokens[at] !== '}') {
      const token = tokens[at] as string;
      if (token.startsWith(':')) {
        field = token.slice(1);
        node.fields.set(field, []);
        at += 1;
      } else {
        node.fields.get(field)?.push(value());
      }
    }
    at += 1;
    return node;
  };
  return value();
}

function isNode(value: NodeValue | undefined): value is TreeNode {
  return typeof value === 'object' && !Array.isArray(value);
}

/** A view's columns (by number) that reference a column of another relation: the top-level target list's origins. */
function columnOrigins(action: string): Map<number, { oid: string; attnum: number }> {
  const origins = new Map<number, { oid: string; attnum: number }>();
  const tree = parseTree(action);
  const query = Array.isArray(tree) ? tree[0] : tree;
  if (!isNode(query)) return origins;
  const [entries] = query.fields.get('targetList') ?? [];
  if (!Array.isArray(entries)) return origins;
  for (const entry of entries) {
    if (!isNode(entry)) continue;
    const field = (name: string): string => String(entry.fields.get(name)?.[0] ?? '');
    const oid = field('resorigtbl');
    if (oid !== '0' && oid !== '' && field('resjunk') !== 'true') {
      origins.set(Number(field('resno')), { oid, attnum: Number(field('resorigcol')) });
    }
  }
  return origins;
}

// --- Tracing views back to their base columns ----------------------------------------------------------------------

/** The schema's views: for each, the view columns that stand for each base column (a view may repeat one). */
export interface ViewKeys {
  views: Map<string, Map<ColumnKey, string[]>>;
  keys: KeyRow[];
}

/** Views over views over … this many levels are followed; a column deeper down carries no keys. */
const MAX_VIEW_DEPTH = 8;

function originsOf(action: string): Map<number, { oid: string; attnum: number }> {
  try {
    return columnOrigins(action);
  } catch {
    // A tree this reader does not follow: the view still reads like a table, its columns carry no keys.
    return new Map();
  }
}

export async function readViewKeys(db: Queryable, schema: string): Promise<ViewKeys> {
  const parsed = new Map<string, { row: ViewRow; origins: Map<number, { oid: string; attnum: number }> }>();
  const asked = new Set<string>();
  let wanted: string[] = [];
  // The schema's views first, then the views they select from (in any schema), until none is new.
  for (let round = 0; round <= MAX_VIEW_DEPTH; round += 1) {
    const { rows } = await db.query<ViewRow>(VIEW_RULES, [round === 0 ? schema : null, wanted]);
    for (const row of rows) if (!parsed.has(row.oid)) parsed.set(row.oid, { row, origins: originsOf(row.action) });
    for (const oid of wanted) asked.add(oid);
    const referenced = [...parsed.values()].flatMap(({ origins }) => [...origins.values()].map((origin) => origin.oid));
    wanted = [...new Set(referenced)].filter((oid) => !parsed.has(oid) && !asked.has(oid));
    if (wanted.length === 0) break;
  }
  /** A column's base column, following views over views (a cycle or an expression: none). */
  const baseOf = (oid: string, attnum: number, seen: Set<string>): ColumnKey | undefined => {
    const view = parsed.get(oid);
    if (!view) return columnKey(oid, attnum);
    if (seen.has(oid)) return undefined;
    const origin = view.origins.get(attnum);
    return origin ? baseOf(origin.oid, origin.attnum, new Set([...seen, oid])) : undefined;
  };
  const views = new Map<string, Map<ColumnKey, string[]>>();
  const baseTables = new Set<string>();
  for (const { row } of parsed.values()) {
    if (!row.exposed) continue;
    const byBase = new Map<ColumnKey, string[]>();
    for (const [attnum, name] of Object.entries(row.columns ?? {})) {
      const base = baseOf(row.oid, Number(attnum), new Set());
      if (!base) continue;
      byBase.set(base, [...(byBase.get(base) ?? []), name]);
      baseTables.add(base.split(':')[0] as string);
    }
    if (byBase.size > 0) views.set(row.name, byBase);
  }
  if (baseTables.size === 0) return { views, keys: [] };
  const { rows: keys } = await db.query<KeyRow>(KEYS, [[...baseTables]]);
  return { views, keys };
}

/** Every way a view names all of `columns` of relation `oid`: one list of view columns per combination. */
function exposedAs(byBase: Map<ColumnKey, string[]>, oid: string, columns: number[]): string[][] {
  let combinations: string[][] = [[]];
  for (const attnum of columns) {
    const names = byBase.get(columnKey(oid, attnum));
    if (!names) return [];
    combinations = combinations.flatMap((combination) => names.map((name) => [...combination, name]));
  }
  return combinations;
}

/** One side of a key in the exposed schema: a relation and the columns that stand for the key's columns there. */
interface KeySide {
  relation: string;
  columns: string[];
  isBase: boolean;
}

/** Adds the keys the schema's views carry to `tables` (views, and tables related to their base tables). */
export function addViewKeys(tables: Map<string, Table>, schema: string, { views, keys }: ViewKeys): void {
  const sides = (oid: string, tableSchema: string, tableName: string, columns: number[], names: string[]): KeySide[] => {
    const base: KeySide[] = tableSchema === schema && tables.has(tableName) ? [{ relation: tableName, columns: names, isBase: true }] : [];
    const viewSides = [...views].flatMap(([view, byBase]) =>
      exposedAs(byBase, oid, columns).map((viewColumns) => ({ relation: view, columns: viewColumns, isBase: false })),
    );
    return [...base, ...viewSides];
  };
  for (const key of keys) {
    if (key.type === 'p') {
      for (const [view, byBase] of views) {
        const table = tables.get(view);
        const [first] = exposedAs(byBase, key.table_oid, key.columns);
        if (table && first && table.primaryKey.length === 0) table.primaryKey = first;
      }
      continue;
    }
    if (key.ref_oid === null || key.ref_schema === null || key.ref_table === null || key.ref_columns === null) continue;
    const holders = sides(key.table_oid, key.table_schema, key.table_name, key.columns, key.column_names);
    const targets = sides(key.ref_oid, key.ref_schema, key.ref_table, key.ref_columns, key.ref_column_names ?? []);
    for (const holder of holders) {
      for (const target of targets) {
        // Between the two tables themselves the key is already known (their own constraint).
        if (holder.isBase && target.isBase) continue;
        const fk: ForeignKey = {
          name: key.name,
          table: holder.relation,
          columns: holder.columns,
          refSchema: schema,
          refTable: target.relation,
          refColumns: target.columns,
          oneToOne: key.one_to_one,
        };
        tables.get(holder.relation)?.foreignKeys.push(fk);
      }
    }
  }
}
