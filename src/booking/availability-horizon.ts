/**
 * The availability index's horizon (docs/booking.md#availability-index): rows run from the day before today to 400
 * days ahead, so each day one more date joins and one leaves. `startAvailabilityHorizon` moves it from the background
 * workers' poll loop, at start and then once per new UTC date (looked at every hour), with the clock it is given.
 */
import type { Queryable } from '../db/types.js';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobSettings } from '../jobs/periodic.js';

/** How often the horizon is looked at: a day's move is never more than an hour late. */
export const HORIZON_INTERVAL_MS = 60 * 60 * 1000;

const utcDate = (at: Date) => at.toISOString().slice(0, 10);

/** Moves the horizon to `at`'s UTC date; returns the rows added. */
export async function rollAvailabilityHorizon(db: Queryable, at: Date): Promise<number> {
  const { rows } = await db.query<{ added: number }>(
    'SELECT staykit_internal.roll_availability_days($1::date) AS added', [utcDate(at)]);
  return rows[0]?.added ?? 0;
}

export type AvailabilityHorizonOptions = PeriodicJobSettings;

export function startAvailabilityHorizon(db: Queryable, options: AvailabilityHorizonOptions): PeriodicJob {
  const { logger } = options;
  return startPeriodicJob({
    ...options,
    intervalMs: options.intervalMs ?? HORIZON_INTERVAL_MS,
    // Due once per date (the move deletes the past days: one pass over the table, not one an hour).
    due: (at, last) => utcDate(at) !== utcDate(last),
    run: async (at) => {
      const added = await rollAvailabilityHorizon(db, at);
      if (added > 0) logger.info({ added }, 'availability index: horizon moved');
    },
    // Dates past the horizon are computed in full by /search: a late move costs time, never a wrong answer.
    failureMessage: 'availability index: moving the horizon failed',
  });
}
