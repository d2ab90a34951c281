/**
 * availability.changed / rates.changed (docs/webhooks.md#availability-and-rate-events): database triggers merge a
 * product's changes into one pending row due a second after the first (migration 0132); this job emits the due
 * rows through the webhook outbox, so a product gets at most one event of a kind per second.
 */
import { startPeriodicJob, type PeriodicJob, type PeriodicJobSettings } from '../jobs/periodic.js';
import type { Queryable } from '../db/types.js';

/** How often due events are looked for: the coalescing window, so an event waits at most about two of them. */
export const PRODUCT_EVENTS_INTERVAL_MS = 1000;

/** Emits the pending product events due at `at`; returns how many. */
export async function emitDueProductEvents(db: Queryable, at: Date): Promise<number> {
  const { rows } = await db.query<{ emitted: number }>('SELECT staykit_internal.emit_due_product_events($1) AS emitted', [at]);
  return rows[0]?.emitted ?? 0;
}

export function startProductEvents(db: Queryable, options: PeriodicJobSettings): PeriodicJob {
  return startPeriodicJob({
    ...options,
    intervalMs: options.intervalMs ?? PRODUCT_EVENTS_INTERVAL_MS,
    run: async (at) => {
      await emitDueProductEvents(db, at);
    },
    // The rows stay pending: the next run emits them.
    failureMessage: 'availability/rates events failed',
  });
}
