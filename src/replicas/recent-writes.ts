/**
 * Read-your-writes: who wrote in the last `windowMs`, by rate-limit identity (the key's public key_id, or the client
 * address without a key). Their reads go to the primary, so a client never reads a replica older than its own write.
 * In memory, per process; `staykit serve --processes N` shares the marks between its processes (src/cluster).
 */

/** Every store of this process, for marks made by the other processes of a cluster. */
const stores = new Set<WeakRef<RecentWrites>>();

/** Set by src/cluster in a cluster's process: passes each mark made here to the other processes. */
export const markPublisher: { publish: ((who: string, until: number) => void) | undefined } = { publish: undefined };

/** A mark another process made: every store of this process remembers it. */
export function rememberEverywhere(who: string, until: number): void {
  for (const reference of stores) {
    const store = reference.deref();
    if (store) store.remember(who, until);
    else stores.delete(reference);
  }
}

export class RecentWrites {
  private readonly until = new Map<string, number>();

  constructor(readonly windowMs: number, private readonly now: () => number = Date.now) {
    stores.add(new WeakRef(this));
  }

  mark(who: string): void {
    const until = this.now() + this.windowMs;
    this.remember(who, until);
    markPublisher.publish?.(who, until);
  }

  /** A mark made elsewhere (another process). */
  remember(who: string, until: number): void {
    if ((this.until.get(who) ?? 0) < until) this.until.set(who, until);
    if (this.until.size > 10_000) this.prune();
  }

  wroteRecently(who: string): boolean {
    const until = this.until.get(who);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(who);
    return false;
  }

  private prune(): void {
    const now = this.now();
    for (const [who, until] of this.until) if (until <= now) this.until.delete(who);
  }
}
