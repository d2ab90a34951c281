/** Tasks the compute pool tests run in its threads: real CPU work, and a plain answer. */
import { threadId } from 'node:worker_threads';

/** Keeps the thread's CPU busy for `ms` (as a long render would), then says which thread it ran on. */
export function spin({ ms }: { ms: number }): number {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* busy */ }
  return threadId;
}

export function echo<T>(value: T): { value: T; threadId: number } {
  return { value, threadId };
}
