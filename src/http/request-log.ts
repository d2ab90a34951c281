/**
 * `api_requests`: one row per authenticated request, buffered in memory and written in batches (every second or
 * every 500 rows) so the request path never waits for it. A failed batch is dropped and logged, never retried
 * forever: the log must not take the API down with it.
 */
import type { Database } from '../db/types.js';

export interface RequestLogEntry {
  organization_id: string;
  api_key_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  request_id: string;
  created_at: string;
}

export class RequestLog {
  private buffer: RequestLogEntry[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void,
    private readonly batchSize = 500,
    intervalMs = 1_000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(entry: RequestLogEntry): void {
    this.buffer.push(entry);
    if (this.buffer.length >= this.batchSize) void this.flush();
  }

  /** Writes what is buffered; resolves when every earlier flush has finished too. */
  flush(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.db.query(
          `INSERT INTO api.api_requests (organization_id, api_key_id, method, path, status, duration_ms, request_id, created_at)
           SELECT organization_id, api_key_id, method, path, status, duration_ms, request_id, created_at
           FROM jsonb_populate_recordset(NULL::api.api_requests, $1::jsonb)`,
          [JSON.stringify(batch)],
        );
      } catch (error) {
        this.onError(error);
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
