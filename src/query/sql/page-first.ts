/**
 * Which paged nodes may cut their page before their embeds are built, and the parent columns the embeds and the
 * projection then need from the page.
 *
 * A node's LIMIT/OFFSET applies after its LATERAL embeds. When the planner expects few rows (a low estimate, e.g.
 * through a row-level-security policy) it may sort above the joins and so build the embeds of every matching
 * parent, then keep 20. Selecting, ordering and cutting the parents first in a sub-select, and embedding only
 * those, bounds the embeds by the page whatever the estimates say. It gives the same rows only when no embed
 * decides which parents there are or where they come in the order, and when every output reads the parent through
 * plain columns (a computed field or relationship takes the table's row type, which a sub-select does not have).
 */
import { carriesAggregates } from '../plan/read.js';
import type { EmbedItem, ReadNode } from '../plan/types.js';
import { mentionsEmbed } from './condition.js';

function embedsOf(node: ReadNode): EmbedItem[] {
  return node.items.filter((item): item is EmbedItem => item.kind === 'embed');
}

/** The embed only adds to its parent's rows: it drops none and does not need the parent's row type. */
function onlyAdds(node: ReadNode, embed: EmbedItem): boolean {
  return embed.join !== 'inner' && !mentionsEmbed(node.where, embed.sqlAlias) && embed.relationship.computed === undefined;
}

export function pagesBeforeEmbeds(node: ReadNode): boolean {
  if (node.limit === undefined && node.offset === 0) return false;
  if (node.source.kind !== 'table' || !node.knownColumns || node.aggregatedByParent || carriesAggregates(node)) return false;
  const embeds = embedsOf(node);
  if (embeds.length === 0 || !embeds.every((embed) => onlyAdds(node, embed))) return false;
  const plainFields = node.items.every((item) => item.kind !== 'field' || (item.expr.computed === undefined && item.expr.column !== '*'));
  return plainFields && node.order.every((term) => term.related === undefined && term.expr.computed === undefined);
}

/** The parent columns the outer query reads: selected fields, order terms, the embeds' join and tenant columns. */
export function pageColumns(node: ReadNode): string[] {
  const columns = new Set<string>();
  for (const condition of node.where) if (condition.kind === 'tenant') columns.add(condition.column);
  for (const item of node.items) {
    if (item.kind === 'field') columns.add(item.expr.column);
    if (item.kind !== 'embed') continue;
    const rel = item.relationship;
    for (const column of rel.junction ? rel.junction.sourceRefColumns : rel.columns) columns.add(column);
  }
  for (const term of node.order) columns.add(term.expr.column);
  return [...columns];
}
