/**
 * Group commit for delivery outcomes. Every attempt must be recorded (status, tries, response, next run), but a
 * statement — and on PostgreSQL a commit, with its WAL flush — per delivery capped a worker at a few hundred
 * deliveries per second. The recorder collects the outcomes that finish while a write is under way and writes
 * them together with `recordOutcomes` (one statement), so the batch grows with the load and a lone outcome is
 * written at once: no timer, no added latency when idle.
 *
 * A failed write (database down) rejects every outcome of its batch: those notifications keep their lease, which
 * expires, and they are sent again (at-least-once), exactly as when a single-row write failed.
 */
import type { Queryable } from '../db/types.js';
import { recordGone, recordOutcomes, type RecordedOutcome } from './queries.js';

export interface OutcomeRecorder {
  /** Resolves true when recorded, false when the lease had been lost (another worker owns it now). */
  record(outcome: RecordedOutcome): Promise<boolean>;
  /**
   * 410 Gone (the notification ends `error`, the webhook is disabled): one statement each, one at a time — when
   * an endpoint goes away, every delivery in flight to it answers 410 at once, and these all update one webhook.
   */
  recordGone(notificationId: string, leaseToken: string, response: string): Promise<boolean>;
}

export interface OutcomeRecorderOptions {
  /** Most outcomes in one statement. Default 500. */
  maxBatch?: number;
  /** Statements in flight at once (connections used). Default 2. */
  maxWrites?: number;
}

interface Waiting {
  outcome: RecordedOutcome;
  resolve(recorded: boolean): void;
  reject(error: unknown): void;
}

export function createOutcomeRecorder(db: Queryable, options: OutcomeRecorderOptions = {}): OutcomeRecorder {
  const maxBatch = options.maxBatch ?? 500;
  const maxWrites = options.maxWrites ?? 2;
  let waiting: Waiting[] = [];
  let writes = 0;
  let scheduled = false;
  let gone: Promise<unknown> = Promise.resolve();

  const write = async (batch: Waiting[]) => {
    try {
      const query = recordOutcomes(batch.map((item) => item.outcome));
      const { rows } = await db.query<{ id: string }>(query.text, query.values);
      const recorded = new Set(rows.map((row) => row.id));
      for (const item of batch) item.resolve(recorded.has(item.outcome.notificationId));
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  };

  const drain = () => {
    scheduled = false;
    while (waiting.length > 0 && writes < maxWrites) {
      const batch = waiting.length <= maxBatch ? waiting : waiting.slice(0, maxBatch);
      waiting = waiting.length <= maxBatch ? [] : waiting.slice(maxBatch);
      writes += 1;
      void write(batch).finally(() => {
        writes -= 1;
        schedule();
      });
    }
  };

  // setImmediate, not a microtask: outcomes of responses read in the same I/O turn go into one statement.
  function schedule() {
    if (scheduled || waiting.length === 0 || writes >= maxWrites) return;
    scheduled = true;
    setImmediate(drain);
  }

  return {
    record(outcome) {
      return new Promise<boolean>((resolve, reject) => {
        waiting.push({ outcome, resolve, reject });
        schedule();
      });
    },
    recordGone(notificationId, leaseToken, response) {
      const query = recordGone(notificationId, leaseToken, response);
      const written = gone.then(() => db.query(query.text, query.values)).then((result) => result.rowCount > 0);
      gone = written.catch(() => undefined);
      return written;
    },
  };
}
