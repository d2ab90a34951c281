/**
 * Named (prepared) statements of one PostgreSQL connection, keyed by SQL text: a statement sent again on the same
 * connection is bound to the name it was parsed under, so PostgreSQL skips parsing and analysis and, once it has
 * seen the statement five times, may reuse a generic plan (`plan_cache_mode = auto`). The engine's statements differ
 * with the request's shape (columns, filters, embeds) but not with its values, which are parameters: the same
 * request shape is the same text.
 *
 * The cache is bounded (least recently used out): a tenant's ad-hoc queries cannot grow the client's or the
 * server's memory without bound. A statement leaving the cache is closed on the server with the next statements
 * sent on the connection (the extended protocol's Close, in the same round trip).
 *
 * Off behind a transaction-mode pooler older than PgBouncer 1.21: the next transaction may run on a server session
 * that never saw the name (docs/scaling.md#connection-pooler).
 */

/** Statements kept prepared per connection unless configured. */
export const DEFAULT_PREPARED_STATEMENTS_PER_CONNECTION = 256;

/** Counters over every connection of a pool, for the benchmark and the metrics. */
export interface PreparedStatementStats {
  /** Statements bound to a name parsed earlier on their connection. */
  hits: number;
  /** Statements parsed under a new name. */
  parses: number;
  /** Names closed: pushed out of a full cache, or found stale (a failed parse, a changed result type). */
  closed: number;
}

export function emptyPreparedStatementStats(): PreparedStatementStats {
  return { hits: 0, parses: 0, closed: 0 };
}

/** How one statement goes out: under `name`, parsed first when `parse`. */
export interface NamedStatement {
  name: string;
  parse: boolean;
}

/**
 * SQLSTATEs that say a name's statement can no longer run as it was prepared: `0A000` "cached plan must not change
 * result type" (a table's columns changed under a statement that returns them) and `26000` "prepared statement
 * does not exist" (the session was reset). The statement runs again when parsed afresh.
 */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000']);

export function isStaleStatementError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && STALE_STATEMENT_CODES.has((error as { code?: unknown }).code as string);
}

const NONE: readonly string[] = [];

export class PreparedStatementCache {
  /** SQL text → name; a Map iterates in insertion order, and a hit is re-inserted: the first entry is the oldest. */
  private readonly names = new Map<string, string>();
  /** Names to close on the server before the next statements. */
  private readonly closing: string[] = [];
  private counter = 0;

  constructor(
    private readonly capacity: number,
    private readonly stats: PreparedStatementStats,
  ) {}

  /** The name `text` goes out under; the oldest entry is closed when a new one would exceed the capacity. */
  name(text: string): NamedStatement {
    const known = this.names.get(text);
    if (known !== undefined) {
      this.names.delete(text);
      this.names.set(text, known);
      this.stats.hits += 1;
      return { name: known, parse: false };
    }
    if (this.names.size >= this.capacity) {
      const [oldestText, oldestName] = this.names.entries().next().value as [string, string];
      this.names.delete(oldestText);
      this.closing.push(oldestName);
    }
    this.counter += 1;
    const name = `staykit_${this.counter}`;
    this.names.set(text, name);
    this.stats.parses += 1;
    return { name, parse: true };
  }

  /**
   * `text` is no longer known by its name (its parse failed or was skipped, or it went stale): it is parsed
   * again under a new name next time, and the old name is closed in case the server holds it.
   */
  forget(text: string, name: string): void {
    if (this.names.get(text) !== name) return;
    this.names.delete(text);
    this.closing.push(name);
  }

  /** The names to close before the next statements; the caller sends them. */
  takeClosing(): readonly string[] {
    if (this.closing.length === 0) return NONE;
    const names = this.closing.splice(0);
    this.stats.closed += names.length;
    return names;
  }
}
