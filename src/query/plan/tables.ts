/**
 * Which tables a plan touches, for authorization before anything runs: every table whose rows it reads (the top
 * level, each embed at any depth with the junction of a many-to-many, filters and orders on them, the rows a write
 * returns) and the table it writes.
 */
import type { Plan, ReadNode } from './types.js';

export interface TableAccess {
  /** Tables whose rows the statement reads, in the order they appear in the request, without repeats. */
  read: string[];
  /** The table an insert, update or delete writes. */
  write: string | undefined;
}

function collect(node: ReadNode, into: Set<string>): void {
  // A function's result is not a table of the schema; what it reads is the function's business.
  if (node.source.kind !== 'function') into.add(node.table.name);
  for (const item of node.items) {
    if (item.kind !== 'embed') continue;
    if (item.relationship.junction) into.add(item.relationship.junction.table);
    collect(item.node, into);
  }
}

export function tableAccess(plan: Exclude<Plan, { type: 'options' }>): TableAccess {
  const read = new Set<string>();
  switch (plan.type) {
    case 'read':
    case 'rpc':
      collect(plan.node, read);
      return { read: [...read], write: undefined };
    case 'insert':
      collect(plan.returning, read);
      return { read: [...read], write: plan.table.name };
    case 'update':
    case 'delete':
      // Their filters read the target's rows; the returned rows are shaped by the `select` tree.
      read.add(plan.table.name);
      collect(plan.returning, read);
      return { read: [...read], write: plan.table.name };
  }
}
