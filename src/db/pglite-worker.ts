/**
 * The worker thread that owns the embedded database (started by src/db/pglite-thread.ts). PGlite runs Postgres in
 * WASM synchronously: here a long statement blocks this thread only, not the HTTP server, and the main thread can
 * cancel it by terminating the thread.
 *
 * It answers one request at a time, in order. With each answer it reports the session's `statement_timeout` when it
 * may have changed, so the main thread can enforce it: PGlite has no timer signal, so Postgres never cancels a
 * statement itself.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { INT8_OID, TEXT_TYPE_OIDS, identity, toNumber } from './type-parsers.js';
import { OwnerOnlyNodeFS } from './pglite-owner-only-fs.js';
import {
  rolledBackError,
  serializeError,
  type WorkerOptions,
  type WorkerReply,
  type WorkerRequest,
  type WorkerStarted,
} from './pglite-protocol.js';
import type { QueryResult, Row } from './types.js';

const parsers: Record<number, (value: string) => unknown> = { [INT8_OID]: toNumber };
for (const oid of Object.values(TEXT_TYPE_OIDS)) parsers[oid] = identity;

async function open({ dataDir }: WorkerOptions): Promise<PGlite> {
  const fs = dataDir === undefined ? undefined : new OwnerOnlyNodeFS(dataDir);
  const pg = await PGlite.create({ fs, extensions: { btree_gist }, parsers });
  await pg.exec(`SET TimeZone = 'UTC'`);
  return pg;
}

async function run(pg: PGlite, request: WorkerRequest): Promise<QueryResult<Row> | undefined> {
  if ((request.op === 'query' || request.op === 'exec') && request.begin) await pg.exec('BEGIN');
  switch (request.op) {
    case 'query': {
      const result = await pg.query<Row>(request.text, [...request.values]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    case 'exec':
      await pg.exec(request.sql);
      return undefined;
    case 'commit': {
      // COMMIT of a transaction that failed answers ROLLBACK; say so, as PGlite's own transaction() does.
      const [result] = await pg.exec('COMMIT');
      if (result?.command === 'ROLLBACK') throw rolledBackError();
      return undefined;
    }
    case 'rollback':
      await pg.exec('ROLLBACK');
      return undefined;
    case 'close':
      await pg.close();
      return undefined;
  }
}

const MENTIONS_TIMEOUT = /statement_timeout/i;

/**
 * Whether `request` may have changed `statement_timeout`: a statement naming it (SET, set_config) that succeeded,
 * or the end of a transaction in which one did (SET LOCAL and set_config(…, true) end with it, a SET is undone by
 * ROLLBACK).
 */
class TimeoutWatch {
  private changedInTransaction = false;

  mayHaveChanged(request: WorkerRequest, succeeded: boolean): boolean {
    switch (request.op) {
      case 'commit':
      case 'rollback': {
        const changed = this.changedInTransaction;
        this.changedInTransaction = false;
        return changed;
      }
      case 'query':
      case 'exec': {
        if (request.begin) this.changedInTransaction = false;
        const text = request.op === 'query' ? request.text : request.sql;
        const values = request.op === 'query' ? request.values : [];
        const named = MENTIONS_TIMEOUT.test(text) || values.some((value) => typeof value === 'string' && MENTIONS_TIMEOUT.test(value));
        if (named && succeeded) this.changedInTransaction = true;
        return named && succeeded;
      }
      case 'close':
        return false;
    }
  }
}

/** Milliseconds per unit of a time setting as Postgres shows it ('0', '300ms', '10s', '5min', '1h', '1d'). */
const UNIT_MS: Record<string, number> = { '': 1, ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** `current_setting` rather than `pg_settings`: the view builds every setting's row, several times slower here. */
async function statementTimeoutMs(pg: PGlite): Promise<number> {
  const { rows } = await pg.query<{ value: string }>(`SELECT current_setting('statement_timeout') AS value`);
  const [, amount, unit] = /^(\d+)([a-z]*)$/.exec(rows[0]?.value ?? '') ?? [];
  return Number(amount ?? 0) * (UNIT_MS[unit ?? ''] ?? 0);
}

async function answer(pg: PGlite, watch: TimeoutWatch, request: WorkerRequest): Promise<WorkerReply> {
  try {
    const result = await run(pg, request);
    const timeout = watch.mayHaveChanged(request, true) ? await statementTimeoutMs(pg) : undefined;
    return { ok: true, result, statementTimeoutMs: timeout };
  } catch (error) {
    const timeout = watch.mayHaveChanged(request, false) ? await statementTimeoutMs(pg) : undefined;
    return { ok: false, error: serializeError(error), statementTimeoutMs: timeout };
  }
}

const port = parentPort;
if (!port) throw new Error('src/db/pglite-worker.ts runs as a worker thread (src/db/pglite-thread.ts starts it)');

try {
  const pg = await open(workerData as WorkerOptions);
  const watch = new TimeoutWatch();
  port.on('message', (request: WorkerRequest) => {
    void answer(pg, watch, request).then((reply) => {
      try {
        port.postMessage(reply);
      } catch (error) {
        // A value that cannot be copied to the main thread fails its statement, not the thread.
        port.postMessage({ ok: false, error: serializeError(error), statementTimeoutMs: reply.statementTimeoutMs } satisfies WorkerReply);
      }
      if (request.op === 'close') port.close();
    });
  });
  port.postMessage({ ready: true } satisfies WorkerStarted);
} catch (error) {
  port.postMessage({ ready: false, error: serializeError(error) } satisfies WorkerStarted);
}
