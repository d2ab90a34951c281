/**
 * Which reads run with a plan PostgreSQL makes once per connection and reuses (`QueryOptions.reusePlan`) rather than
 * one made for each request's values (docs/query-engine.md#prepared-statements).
 *
 * A generic plan is made without the values, so it is only as good as a custom one when no value can change the plan.
 * Every statement of a tenant's request filters by its organization, whose share of a table ranges from a few rows to
 * most of it: measured on the benchmark's data, a generic plan read a tenant's list of products (`limit=100`) 6 times
 * slower, a product's events 10 times, an embed of 20 products with their events 5 to 23 times — it chose an index of
 * the organization sized for an average tenant. Equality filters on ordinary columns (`status=eq.…`) changed plans
 * both ways too. What a value cannot change is a lookup by key: a read whose conditions are plain equalities (the
 * tenant's among them) fixing every column of its table's primary key or of a unique key reads at most one row
 * through that key's index, and a to-one embed reads at most one row by the key its relationship references. Such a
 * read, with to-one embeds only, is planned once; anything else — `in.(…)`, ranges, patterns, `or`, a to-many embed,
 * an aggregate, a computed field, a view (whose "key" is inferred) — keeps a plan per execution.
 */
import type { Condition, ReadNode, Plan } from './types.js';

/** The column a condition fixes to one value: the tenant's, or a plain `column=eq.value`; undefined for any other. */
function fixedColumn(condition: Condition): string | undefined {
  if (condition.kind === 'tenant') return condition.column;
  if (condition.kind !== 'filter' || condition.negated) return undefined;
  const { expr, operation } = condition;
  const plainColumn = expr.info !== undefined && expr.computed === undefined && expr.jsonPath.length === 0;
  const equality = operation.kind === 'simple' && operation.operator === 'eq' && operation.quantifier === undefined;
  return plainColumn && equality ? expr.column : undefined;
}

/**
 * `node` reads at most one row of a table through a unique index, whatever the values, and so does every embed
 * below it. `joinedByKey`: an embed's row is already fixed by its relationship's key, the root's must be by its
 * conditions.
 */
function readsOneRowByKey(node: ReadNode, joinedByKey: boolean): boolean {
  if (node.source.kind !== 'table' || node.table.kind !== 'table') return false;
  const fixed = new Set<string>();
  for (const condition of node.where) {
    const column = fixedColumn(condition);
    if (column === undefined) return false;
    fixed.add(column);
  }
  const keys = [node.table.primaryKey, ...node.table.uniqueKeys].filter((key) => key.length > 0);
  if (!joinedByKey && !keys.some((key) => key.every((column) => fixed.has(column)))) return false;
  if (node.order.some((item) => item.expr.computed !== undefined)) return false;
  return node.items.every((item) =>
    item.kind === 'field' ? item.expr.computed === undefined : item.kind === 'embed' && item.toOne && readsOneRowByKey(item.node, true));
}

/** The plan's statement may reuse one PostgreSQL plan for every execution: a read of one row by key (above). */
export function reusesPlan(plan: Plan): boolean {
  return plan.type === 'read' && readsOneRowByKey(plan.node, false);
}
