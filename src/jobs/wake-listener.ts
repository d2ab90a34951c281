/**
 * Wake-ups across processes: a dedicated PostgreSQL connection LISTENs on the workers' channels and calls the
 * channel's handler on each NOTIFY (sent by triggers in the transaction that made the work, so the rows are
 * visible when it arrives). The connection is outside any pool, since LISTEN holds its session for good.
 *
 * If the connection drops it is opened again, with a growing delay; once it is back every handler is called once,
 * since notifications sent while it was down are lost. Polling stays the safety net either way: a worker still
 * looks at its poll interval, and due times (retries) are found that way, not by NOTIFY.
 */
import pg from 'pg';
import type { WorkerLogger } from '../observability/worker-logger.js';

export interface WakeListenerOptions {
  connectionString: string;
  /** Channel name → what to do when it is notified. Names are SQL identifiers (lower-case letters and `_`). */
  channels: Record<string, () => void>;
  logger: WorkerLogger;
  /** First delay before reconnecting (ms); doubles up to `maxReconnectDelayMs`. Default 100. */
  reconnectDelayMs?: number;
  /** Default 10 000. */
  maxReconnectDelayMs?: number;
}

export interface WakeListener {
  /** Resolves once LISTEN is in place (the first time). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

export function listenForWakes(options: WakeListenerOptions): WakeListener {
  const { channels, logger } = options;
  const names = Object.keys(channels);
  const bad = names.find((name) => !CHANNEL_NAME.test(name));
  if (bad !== undefined) throw new Error(`not a channel name: ${bad}`);
  const firstDelay = options.reconnectDelayMs ?? 100;
  const maxDelay = options.maxReconnectDelayMs ?? 10_000;

  let client: pg.Client | undefined;
  let closed = false;
  let delay = firstDelay;
  let retry: NodeJS.Timeout | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const wakeAll = () => {
    for (const handler of Object.values(channels)) handler();
  };

  const lost = (connection: pg.Client, error: unknown) => {
    if (client !== connection) return; // already handled (an error is usually followed by 'end')
    client = undefined;
    connection.removeAllListeners();
    connection.on('error', () => undefined);
    void connection.end().catch(() => undefined);
    if (closed) return;
    logger.warn({ err: error, retry_in_ms: delay }, 'wake-up connection lost; reconnecting (workers poll meanwhile)');
    retry = setTimeout(connect, delay);
    delay = Math.min(delay * 2, maxDelay);
  };

  async function connect(): Promise<void> {
    retry = undefined;
    if (closed) return;
    const connection = new pg.Client({ connectionString: options.connectionString, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client = connection;
    connection.on('error', (error) => lost(connection, error));
    connection.on('end', () => lost(connection, new Error('connection ended')));
    connection.on('notification', (message) => channels[message.channel]?.());
    try {
      await connection.connect();
      for (const name of names) await connection.query(`LISTEN ${name}`);
    } catch (error) {
      lost(connection, error);
      return;
    }
    if (closed || client !== connection) return;
    delay = firstDelay;
    logger.info({ channels: names }, 'listening for wake-ups');
    markReady();
    wakeAll(); // whatever was notified while no one listened
  }

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const connection = client;
      client = undefined;
      if (connection) {
        connection.removeAllListeners();
        connection.on('error', () => undefined);
        await connection.end().catch(() => undefined);
      }
    },
  };
}
