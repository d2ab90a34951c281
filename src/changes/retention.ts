/**
 * The change feed's retention (docs/webhooks.md#change-feed): once an hour, the changes older than
 * STAYKIT_CHANGE_RETENTION days are deleted; a cursor from before them then answers 410 (SK741).
 */
import { startPollLoop } from '../jobs/poll-loop.js';
import type { Queryable } from '../db/types.js';
import type { WorkerLogger } from '../observability/worker-logger.js';
import { expireChanges } from './feed.js';

export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ChangeRetentionOptions {
  retentionDays: number;
  logger: WorkerLogger;
  /** Default: the system clock. */
  now?: () => Date;
  intervalMs?: number;
}

export function startChangeRetention(db: Queryable, options: ChangeRetentionOptions): { stop(): Promise<void> } {
  const now = options.now ?? (() => new Date());
  const intervalMs = options.intervalMs ?? RETENTION_INTERVAL_MS;
  let lastRun = -Infinity;
  const loop = startPollLoop<Date>({
    pollIntervalMs: intervalMs,
    concurrency: 1,
    maxBackoffMs: intervalMs,
    // Due once per interval; the loop looks again when a run ends and finds nothing due.
    claim: async () => {
      const at = now();
      if (at.getTime() - lastRun < intervalMs) return [];
      lastRun = at.getTime();
      return [at];
    },
    work: async (at) => {
      try {
        const expired = await expireChanges(db, new Date(at.getTime() - options.retentionDays * DAY_MS));
        if (expired > 0) options.logger.info({ expired }, 'change feed: old changes deleted');
      } catch (error) {
        // The next run deletes them: keeping changes a little longer loses nothing.
        options.logger.error({ err: error }, 'change feed retention failed');
      }
    },
    onClaimError: () => undefined,
  });
  return { stop: () => loop.stop() };
}
