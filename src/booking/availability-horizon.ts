/**
 * The availability index's horizon (docs/booking.md#availability-index): rows run from the day before today to 400
 * days ahead, so each day one more date joins and one leaves. `startAvailabilityHorizon` moves it from the background
 * workers' poll loop, at start and then once per new UTC date (looked at every hour), with the clock it is given.
 */
import type { Queryable } from '../db/types.js';
import { startPollLoop } from '../jobs/poll-loop.js';
import type { WorkerLogger } from '../observability/worker-logger.js';

/** How often the horizon is looked at: a day's move is never more than an hour late. */
export const HORIZON_INTERVAL_MS = 60 * 60 * 1000;

/** Moves the horizon to `at`'s UTC date; returns the rows added. */
export async function rollAvailabilityHorizon(db: Queryable, at: Date): Promise<number> {
  const { rows } = await db.query<{ added: number }>(
    'SELECT staykit_internal.roll_availability_days($1::date) AS added', [at.toISOString().slice(0, 10)]);
  return rows[0]?.added ?? 0;
}

export interface AvailabilityHorizonOptions {
  logger: WorkerLogger;
  /** Default: the system clock. */
  now?: () => Date;
  intervalMs?: number;
}

export function startAvailabilityHorizon(db: Queryable, options: AvailabilityHorizonOptions): { stop(): Promise<void> } {
  const now = options.now ?? (() => new Date());
  const intervalMs = options.intervalMs ?? HORIZON_INTERVAL_MS;
  let lastDate = '';
  const loop = startPollLoop<Date>({
    pollIntervalMs: intervalMs,
    concurrency: 1,
    maxBackoffMs: intervalMs,
    // Due once per date (the move deletes the past days: one pass over the table, not one an hour).
    claim: async () => {
      const at = now();
      const date = at.toISOString().slice(0, 10);
      if (date === lastDate) return [];
      lastDate = date;
      return [at];
    },
    work: async (at) => {
      try {
        const added = await rollAvailabilityHorizon(db, at);
        if (added > 0) options.logger.info({ added }, 'availability index: horizon moved');
      } catch (error) {
        // Dates past the horizon are computed in full by /search: a late move costs time, never a wrong answer.
        options.logger.error({ err: error }, 'availability index: moving the horizon failed');
      }
    },
    onClaimError: () => undefined,
  });
  return { stop: () => loop.stop() };
}
