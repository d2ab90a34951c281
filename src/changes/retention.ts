/**
 * The change feed's retention (docs/webhooks.md#change-feed): once an hour, the changes older than
 * STAYKIT_CHANGE_RETENTION days are deleted; a cursor from before them then answers 410 (SK741).
 */
import { startPeriodicJob, type PeriodicJob, type PeriodicJobSettings } from '../jobs/periodic.js';
import type { Queryable } from '../db/types.js';
import { expireChanges } from './feed.js';

export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ChangeRetentionOptions extends PeriodicJobSettings {
  retentionDays: number;
}

export function startChangeRetention(db: Queryable, options: ChangeRetentionOptions): PeriodicJob {
  const { logger } = options;
  return startPeriodicJob({
    ...options,
    intervalMs: options.intervalMs ?? RETENTION_INTERVAL_MS,
    run: async (at) => {
      const expired = await expireChanges(db, new Date(at.getTime() - options.retentionDays * DAY_MS));
      if (expired > 0) logger.info({ expired }, 'change feed: old changes deleted');
    },
    // The next run deletes them: keeping changes a little longer loses nothing.
    failureMessage: 'change feed retention failed',
  });
}
