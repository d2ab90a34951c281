/**
 * Reading the change feed: one page of an organization's changes after a position, as the request's principal may
 * read them. The page is read in the request's tenant transaction (its role and settings), where the database shows
 * only the changes of resources the principal may read and of rows its tables' policies let it read, with the
 * columns it may read (migration 0206); always on the primary: a replica's snapshot horizon is not the primary's.
 * The cursor's expiry is looked up on the server's connection (the horizons are internal).
 */
import type { Queryable } from '../db/types.js';
import type { FeedPosition } from './cursor.js';

export interface Change {
  event_id: string;
  type: string;
  resource: string;
  id: string;
  /** The row as committed by this change; null for a deletion (a tombstone). */
  data: Record<string, unknown> | null;
  changed_at: string;
}

export interface FeedPage {
  changes: Change[];
  /** The position after the last change returned (the given one when there is none). */
  next: FeedPosition;
}

interface ChangeRow {
  xid: string;
  seq: string;
  event_id: string;
  event_type: string;
  resource: string;
  resource_id: string;
  data: Record<string, unknown> | null;
  changed_at: Date | string;
}

export interface PageRequest {
  after: FeedPosition;
  resources: readonly string[];
  /** Event types to keep (undefined: all). */
  types: readonly string[] | undefined;
  limit: number;
}

/** One page; `tx` is the request's tenant transaction (the organization and what it may read are its settings). */
export async function readChanges(tx: Queryable, request: PageRequest): Promise<FeedPage> {
  const { rows } = await tx.query<ChangeRow>(
    `SELECT xid::text AS xid, seq::text AS seq, event_id, event_type, resource, resource_id, data, changed_at
     FROM staykit_internal.readable_change_page($1::xid8, $2::bigint, $3::text[], $4::text[], $5::integer)`,
    [request.after.xid, request.after.seq, request.resources, request.types ?? null, request.limit],
  );
  const last = rows.at(-1);
  return {
    changes: rows.map((row) => ({
      event_id: row.event_id,
      type: row.event_type,
      resource: row.resource,
      id: row.resource_id,
      data: row.data,
      changed_at: new Date(row.changed_at).toISOString(),
    })),
    next: last ? { xid: last.xid, seq: last.seq } : request.after,
  };
}

/** Whether the retention has deleted changes of the organization after this position. */
export async function cursorExpired(db: Queryable, organizationId: string, after: FeedPosition): Promise<boolean> {
  const { rows } = await db.query<{ expired: boolean }>(
    'SELECT staykit_internal.change_cursor_expired($1, $2::xid8, $3::bigint) AS expired',
    [organizationId, after.xid, after.seq],
  );
  return rows[0]?.expired === true;
}

/** Deletes the changes made before `cutoff`; returns how many. */
export async function expireChanges(db: Queryable, cutoff: Date): Promise<number> {
  const { rows } = await db.query<{ expired: number }>('SELECT staykit_internal.expire_changes($1) AS expired', [cutoff]);
  return rows[0]?.expired ?? 0;
}
