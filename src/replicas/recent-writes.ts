/**
 * Read-your-writes: who wrote in the last `windowMs`, by rate-limit identity (the key's public key_id, or the client
 * address without a key). Their reads go to the primary, so a client never reads a replica older than its own write.
 * In memory, per process; `staykit serve --processes N` shares the marks between its processes (src/cluster).
 */
export class RecentWrites {
  private readonly until = new Map<string, number>();
  /** Called with each new mark (the cluster passes it on to its other processes). */
  onMark: ((who: string, until: number) => void) | undefined;

  constructor(readonly windowMs: number, private readonly now: () => number = Date.now) {}

  mark(who: string): void {
    const until = this.now() + this.windowMs;
    this.remember(who, until);
    this.onMark?.(who, until);
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
