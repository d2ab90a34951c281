/**
 * Read trees: the `select` tree resolved against the schema cache (columns checked, embeds bound to relationships),
 * then filters, logic trees, orders and limits attached to the node their embed path names.
 */
import {
  notEmbedded,
  relatedOrderNotToOne,
  relationDoesNotExist,
  tableNotFound,
  unacceptableFilter,
  undefinedColumn,
} from '../../errors/catalogue.js';
import type { SchemaCache, Table } from '../../schema/types.js';
import type { EmbedPath, Field, Filter, LogicTree, QueryParams, SelectItem } from '../parse/types.js';
import { aggregatesNotAllowed, duplicateEmbed, spreadNotToOne, toManySpreadAggregate } from '../../errors/postgrest-features.js';
import { closest } from './fuzzy.js';
import { findRelationship, isToOne } from './relationship.js';
import type { AggregateItem, ColumnExpr, Condition, EmbedItem, EngineOptions, OutputItem, ReadNode, Source } from './types.js';

export class AliasCounter {
  private next = 0;
  take(): string {
    const alias = `pgrst_${this.next}`;
    this.next += 1;
    return alias;
  }
}

export interface BuildContext {
  cache: SchemaCache;
  options: EngineOptions;
  aliases: AliasCounter;
}

export function resolveColumn(node: ReadNode, field: Field): ColumnExpr {
  if (!node.knownColumns) return { column: field.name, jsonPath: field.jsonPath, info: undefined };
  const info = node.table.columns.find((column) => column.name === field.name);
  if (info) return { column: field.name, jsonPath: field.jsonPath, info };
  const computed = node.computedFields?.get(field.name);
  // A write's returned rows already hold the computed field as a column (its RETURNING called the function).
  if (computed && node.source.kind === 'mutation') return { column: field.name, jsonPath: field.jsonPath, info: undefined };
  if (computed) return { column: field.name, jsonPath: field.jsonPath, info: undefined, computed };
  throw undefinedColumn(node.errorName, field.name);
}

function outputName(field: Field, alias: string | undefined): string {
  if (alias !== undefined) return alias;
  const last = field.jsonPath[field.jsonPath.length - 1];
  return last && !last.isIndex ? last.key : field.name;
}

function tenantFor(ctx: BuildContext, table: Table): { column: string; value: string } | undefined {
  const tenant = ctx.options.tenant;
  if (!tenant) return undefined;
  return table.columns.some((column) => column.name === tenant.column) ? tenant : undefined;
}

export function lookupTable(ctx: BuildContext, name: string): Table {
  const table = ctx.cache.tables.get(name);
  if (!table) {
    if (ctx.options.postgrest === 12) throw relationDoesNotExist(ctx.cache.schema, name);
    throw tableNotFound(ctx.cache.schema, name, closestTable(ctx.cache, name));
  }
  return table;
}

function closestTable(cache: SchemaCache, name: string): string | null {
  return closest(name, cache.tables.keys(), 0.75);
}

/** Builds the node for `table` with its select tree (no filters yet). */
export function buildNode(
  ctx: BuildContext,
  table: Table,
  source: Source,
  select: SelectItem[],
  knownColumns = true,
  depth = 0,
  errorName = table.name,
): ReadNode {
  const node: ReadNode = {
    table,
    knownColumns,
    source,
    alias: ctx.aliases.take(),
    errorName,
    items: [],
    where: [],
    order: [],
    offset: 0,
    limit: undefined,
    junctionTenant: undefined,
    // Computed fields take the table's row: a write's RETURNING calls them (plan/mutate.ts), a function's rows have none.
    computedFields: source.kind === 'function' ? undefined : ctx.cache.computedFields.get(table.name),
    aggregatedByParent: false,
  };
  const tenant = tenantFor(ctx, table);
  if (tenant && source.kind !== 'mutation') node.where.push({ kind: 'tenant', column: tenant.column, value: tenant.value });
  const unaliased = new Set<string>();
  for (const item of select) {
    if (item.type === 'embed' && item.alias === undefined) {
      // PostgREST 12.2: both lateral joins would be named `<parent>_<embed>_<depth>`, and PostgreSQL refuses that.
      if (unaliased.has(item.name)) throw duplicateEmbed(table.name, item.name, depth + 1);
      unaliased.add(item.name);
    }
    node.items.push(...buildItems(ctx, node, item, depth));
  }
  return node;
}

function buildItems(ctx: BuildContext, node: ReadNode, item: SelectItem, depth: number): OutputItem[] {
  if (item.type === 'star') {
    if (!node.knownColumns) {
      return [{ kind: 'field', expr: { column: '*', jsonPath: [], info: undefined }, cast: undefined, name: '*' }];
    }
    return node.table.columns
      .filter((column) => column.canSelect)
      .map((column) => ({
        kind: 'field' as const,
        expr: { column: column.name, jsonPath: [], info: column },
        cast: undefined,
        name: column.name,
      }));
  }
  if (item.type === 'field') {
    if (isLegacyCount(node, item)) return [countAll(ctx, item.alias, item.cast)];
    return [{ kind: 'field', expr: resolveColumn(node, item.field), cast: item.cast, name: outputName(item.field, item.alias) }];
  }
  if (item.type === 'aggregate') {
    if (item.field === undefined) return [countAll(ctx, item.alias, item.cast)];
    if (ctx.options.aggregates === false) throw aggregatesNotAllowed();
    return [{
      kind: 'aggregate',
      fn: item.fn,
      expr: resolveColumn(node, item.field),
      inputCast: item.inputCast,
      cast: item.cast,
      name: item.alias ?? item.fn,
    }];
  }
  const rel = findRelationship(ctx.cache, node.table.name, item.name, item.hint, ctx.options.strictRelationships === true);
  const child = lookupTable(ctx, rel.foreignTable);
  const toOne = isToOne(rel);
  if (item.spread && !toOne && ctx.options.postgrest === 12) throw spreadNotToOne(rel.table, item.name);
  const name = item.alias ?? item.name;
  // A computed relationship's rows come from its function, called with the parent's row.
  const source: Source = rel.computed ? { kind: 'computed', routine: rel.computed, parentAlias: node.alias } : { kind: 'table' };
  // PostgREST aliases an embedded table `<table>_<depth>`, and PostgreSQL names that alias in a missing column's error.
  const errorName = rel.cardinality === 'many-to-many' ? child.name : `${child.name}_${depth + 1}`;
  const childNode = buildNode(ctx, child, source, item.select, true, depth + 1, errorName);
  // PostgREST hoists the aggregates of a to-one spread to the parent, where the spread's columns are columns of its
  // own (aggregate_functions.rst "Using Columns from a Spreaded Resource"); PostgREST 13 refuses them in a to-many one.
  if (item.spread && toOne) childNode.aggregatedByParent = true;
  else if (item.spread && aggregates(childNode)) throw toManySpreadAggregate();
  if (rel.junction) {
    const junction = lookupTable(ctx, rel.junction.table);
    childNode.junctionTenant = tenantFor(ctx, junction);
  }
  if (!toOne && childNode.order.length === 0) childNode.order = defaultOrder(ctx, childNode);
  const embed: EmbedItem = {
    kind: 'embed',
    name,
    requestName: item.name,
    relationship: rel,
    node: childNode,
    join: item.join ?? 'left',
    toOne,
    spread: item.spread,
    sqlAlias: ctx.aliases.take(),
  };
  return [embed];
}

/**
 * PostgREST's legacy `select=count` (no parentheses), kept by PostgREST for compatibility: `count()` when the table
 * has no column of that name, as in `messages(count)`.
 */
function isLegacyCount(node: ReadNode, item: Extract<SelectItem, { type: 'field' }>): boolean {
  return (
    item.field.name === 'count' && item.field.jsonPath.length === 0 && node.knownColumns &&
    !node.table.columns.some((column) => column.name === 'count')
  );
}

function countAll(ctx: BuildContext, alias: string | undefined, cast: string | undefined): AggregateItem {
  if (ctx.options.aggregates === false) throw aggregatesNotAllowed();
  return { kind: 'aggregate', fn: 'count', expr: undefined, inputCast: undefined, cast, name: alias ?? 'count' };
}

/**
 * The node selects aggregates, its own or those its to-one spreads (and theirs) hand up to it: its rows, or its
 * ancestor's, are groups. Asked of every node of every request, so it answers without building a list.
 */
export function carriesAggregates(node: ReadNode): boolean {
  return node.items.some(
    (item) => item.kind === 'aggregate' || (item.kind === 'embed' && item.spread && item.toOne && carriesAggregates(item.node)),
  );
}

/** The node's rows are groups: it applies aggregates (its own and those its to-one spreads hoist to it). */
export function aggregates(node: ReadNode): boolean {
  return !node.aggregatedByParent && carriesAggregates(node);
}

/**
 * Staykit's default order: the primary key (the spec's rule 4); none with `defaultOrder: 'none'` (PostgREST has
 * none) and none for a node that aggregates (its rows are groups: the key is not among the grouped columns).
 */
export function defaultOrder(ctx: BuildContext, node: ReadNode): ReadNode['order'] {
  if (!node.knownColumns || ctx.options.defaultOrder === 'none' || aggregates(node)) return [];
  return node.table.primaryKey.map((column) => ({
    expr: { column, jsonPath: [], info: node.table.columns.find((c) => c.name === column) },
    direction: undefined,
    nulls: undefined,
    related: undefined,
  }));
}

/** One output key of a node (spreads flattened); `hoisted` when it is an aggregate an ancestor applies. */
export interface NodeOutput {
  name: string;
  hoisted: AggregateItem | undefined;
}

/** `rel()` with an empty select only filters (with `!inner` or `rel=not.is.null`); it is not output. */
export function isHidden(item: EmbedItem): boolean {
  return item.node.items.length === 0;
}

/** The keys a node's rows have, spreads flattened (CSV headers, spread parents, related orders). */
export function nodeOutputs(node: ReadNode): NodeOutput[] {
  return node.items.flatMap((item): NodeOutput[] => {
    if (item.kind === 'aggregate') return [{ name: item.name, hoisted: node.aggregatedByParent ? item : undefined }];
    if (item.kind === 'field') return [{ name: item.name, hoisted: undefined }];
    if (item.spread) return nodeOutputs(item.node);
    return isHidden(item) ? [] : [{ name: item.name, hoisted: undefined }];
  });
}

export function outputNames(node: ReadNode): string[] {
  return nodeOutputs(node).map((output) => output.name);
}

function findEmbed(node: ReadNode, name: string): EmbedItem | undefined {
  return node.items.find(
    (item): item is EmbedItem => item.kind === 'embed' && (item.name === name || item.requestName === name),
  );
}

/** The node an embed path names; PGRST108 when a step is not embedded. */
export function nodeAt(root: ReadNode, path: EmbedPath): ReadNode {
  let node = root;
  for (const step of path) {
    const embed = findEmbed(node, step);
    if (!embed) throw notEmbedded(step);
    node = embed.node;
  }
  return node;
}

export function toCondition(node: ReadNode, filter: Filter): Condition {
  if (filter.field.jsonPath.length === 0) {
    const embed = findEmbed(node, filter.field.name);
    if (embed) {
      if (filter.operation.kind === 'is' && filter.operation.value === 'null') {
        return { kind: 'embed-null', embedAlias: embed.sqlAlias, negated: filter.negated };
      }
      throw unacceptableFilter(embed.requestName);
    }
  }
  return { kind: 'filter', expr: resolveColumn(node, filter.field), negated: filter.negated, operation: filter.operation };
}

export function logicToCondition(node: ReadNode, tree: LogicTree): Condition {
  if (tree.type === 'filter') return toCondition(node, tree.filter);
  return {
    kind: 'logic',
    negated: tree.negated,
    operator: tree.operator,
    children: tree.children.map((child) => logicToCondition(node, child)),
  };
}

/**
 * Attaches filters, logic trees, orders and embedded limits from the query to the tree. `skipRoot`: for mutations
 * the root's filters go to the mutation itself and its order/limit are ignored, as in PostgREST.
 */
export function attachQuery(root: ReadNode, query: QueryParams, options: { skipRoot: boolean }): void {
  for (const { path, filter } of query.filters) {
    if (options.skipRoot && path.length === 0) continue;
    const node = nodeAt(root, path);
    node.where.push(toCondition(node, filter));
  }
  for (const { path, tree } of query.logic) {
    if (options.skipRoot && path.length === 0) continue;
    const node = nodeAt(root, path);
    node.where.push(logicToCondition(node, tree));
  }
  for (const { path, terms } of query.order) {
    if (options.skipRoot && path.length === 0) continue;
    const node = nodeAt(root, path);
    node.order = terms.map((term) => {
      if (term.relation === undefined) {
        return { expr: resolveColumn(node, term.field), direction: term.direction, nulls: term.nulls, related: undefined };
      }
      const embed = findEmbed(node, term.relation);
      if (!embed) throw notEmbedded(term.relation);
      if (!embed.toOne) throw relatedOrderNotToOne(node.table.name, term.relation);
      // A spread's output (its alias too) is a column of the parent's row: grouped rows can be ordered by it.
      const spreadOutput = embed.spread && term.field.jsonPath.length === 0 && outputNames(embed.node).includes(term.field.name);
      return {
        expr: spreadOutput ? { column: term.field.name, jsonPath: [], info: undefined } : resolveColumn(embed.node, term.field),
        direction: term.direction,
        nulls: term.nulls,
        related: embed,
        spreadOutput,
      };
    });
  }
  for (const [key, range] of query.ranges) {
    if (key === '') continue;
    const node = nodeAt(root, key.split('.'));
    node.offset = range.offset;
    node.limit = range.limit;
  }
}
