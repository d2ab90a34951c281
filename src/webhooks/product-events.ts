/**
 * availability.changed / rates.changed (docs/webhooks.md#availability-and-rate-events): database triggers merge a
 * product's changes into one pending row due a second after the first (migration 0132); this job emits the due
 * rows through the webhook outbox, so a product gets at most one event of a kind per second.
 */
import { startPollLoop } from '../jobs/poll-loop.js';
import type { Queryable } from '../db/types.js';
import type { WorkerLogger } from '../observability/worker-logger.js';

/** How often due events are looked for: the coalescing window, so an event waits at most about two of them. */
export const PRODUCT_EVENTS_INTERVAL_MS = 1000;

/** Emits the pending product events due at `at`; returns how many. */
export async function emitDueProductEvents(db: Queryable, at: Date): Promise<number> {
  const { rows } = await db.query<{ emitted: number }>('SELECT staykit_internal.emit_due_product_events($1) AS emitted', [at]);
  return rows[0]?.emitted ?? 0;
}

export interface ProductEventsOptions {
  logger: WorkerLogger;
  /** Default: the system clock. */
  now?: () => Date;
  intervalMs?: number;
}

export function startProductEvents(db: Queryable, options: ProductEventsOptions): { stop(): Promise<void> } {
  const now = options.now ?? (() => new Date());
  const intervalMs = options.intervalMs ?? PRODUCT_EVENTS_INTERVAL_MS;
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
        await emitDueProductEvents(db, at);
      } catch (error) {
        // The rows stay pending: the next run emits them.
        options.logger.error({ err: error }, 'availability/rates events failed');
      }
    },
    onClaimError: () => undefined,
  });
  return { stop: () => loop.stop() };
}
