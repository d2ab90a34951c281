/**
 * `api_requests`: one row per authenticated request (secret key, publishable key or dashboard session), buffered in memory and written in batches (every second or
 * every 500 rows) so the request path never waits for it.
 *
 * A batch the database refuses (down, restarting, a lock timeout) is kept and written again later, after a delay
 * that doubles per failure up to 30 s, oldest entries first. The log must not take the API down with it, so what
 * waits is bounded: beyond MAX_BUFFERED_ENTRIES the oldest entries are dropped, counted (`onDropped`, the
 * `staykit_request_log_dropped_total` metric) and logged. On close (graceful shutdown) everything buffered is
 * written, retrying for up to CLOSE_TIMEOUT_MS; what still cannot be written then is dropped the same way. A
 * process killed outright (SIGKILL, a crash) loses what it had not written yet: at most the last second of
 * requests while the database is healthy, everything still waiting while it is not.
 */
import type { Database } from '../db/types.js';
import type { WorkerLogger } from '../observability/worker-logger.js';

export interface RequestLogEntry {
  organization_id: string;
  /** The secret key's id (api_keys.id); null for a publishable key or a dashboard session. */
  api_key_id: string | null;
  /** The publishable key's id (publishable_keys.id) for a widget's or booking site's request; null or absent otherwise. */
  publishable_key_id?: string | null;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  request_id: string;
  created_at: string;
}

/** Entries held while the database refuses them; beyond this the oldest are dropped (about 3 MB of entries). */
export const MAX_BUFFERED_ENTRIES = 10_000;
/** How long a graceful shutdown keeps trying to write what is buffered. */
export const CLOSE_TIMEOUT_MS = 5_000;

export interface RequestLogOptions {
  logger: WorkerLogger;
  /** Called with the number of entries dropped (over the bound, or unwritten at close). */
  onDropped?: (count: number) => void;
  batchSize?: number;
  intervalMs?: number;
  maxBuffered?: number;
  maxBackoffMs?: number;
  closeTimeoutMs?: number;
}

const INSERT = `
  INSERT INTO api.api_requests (organization_id, api_key_id, publishable_key_id, method, path, status, duration_ms, request_id, created_at)
  SELECT organization_id, api_key_id, publishable_key_id, method, path, status, duration_ms, request_id, created_at
  FROM jsonb_populate_recordset(NULL::api.api_requests, $1::jsonb)`;

export class RequestLog {
  private buffer: RequestLogEntry[] = [];
  private readonly timer: NodeJS.Timeout;
  /** The write running now, if any: one at a time, so entries land in order and a retry never races a write. */
  private writing: Promise<boolean> | undefined;
  private failures = 0;
  private retryAt = 0;
  /** Dropped since the last log line: drops are logged once per interval, not once per request. */
  private droppedUnlogged = 0;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  private readonly maxBuffered: number;
  private readonly maxBackoffMs: number;
  private readonly closeTimeoutMs: number;

  constructor(
    private readonly db: Database,
    private readonly options: RequestLogOptions,
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.intervalMs = options.intervalMs ?? 1_000;
    this.maxBuffered = options.maxBuffered ?? MAX_BUFFERED_ENTRIES;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.closeTimeoutMs = options.closeTimeoutMs ?? CLOSE_TIMEOUT_MS;
    this.timer = setInterval(() => {
      this.logDrops();
      if (Date.now() >= this.retryAt) void this.flush();
    }, this.intervalMs);
    this.timer.unref();
  }

  record(entry: RequestLogEntry): void {
    this.buffer.push(entry);
    this.keepWithinBound();
    if (this.buffer.length >= this.batchSize && this.failures === 0) void this.flush();
  }

  /**
   * Writes what is buffered, batch after batch, and resolves true once the buffer is empty — or false when the
   * database refused a batch (it stays buffered for the next try).
   */
  async flush(): Promise<boolean> {
    while (this.writing) await this.writing;
    while (this.buffer.length > 0) {
      this.writing = this.writeBatch();
      const written = await this.writing;
      this.writing = undefined;
      if (!written) return false;
    }
    return true;
  }

  /** Stops the timer and writes everything buffered, retrying until CLOSE_TIMEOUT_MS; drops what is left then. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const deadline = Date.now() + this.closeTimeoutMs;
    while (!(await this.flush()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(this.retryAt, deadline) - Date.now())));
    }
    this.logDrops();
    if (this.buffer.length === 0) return;
    this.drop(this.buffer.length);
    this.logDrops('the database did not take them before shutdown');
  }

  /** The oldest batch leaves the buffer while it is written, and goes back to its front if the write fails. */
  private async writeBatch(): Promise<boolean> {
    const batch = this.buffer.splice(0, this.batchSize);
    try {
      await this.db.query(INSERT, [JSON.stringify(batch)]);
    } catch (error) {
      this.buffer = batch.concat(this.buffer);
      this.keepWithinBound();
      this.failures += 1;
      const delay = Math.min(this.intervalMs * 2 ** this.failures, this.maxBackoffMs);
      this.retryAt = Date.now() + delay;
      this.options.logger.error(
        { err: error, buffered: this.buffer.length, failures: this.failures, retry_in_ms: delay },
        'writing api_requests failed; the entries are kept for a later try',
      );
      return false;
    }
    this.failures = 0;
    this.retryAt = 0;
    return true;
  }

  private keepWithinBound(): void {
    if (this.buffer.length > this.maxBuffered) this.drop(this.buffer.length - this.maxBuffered);
  }

  private drop(count: number): void {
    this.buffer.splice(0, count);
    this.droppedUnlogged += count;
    this.options.onDropped?.(count);
  }

  private logDrops(why = `more than ${this.maxBuffered} were waiting for the database`): void {
    if (this.droppedUnlogged === 0) return;
    this.options.logger.error({ dropped: this.droppedUnlogged, buffered: this.buffer.length }, `api_requests entries dropped: ${why}`);
    this.droppedUnlogged = 0;
  }
}
