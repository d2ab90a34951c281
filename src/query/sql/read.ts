/**
 * Read trees → SQL. A node becomes `SELECT <projection> FROM <source> AS alias <lateral embeds> WHERE … ORDER BY …
 * LIMIT … OFFSET …`, or, when its embeds cannot change which rows the page holds, its page is cut first and only
 * that page is embedded (page-first.ts). Each embed is one LATERAL sub-select (no N+1): to-many aggregates its rows with `json_agg`,
 * to-one yields `row_to_json` of its row; `!inner` turns the join into an INNER JOIN that drops parents without a
 * match. Many-to-many embeds reach the target through an EXISTS on the junction.
 */
import { carriesAggregates, isHidden, nodeOutputs, outputNames } from '../plan/read.js';
import type { AggregateItem, Condition, EmbedItem, ReadNode, Source } from '../plan/types.js';
import { columnSql, conditionSql, mentionsEmbed } from './condition.js';
import { pageColumns, pagesBeforeEmbeds } from './page-first.js';
import { Params, qualified, quoteIdent, safeTypeName } from './quote.js';

export const BODY = quoteIdent('pgrst_body');

function sourceSql(node: ReadNode, params: Params): string {
  const source: Source = node.source;
  const alias = quoteIdent(node.alias);
  switch (source.kind) {
    case 'table':
      return `${qualified(node.table.schema, node.table.name)} AS ${alias}`;
    case 'mutation':
      return `${quoteIdent('pgrst_source')} AS ${alias}`;
    case 'function':
      return functionSourceSql(source, alias, params);
    case 'computed':
      return `${qualified(source.routine.schema, source.routine.name)}(${quoteIdent(source.parentAlias)}) AS ${alias}`;
  }
}

/**
 * `json_to_record($n::json) AS pgrst_args(...), LATERAL schema.fn(a := pgrst_args.a) AS alias`. An unnamed parameter
 * (the one JSON parameter `Prefer: params=single-object` calls) is passed by position.
 */
export function functionSourceSql(source: Extract<Source, { kind: 'function' }>, alias: string, params: Params): string {
  const fn = qualified(source.routine.schema, source.routine.name);
  if (source.args.length === 0) return `${fn}() AS ${alias}`;
  const field = (name: string): string => (name === '' ? 'pgrst_arg' : name);
  const json: Record<string, unknown> = {};
  for (const arg of source.args) json[field(arg.name)] = arg.value;
  const defs = source.args.map((arg) => `${quoteIdent(field(arg.name))} ${safeTypeName(arg.type)}`).join(', ');
  const call = source.args.map((arg) => {
    const value = `${quoteIdent('pgrst_args')}.${quoteIdent(field(arg.name))}`;
    return arg.name === '' ? value : `${quoteIdent(arg.name)} := ${value}`;
  });
  return (
    `json_to_record(${params.add(JSON.stringify(json))}::json) AS ${quoteIdent('pgrst_args')}(${defs}), ` +
    `LATERAL ${fn}(${call.join(', ')}) AS ${alias}`
  );
}

/** `child.fk = parent.pk` (or the junction EXISTS) for an embed of `parentAlias`. */
function joinCondition(embed: EmbedItem, parentAlias: string, params: Params): string {
  const rel = embed.relationship;
  const child = quoteIdent(embed.node.alias);
  const parent = quoteIdent(parentAlias);
  if (rel.junction) {
    const j = rel.junction;
    const jAlias = quoteIdent(`${embed.sqlAlias}_j`);
    const parts = [
      ...j.targetColumns.map((c, i) => `${jAlias}.${quoteIdent(c)} = ${child}.${quoteIdent(j.targetRefColumns[i] as string)}`),
      ...j.sourceColumns.map((c, i) => `${jAlias}.${quoteIdent(c)} = ${parent}.${quoteIdent(j.sourceRefColumns[i] as string)}`),
    ];
    const tenant = embed.node.junctionTenant;
    if (tenant) parts.push(`${jAlias}.${quoteIdent(tenant.column)} = ${params.add(tenant.value)}`);
    return `EXISTS (SELECT 1 FROM ${qualified(embed.node.table.schema, j.table)} AS ${jAlias} WHERE ${parts.join(' AND ')})`;
  }
  // A computed relationship's function already chose the rows of this parent.
  if (rel.computed) return 'TRUE';
  return rel.foreignColumns
    .map((c, i) => `${child}.${quoteIdent(c)} = ${parent}.${quoteIdent(rel.columns[i] as string)}`)
    .join(' AND ');
}

function embeds(node: ReadNode): EmbedItem[] {
  return node.items.filter((item): item is EmbedItem => item.kind === 'embed');
}

function lateralSql(embed: EmbedItem, parentAlias: string, params: Params): string {
  const inner = nodeSelectSql(embed.node, params, { extraWhere: [joinCondition(embed, parentAlias, params)] });
  const rows = quoteIdent(`${embed.sqlAlias}_r`);
  const alias = quoteIdent(embed.sqlAlias);
  const joinType = embed.join === 'inner' ? 'INNER' : 'LEFT';
  if (embed.toOne) {
    const spreadCols = embed.spread ? `, ${rows}.*` : '';
    return `${joinType} JOIN LATERAL (SELECT row_to_json(${rows}) AS ${BODY}${spreadCols} FROM (${inner}) AS ${rows}) AS ${alias} ON TRUE`;
  }
  const on = embed.join === 'inner' ? `${alias}.${BODY} IS NOT NULL` : 'TRUE';
  if (embed.spread) {
    // PostgREST 13's spread of a to-many embed: each column becomes the array of its values.
    const columns = outputNames(embed.node).map((name) => `, json_agg(${rows}.${quoteIdent(name)}) AS ${quoteIdent(name)}`);
    const body = `CASE WHEN count(*) > 0 THEN true END AS ${BODY}`;
    return `${joinType} JOIN LATERAL (SELECT ${body}${columns.join('')} FROM (${inner}) AS ${rows}) AS ${alias} ON ${on}`;
  }
  return `${joinType} JOIN LATERAL (SELECT json_agg(${rows}) AS ${BODY} FROM (${inner}) AS ${rows}) AS ${alias} ON ${on}`;
}

/** One output of a node: its SQL expression, its name (none for `alias.*`), and whether it is an aggregate. */
interface Projected {
  expr: string;
  name: string | undefined;
  aggregate: boolean;
}

function cast(expr: string, type: string | undefined): string {
  return type ? `(${expr})::${safeTypeName(type)}` : expr;
}

/** `fn(input)` with its output cast. */
function aggregateSql(item: AggregateItem, input: string): string {
  return cast(`${item.fn}(${input})`, item.cast);
}

/**
 * What an aggregate aggregates: its column with the input cast; for `count()`, a constant that is NULL only where a
 * to-one spread found no row (hoisted, it counts the spread's rows, as PostgREST's `count(<spread>.*)` does).
 */
function aggregateInput(node: ReadNode, item: AggregateItem, params: Params): string {
  if (item.expr) return cast(columnSql(node.alias, item.expr, params), item.inputCast);
  return node.aggregatedByParent ? '1' : '*';
}

/**
 * The node's outputs. Where rows are grouped (here, or by an ancestor the node's aggregates are hoisted to), embedded
 * JSON is `jsonb` (a GROUP BY needs equality, which `json` lacks); elsewhere the SQL is what it always was. A hoisted
 * aggregate is applied by the first node that is not a to-one spread; the spread only selects its input.
 */
function projected(node: ReadNode, params: Params): Projected[] {
  const grouped = carriesAggregates(node);
  const json = grouped ? 'jsonb' : 'json';
  const parts: Projected[] = [];
  for (const item of node.items) {
    if (item.kind === 'field') {
      if (item.expr.column === '*') {
        parts.push({ expr: `${quoteIdent(node.alias)}.*`, name: undefined, aggregate: false });
        continue;
      }
      parts.push({ expr: cast(columnSql(node.alias, item.expr, params), item.cast), name: item.name, aggregate: false });
    } else if (item.kind === 'aggregate') {
      const input = aggregateInput(node, item, params);
      if (node.aggregatedByParent) parts.push({ expr: input, name: item.name, aggregate: false });
      else parts.push({ expr: aggregateSql(item, input), name: item.name, aggregate: true });
    } else if (isHidden(item)) {
      continue;
    } else if (item.spread) {
      for (const { name, hoisted } of nodeOutputs(item.node)) {
        const column = `${quoteIdent(item.sqlAlias)}.${quoteIdent(name)}`;
        if (hoisted && !node.aggregatedByParent) parts.push({ expr: aggregateSql(hoisted, column), name, aggregate: true });
        else if (item.toOne) parts.push({ expr: column, name, aggregate: false });
        else parts.push({ expr: `coalesce(${grouped ? `${column}::jsonb` : column}, '[]'::${json})`, name, aggregate: false });
      }
    } else if (item.toOne || item.join === 'inner') {
      const body = `${quoteIdent(item.sqlAlias)}.${BODY}`;
      parts.push({ expr: grouped ? `${body}::jsonb` : body, name: item.name, aggregate: false });
    } else {
      const body = grouped ? `${quoteIdent(item.sqlAlias)}.${BODY}::jsonb` : `${quoteIdent(item.sqlAlias)}.${BODY}`;
      parts.push({ expr: `coalesce(${body}, '[]'::${json})`, name: item.name, aggregate: false });
    }
  }
  return parts;
}

export function projectionSql(node: ReadNode, params: Params): string {
  return projectionOf(projected(node, params));
}

function projectionOf(parts: Projected[]): string {
  return parts.map((part) => (part.name === undefined ? part.expr : `${part.expr} AS ${quoteIdent(part.name)}`)).join(', ');
}

/** PostgREST's aggregates: every output that is not an aggregate is a grouping column. */
function groupBySql(parts: Projected[]): string {
  if (!parts.some((part) => part.aggregate)) return '';
  const keys = parts.filter((part) => !part.aggregate).map((part) => part.expr);
  return keys.length === 0 ? '' : ` GROUP BY ${keys.join(', ')}`;
}

function whereSql(alias: string, conditions: Condition[], extra: string[], params: Params): string {
  const parts = [...extra, ...conditions.map((c) => conditionSql(alias, c, params))];
  return parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`;
}

function orderSql(node: ReadNode, params: Params): string {
  if (node.order.length === 0) return '';
  const terms = node.order.map((term) => {
    let expr: string;
    if (term.related && term.spreadOutput === true) {
      expr = `${quoteIdent(term.related.sqlAlias)}.${quoteIdent(term.expr.column)}`;
    } else if (term.related) {
      const embed = term.related;
      const childConditions = embed.node.where.filter((c) => c.kind !== 'embed-null');
      const inner =
        `SELECT ${columnSql(embed.node.alias, term.expr, params)} FROM ${sourceSql(embed.node, params)}` +
        whereSql(embed.node.alias, childConditions, [joinCondition(embed, node.alias, params)], params) +
        ' LIMIT 1';
      expr = `(${inner})`;
    } else {
      expr = columnSql(node.alias, term.expr, params);
    }
    const direction = term.direction ? ` ${term.direction.toUpperCase()}` : '';
    const nulls = term.nulls ? ` NULLS ${term.nulls.toUpperCase()}` : '';
    return `${expr}${direction}${nulls}`;
  });
  return ` ORDER BY ${terms.join(', ')}`;
}

export interface NodeSqlOptions {
  extraWhere?: string[];
  /** Replace the projection (e.g. `1` for counts). */
  projection?: string;
  /** Leave out ORDER BY / LIMIT / OFFSET (counts). */
  unpaged?: boolean;
  /** Only the laterals that filter rows (counts). */
  filteringLateralsOnly?: boolean;
}

function pageSql(node: ReadNode): string {
  let sql = '';
  if (node.limit !== undefined) sql += ` LIMIT ${Math.max(0, Math.trunc(node.limit))}`;
  if (node.offset > 0) sql += ` OFFSET ${Math.trunc(node.offset)}`;
  return sql;
}

/**
 * The node with its page cut before its embeds (page-first.ts): `SELECT … FROM (SELECT <columns> FROM … WHERE …
 * ORDER BY … LIMIT …) AS alias <lateral embeds> ORDER BY …`. The outer ORDER BY is the inner one's very text (the
 * same parameters), so PostgreSQL sees the page already in that order and keeps it through the nested loops. The
 * tenant condition is repeated outside: the key `(organization_id, id)` is ordered by `id` alone only where
 * PostgreSQL knows the organization is one value, and without it the page would be sorted again with its embeds.
 */
function pageFirstSql(node: ReadNode, params: Params, extraWhere: string[]): string {
  const alias = quoteIdent(node.alias);
  const columns = pageColumns(node).map((column) => `${alias}.${quoteIdent(column)}`).join(', ');
  const where = whereSql(node.alias, node.where, extraWhere, params);
  const order = orderSql(node, params);
  const page = `SELECT ${columns} FROM ${sourceSql(node, params)}${where}${order}${pageSql(node)}`;
  const laterals = embeds(node).map((embed) => ` ${lateralSql(embed, node.alias, params)}`).join('');
  const tenant = whereSql(node.alias, node.where.filter((condition) => condition.kind === 'tenant'), [], params);
  return `SELECT ${projectionSql(node, params)} FROM (${page}) AS ${alias}${laterals}${tenant}${order}`;
}

/** `SELECT … FROM … WHERE … ORDER BY … LIMIT … OFFSET …` for one node. */
export function nodeSelectSql(node: ReadNode, params: Params, options: NodeSqlOptions = {}): string {
  if (!options.unpaged && options.projection === undefined && pagesBeforeEmbeds(node)) {
    return pageFirstSql(node, params, options.extraWhere ?? []);
  }
  const from = sourceSql(node, params);
  const laterals = embeds(node)
    .filter((embed) => !options.filteringLateralsOnly || embed.join === 'inner' || mentionsEmbed(node.where, embed.sqlAlias))
    .map((embed) => ` ${lateralSql(embed, node.alias, params)}`)
    .join('');
  const parts = options.projection === undefined ? projected(node, params) : [];
  const projection = options.projection ?? projectionOf(parts);
  const where = whereSql(node.alias, node.where, options.extraWhere ?? [], params);
  let tail = groupBySql(parts);
  if (!options.unpaged) {
    tail += orderSql(node, params) + pageSql(node);
  }
  return `SELECT ${projection === '' ? '' : projection} FROM ${from}${laterals}${where}${tail}`;
}
