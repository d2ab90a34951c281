/**
 * The poll loop behind the background workers (webhook deliveries, iCal sync): claim up to the free slots, start
 * each claimed item without awaiting it, and sleep between looks. A full batch is followed at once by another
 * claim (more may be due); a failed claim backs off exponentially up to a cap. A finished item or `wake()` cuts
 * the sleep short; `stop()` stops claiming and waits for the work in flight. What a claim means (a lease in the
 * database) is the caller's business.
 */

export interface PollLoopOptions<Item> {
  /** Sleep between looks when idle or when every slot is busy (ms). */
  pollIntervalMs: number;
  /** Items worked at once. */
  concurrency: number;
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
  /** Cuts the current sleep short. A wake while a claim runs is not remembered. */
  wake(): void;
  /** Stops claiming, then waits for every item in flight. */
  stop(): Promise<void>;
}

export function startPollLoop<Item>(options: PollLoopOptions<Item>): PollLoop {
  const { pollIntervalMs, concurrency, maxBackoffMs } = options;
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let wakeUp: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  const start = (item: Item) => {
    const task = options.work(item).finally(() => {
      inFlight.delete(task);
      wakeUp?.(); // a slot is free: claim again now rather than at the next poll
    });
    inFlight.add(task);
  };

  const loop = async () => {
    let failures = 0;
    while (!stopping) {
      const free = concurrency - inFlight.size;
      let claimed: Item[] = [];
      if (free > 0) {
        try {
          claimed = await options.claim(free);
          failures = 0;
        } catch (error) {
          failures += 1;
          if (!stopping) options.onClaimError(error);
        }
      }
      // Also when stop was asked during the claim: these are held now, better worked than left to expire.
      claimed.forEach(start);
      if (stopping) break;
      // A full batch: more may be due. With no slot left, the next turn sleeps.
      if (free > 0 && claimed.length === free) continue;
      await sleep(failures > 0 ? Math.min(pollIntervalMs * 2 ** failures, maxBackoffMs) : pollIntervalMs);
    }
  };

  const looping = loop();
  return {
    wake() {
      wakeUp?.();
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await looping;
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
