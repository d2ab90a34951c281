/**
 * The monthly partitions of the logs (migration 0160): partitions created `MONTHS_AHEAD` months ahead, and those
 * older than each table's retention dropped — whole partitions, so old rows leave without DELETE or bloat. The work
 * is one database function; `startPartitionMaintenance` runs it from the background workers' poll loop, at start
 * and then every hour, with the clock it is given. See docs/scaling.md#partitioned-logs.
 */
import type { LogTable } from '../config.js';
import type { Queryable } from '../db/types.js';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobSettings } from '../jobs/periodic.js';

/** Months after the current one that always have a partition: rows never wait for one. */
export const MONTHS_AHEAD = 3;

/** How often the maintenance runs (a month boundary is never nearer than `MONTHS_AHEAD` months to a missing partition). */
export const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;

export interface PartitionChange {
  table: LogTable;
  /** First day of the partition's month, `YYYY-MM-DD` (UTC). */
  month: string;
  action: 'created' | 'dropped';
}

/** One maintenance run as of `at`; another process's run at the same time makes this one do nothing. */
export async function maintainLogPartitions(
  db: Queryable, at: Date, retentionMonths: Record<LogTable, number>, monthsAhead = MONTHS_AHEAD,
): Promise<PartitionChange[]> {
  const { rows } = await db.query<{ table: LogTable; month: string; action: 'created' | 'dropped' }>(
    `SELECT log_table AS "table", to_char(month, 'YYYY-MM-DD') AS month, action
     FROM staykit_internal.maintain_log_partitions($1, $2, $3)`,
    [at.toISOString(), monthsAhead, JSON.stringify(retentionMonths)],
  );
  return rows;
}

export interface PartitionMaintenanceOptions extends PeriodicJobSettings {
  retentionMonths: Record<LogTable, number>;
}

export function startPartitionMaintenance(db: Queryable, options: PartitionMaintenanceOptions): PeriodicJob {
  const { logger } = options;
  return startPeriodicJob({
    ...options,
    intervalMs: options.intervalMs ?? MAINTENANCE_INTERVAL_MS,
    run: async (at) => {
      const changes = await maintainLogPartitions(db, at, options.retentionMonths);
      if (changes.length > 0) logger.info({ changes }, 'log partitions maintained');
    },
    // The next run tries again; partitions exist months ahead, so a failed run loses nothing.
    failureMessage: 'log partition maintenance failed',
  });
}
