/** Test helpers for the change feed: reading pages over HTTP as a consumer would. */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { bearer } from '../support/app.js';
import type { Change } from '../../src/changes/feed.js';
import type { Queryable } from '../../src/db/types.js';

/**
 * Waits until every change written so far is past the feed's horizon. The horizon is the oldest transaction still
 * running on the whole server (transaction ids are cluster-wide), and the tests share their PostgreSQL server with
 * other databases being created and dropped: a change committed a moment ago may stay hidden for that long.
 */
export async function settled(db: Queryable, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ visible: boolean }>(
      'SELECT coalesce(max(xid) < pg_snapshot_xmin(pg_current_snapshot()), true) AS visible FROM staykit_internal.changes');
    if (rows[0]?.visible) return;
    if (Date.now() > deadline) throw new Error('changes still hidden behind a running transaction');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface Page {
  changes: Change[];
  next: string;
  has_more: boolean;
}

export async function getChanges(app: FastifyInstance, key: string, query: Record<string, string> = {}): Promise<Page> {
  const response = await app.inject({ method: 'GET', url: `/v1/changes?${new URLSearchParams(query)}`, headers: bearer(key) });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<Page>();
}

/** Pages from `since` until a page is not full; returns what it read and the cursor to resume from. */
export async function drain(app: FastifyInstance, key: string, since?: string, limit = 100): Promise<{ changes: Change[]; next: string | undefined }> {
  const changes: Change[] = [];
  let cursor = since;
  for (;;) {
    const page = await getChanges(app, key, { ...(cursor ? { since: cursor } : {}), limit: String(limit) });
    changes.push(...page.changes);
    cursor = page.next;
    if (!page.has_more) return { changes, next: cursor };
  }
}
