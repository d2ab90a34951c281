/**
 * A job run once per period on the poll loop (poll-loop.ts), at start and then whenever it is due again: the
 * availability index's horizon, the change feed's retention, the log partitions. The loop looks every `intervalMs`
 * (and again when a run ends, finding nothing due), so at most one run is in flight. A run that fails is logged and
 * left to the next period: these jobs catch up on their next run, so a failure costs time, never data.
 */
import type { WorkerLogger } from '../observability/worker-logger.js';
import { startPollLoop } from './poll-loop.js';

/** What a caller of each job may set (tests: a clock and a short interval). */
export interface PeriodicJobSettings {
  logger: WorkerLogger;
  /** Default: the system clock. */
  now?: () => Date;
  /** Default: the job's own. */
  intervalMs?: number;
}

export interface PeriodicJobOptions extends PeriodicJobSettings {
  /** Time between looks, and by default between runs (ms). */
  intervalMs: number;
  /** Whether a run is due at `at`, the previous run having been at `last`. Default: `intervalMs` since `last`. */
  due?: (at: Date, last: Date) => boolean;
  /** The job as of `at`. */
  run(at: Date): Promise<void>;
  /** Logged (with the error) when a run fails. */
  failureMessage: string;
}

export interface PeriodicJob {
  /** Stops looking, then waits for a run in progress. */
  stop(): Promise<void>;
}

export function startPeriodicJob(options: PeriodicJobOptions): PeriodicJob {
  const { intervalMs, run, logger, failureMessage } = options;
  const now = options.now ?? (() => new Date());
  const due = options.due ?? ((at: Date, last: Date) => at.getTime() - last.getTime() >= intervalMs);
  let last: Date | undefined;
  const loop = startPollLoop<Date>({
    pollIntervalMs: intervalMs,
    concurrency: 1,
    maxBackoffMs: intervalMs,
    claim: async () => {
      const at = now();
      if (last !== undefined && !due(at, last)) return [];
      last = at;
      return [at];
    },
    work: async (at) => {
      try {
        await run(at);
      } catch (error) {
        logger.error({ err: error }, failureMessage);
      }
    },
    // The claim above only reads the clock: it does not fail.
    onClaimError: () => undefined,
  });
  return { stop: () => loop.stop() };
}
