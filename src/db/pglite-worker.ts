/**
 * The worker thread that owns the embedded database (started by src/db/pglite-thread.ts). PGlite runs Postgres in
 * WASM synchronously: here a long statement blocks this thread only, not the HTTP server, and the main thread can
 * cancel it by terminating the thread.
 *
 * It answers one request at a time, in order. PGlite has no timer signal, so Postgres never cancels a statement
 * itself: the session's `statement_timeout` is tracked here, and every statement that starts while one is in force
 * is announced to the main thread, which times it.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { INT8_OID, TEXT_TYPE_OIDS, identity, toNumber } from './type-parsers.js';
import { OwnerOnlyNodeFS } from './pglite-owner-only-fs.js';
import {
  rolledBackError,
  serializeError,
  type Statement,
  type WorkerMessage,
  type WorkerOptions,
  type WorkerRequest,
  type WorkerStarted,
} from './pglite-protocol.js';
import type { QueryResult, Row } from './types.js';

const parsers: Record<number, (value: string) => unknown> = { [INT8_OID]: toNumber };
for (const oid of Object.values(TEXT_TYPE_OIDS)) parsers[oid] = identity;

/**
 * Postgres settings for one embedded session, on top of PGlite's own (`PGlite.defaultStartParams`), given on the
 * command line so the data folder's postgresql.conf stays as initdb wrote it. PGlite allocates Postgres' shared
 * memory inside its WebAssembly memory and zeroes it, so all of it is resident from the start: at the default 128 MB
 * buffer pool that was 120 MB of the process's memory for a database that is mostly far smaller. Pages beyond the
 * pool are read from the data files, i.e. from the kernel's page cache, which is not the process's memory.
 * One session needs no room for a hundred connections' locks and process slots either.
 */
const EMBEDDED_SETTINGS: Record<string, string> = {
  shared_buffers: '16MB',
  max_connections: '5',
};
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
];

async function open({ dataDir, image }: WorkerOptions): Promise<PGlite> {
  const fs = dataDir === undefined ? undefined : new OwnerOnlyNodeFS(dataDir);
  const loadDataDir = dataDir === undefined && image !== undefined ? new Blob([image]) : undefined;
  // The settings apply to the first start's initdb run too (PGlite runs it with the same options).
  const pg = await PGlite.create({ fs, loadDataDir, extensions: { btree_gist }, parsers, startParams: START_PARAMS });
  await pg.exec(`SET TimeZone = 'UTC'`);
  return pg;
}

/** Milliseconds per unit of a time setting as Postgres shows it ('0', '300ms', '10s', '5min', '1h', '1d'). */
const UNIT_MS: Record<string, number> = { '': 1, ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 };

const MENTIONS_TIMEOUT = /statement_timeout/i;

function mentionsTimeout(statement: Statement): boolean {
  if ('sql' in statement) return MENTIONS_TIMEOUT.test(statement.sql);
  return MENTIONS_TIMEOUT.test(statement.text) || statement.values.some((value) => typeof value === 'string' && MENTIONS_TIMEOUT.test(value));
}

/** An error and the index of the statement of its request that failed. */
class StatementFailure {
  constructor(
    readonly error: unknown,
    readonly index: number,
  ) {}
}

/** The session: runs requests and keeps track of the statement timeout in force. */
class Session {
  private timeoutMs = 0;
  /** A statement of the open transaction may have changed the timeout, which its end may undo. */
  private changedInTransaction = false;

  constructor(
    private readonly pg: PGlite,
    private readonly port: MessagePort,
  ) {}

  async run(request: WorkerRequest & { op: 'run' }): Promise<QueryResult<Row> | undefined> {
    if (request.begin) {
      await this.pg.exec('BEGIN');
      this.changedInTransaction = false;
    }
    let result: QueryResult<Row> | undefined;
    for (const [index, statement] of request.statements.entries()) {
      try {
        result = await this.statement(statement);
      } catch (error) {
        throw new StatementFailure(error, index);
      }
    }
    if (request.commit) {
      try {
        await this.end('COMMIT');
      } catch (error) {
        throw new StatementFailure(error, request.statements.length);
      }
    }
    return result;
  }

  /** COMMIT or ROLLBACK. */
  async end(command: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    this.announce();
    try {
      const [result] = await this.pg.exec(command);
      // COMMIT of a transaction that failed answers ROLLBACK; say so, as PGlite's own transaction() does.
      if (command === 'COMMIT' && result?.command === 'ROLLBACK') throw rolledBackError();
    } finally {
      // SET LOCAL and set_config(…, true) end with the transaction, a SET is undone by ROLLBACK.
      if (this.changedInTransaction) {
        this.changedInTransaction = false;
        await this.readTimeout();
      }
    }
  }

  private async statement(statement: Statement): Promise<QueryResult<Row> | undefined> {
    this.announce();
    let result: QueryResult<Row> | undefined;
    if ('sql' in statement) {
      await this.pg.exec(statement.sql);
    } else {
      const { rows, affectedRows } = await this.pg.query<Row>(statement.text, [...statement.values]);
      result = { rows, rowCount: affectedRows ?? rows.length };
    }
    // Only a statement that names the setting (SET, set_config) can change it.
    if (mentionsTimeout(statement)) {
      this.changedInTransaction = true;
      await this.readTimeout();
    }
    return result;
  }

  /** `current_setting` through `exec`: one simple-protocol message, half the cost of a `query` (pg_settings: more). */
  private async readTimeout(): Promise<void> {
    const [result] = await this.pg.exec(`SELECT current_setting('statement_timeout') AS value`);
    const value = (result?.rows[0] as { value?: string } | undefined)?.value ?? '';
    const [, amount, unit] = /^(\d+)([a-z]*)$/.exec(value) ?? [];
    this.timeoutMs = Number(amount ?? 0) * (UNIT_MS[unit ?? ''] ?? 0);
  }

  private announce(): void {
    if (this.timeoutMs > 0) this.port.postMessage({ type: 'started', timeoutMs: this.timeoutMs } satisfies WorkerMessage);
  }
}

async function answer(pg: PGlite, session: Session, request: WorkerRequest): Promise<WorkerMessage> {
  try {
    let result: QueryResult<Row> | undefined;
    if (request.op === 'run') result = await session.run(request);
    else if (request.op === 'rollback') await session.end('ROLLBACK');
    else await pg.close();
    return { type: 'reply', ok: true, result };
  } catch (failure) {
    const [error, failedAt] = failure instanceof StatementFailure ? [failure.error, failure.index] : [failure, 0];
    return { type: 'reply', ok: false, error: serializeError(error), failedAt };
  }
}

const port = parentPort;
if (!port) throw new Error('src/db/pglite-worker.ts runs as a worker thread (src/db/pglite-thread.ts starts it)');

try {
  const pg = await open(workerData as WorkerOptions);
  const session = new Session(pg, port);
  port.on('message', (request: WorkerRequest) => {
    void answer(pg, session, request).then((reply) => {
      try {
        port.postMessage(reply);
      } catch (error) {
        // A value that cannot be copied to the main thread fails its request, not the thread.
        port.postMessage({ type: 'reply', ok: false, error: serializeError(error), failedAt: 0 } satisfies WorkerMessage);
      }
      if (request.op === 'close') port.close();
    });
  });
  port.postMessage({ ready: true } satisfies WorkerStarted);
} catch (error) {
  port.postMessage({ ready: false, error: serializeError(error) } satisfies WorkerStarted);
}
