/**
 * The poll loop behind the background workers (webhook deliveries, iCal sync): claim up to the free slots, start
 * each claimed item without awaiting it, and sleep between looks. A full batch is followed at once by another
 * claim (more may be due); a failed claim backs off exponentially up to a cap. A finished item (once at least
 * `minClaim` slots are free) or `wake()` cuts the sleep short — also when it happens while a claim runs: the next
 * sleep then ends at once. `stop()` stops claiming and waits for the work in flight. What a claim means (a lease
 * in the database) is the caller's business.
 */

export interface PollLoopOptions<Item> {
  /** Sleep between looks when idle or when every slot is busy (ms). */
  pollIntervalMs: number;
  /** Items worked at once. */
  concurrency: number;
  /** Most items asked for in one claim. Default: `concurrency`. */
  claimBatch?: number;
  /**
   * Free slots needed before claiming again while items are in flight (a claim is a round trip: with many slots,
   * claiming one item per finished item would cost a claim per item). Default 1; at most `concurrency`.
   */
  minClaim?: number;
  /** Longest sleep after repeated claim failures (ms). */
  maxBackoffMs: number;
  /** Claims (and holds) up to `limit` items. */
  claim(limit: number): Promise<Item[]>;
  /** Works one claimed item. Must not reject: nothing but `stop()` awaits it, so it handles its own errors. */
  work(item: Item): Promise<void>;
  /** A claim failed. Not called once stopping: the database is often being closed then. */
  onClaimError(error: unknown): void;
}

export interface PollLoop {
  /** Cuts the current sleep short, or the next one if a claim is running. */
  wake(): void;
  /** Stops claiming, then waits for every item in flight. */
  stop(): Promise<void>;
}

export function startPollLoop<Item>(options: PollLoopOptions<Item>): PollLoop {
  const { pollIntervalMs, concurrency, maxBackoffMs } = options;
  const claimBatch = Math.max(1, options.claimBatch ?? concurrency);
  const minClaim = Math.min(Math.max(1, options.minClaim ?? 1), concurrency);
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) {
        woken = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  const wake = () => {
    if (wakeUp) wakeUp();
    else woken = true;
  };

  const start = (item: Item) => {
    const task = options.work(item).finally(() => {
      inFlight.delete(task);
      // Enough slots are free: claim again now rather than at the next poll.
      if (concurrency - inFlight.size >= minClaim) wake();
    });
    inFlight.add(task);
  };

  const loop = async () => {
    let failures = 0;
    while (!stopping) {
      const free = concurrency - inFlight.size;
      const limit = free >= minClaim || (free > 0 && inFlight.size === 0) ? Math.min(free, claimBatch) : 0;
      let claimed: Item[] = [];
      woken = false; // a claim looks now: wakes from here on are for after it
      if (limit > 0) {
        try {
          claimed = await options.claim(limit);
          failures = 0;
        } catch (error) {
          failures += 1;
          if (!stopping) options.onClaimError(error);
        }
      }
      // Also when stop was asked during the claim: these are held now, better worked than left to expire.
      claimed.forEach(start);
      if (stopping) break;
      // A full batch: more may be due. With too few slots left, the next turn sleeps until enough free up.
      if (limit > 0 && claimed.length === limit) continue;
      if (failures > 0) woken = false; // back off even if woken
      await sleep(failures > 0 ? Math.min(pollIntervalMs * 2 ** failures, maxBackoffMs) : pollIntervalMs);
    }
  };

  const looping = loop();
  return {
    wake,
    async stop() {
      stopping = true;
      wakeUp?.();
      await looping;
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
