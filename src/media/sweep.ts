/**
 * The media sweep: deletes the files of pictures no media row uses any more (docs/media.md). Deleting a row
 * records its hash in staykit_internal.media_deletions in the same transaction (migration 0231); this job, on the
 * background worker's poll loop, takes each recorded hash under the organization's media lock (the one an upload
 * holds while it records and writes files), deletes the files when no row of the organization has that hash (the
 * same picture may have been uploaded again), and forgets the record. A failed deletion stays recorded for the next run.
 */
import type { Database, Queryable } from '../db/types.js';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobSettings } from '../jobs/periodic.js';
import type { MediaStore } from './store.js';

export const SWEEP_INTERVAL_MS = 60 * 1000;
/** Hashes looked at per run; the rest wait for the next. */
const BATCH = 100;

interface Deletion {
  organization_id: string;
  hash: string;
}

async function sweepOne(tx: Queryable, store: MediaStore, deletion: Deletion): Promise<boolean> {
  const { rows } = await tx.query<{ unused: boolean }>(
    `SELECT pg_advisory_xact_lock(hashtextextended('staykit-media:' || $1::uuid, 0)) IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM api.media WHERE organization_id = $1::uuid AND hash = $2) AS unused`,
    [deletion.organization_id, deletion.hash]);
  const unused = rows[0]!.unused;
  if (unused) await store.deleteHash(deletion.hash);
  await tx.query('DELETE FROM staykit_internal.media_deletions WHERE organization_id = $1 AND hash = $2', [deletion.organization_id, deletion.hash]);
  return unused;
}

/** One run: every recorded hash (up to a batch), each in a transaction of its own. Answers how many had files deleted. */
export async function sweepMedia(db: Database, store: MediaStore): Promise<number> {
  const { rows } = await db.query<Deletion>(
    'SELECT organization_id, hash FROM staykit_internal.media_deletions ORDER BY deleted_at LIMIT $1', [BATCH]);
  let deleted = 0;
  for (const deletion of rows) {
    const swept = await db.transaction(async (tx) => {
      // Another worker took it meanwhile: nothing to do.
      const claimed = await tx.query(
        'SELECT 1 FROM staykit_internal.media_deletions WHERE organization_id = $1 AND hash = $2 FOR UPDATE SKIP LOCKED',
        [deletion.organization_id, deletion.hash]);
      return claimed.rows.length > 0 && sweepOne(tx, store, deletion);
    });
    if (swept) deleted += 1;
  }
  return deleted;
}

export interface MediaSweepOptions extends PeriodicJobSettings {
  store: MediaStore;
}

export function startMediaSweep(db: Database, options: MediaSweepOptions): PeriodicJob {
  const { logger, store } = options;
  return startPeriodicJob({
    ...options,
    intervalMs: options.intervalMs ?? SWEEP_INTERVAL_MS,
    run: async () => {
      const deleted = await sweepMedia(db, store);
      if (deleted > 0) logger.info({ deleted }, 'media: files no row uses deleted');
    },
    failureMessage: 'media sweep failed',
  });
}
