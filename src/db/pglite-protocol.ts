/**
 * The messages between the embedded database's proxy on the main thread (src/db/pglite-thread.ts) and the worker
 * thread that owns PGlite (src/db/pglite-worker.ts), and the errors that cross between them. Everything sent is
 * structured-cloned, so errors travel as plain fields and are rebuilt on arrival.
 */
import type { QueryResult, Row } from './types.js';

/** One statement: with parameters (extended protocol), or `sql` alone (simple protocol, several statements). */
export type Statement = { text: string; values: readonly unknown[] } | { sql: string };

/**
 * `run`: the statements in order, answered with the last one's result. `begin` sends BEGIN first and `commit` COMMIT
 * last, in the same message: a transaction's settings, statement and COMMIT cost one trip to the thread.
 */
export type WorkerRequest =
  | { op: 'run'; statements: readonly Statement[]; begin?: boolean; commit?: boolean }
  | { op: 'rollback' }
  | { op: 'close' };

/**
 * `started`: a statement (or COMMIT, ROLLBACK) begins under a statement timeout; the main thread times it from
 * here. `reply`: the request is done; on failure `failedAt` is the index of the failed statement (the number of
 * statements for COMMIT).
 */
export type WorkerMessage =
  | { type: 'started'; timeoutMs: number }
  | { type: 'reply'; ok: true; result: QueryResult<Row> | undefined }
  | { type: 'reply'; ok: false; error: SerializedError; failedAt: number };

/** The first message of a worker: PGlite is open, or why it could not be opened. */
export type WorkerStarted = { ready: true } | { ready: false; error: SerializedError };

export interface WorkerOptions {
  /** PGlite's data folder; undefined keeps the database in the worker's memory. */
  dataDir: string | undefined;
  /**
   * In memory only: the database starts as this image — an uncompressed tar of a data folder, as PGlite's
   * `dumpDataDir('none')` writes it — instead of an empty cluster made by initdb.
   */
  image?: Uint8Array<ArrayBuffer> | undefined;
}

/** An error's message and its primitive fields (PostgreSQL's code, detail, hint, position, …). */
export interface SerializedError {
  name: string;
  message: string;
  fields: Record<string, string | number | boolean>;
}

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: SerializedError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

export function deserializeError(serialized: SerializedError): Error {
  const error = Object.assign(new Error(serialized.message), serialized.fields);
  error.name = serialized.name;
  return error;
}

/** An error as PostgreSQL reports it, so src/errors/database-error.ts maps it as it maps the server's. */
function databaseError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

/** The statement ran past the statement timeout and was cancelled (a 504, as on PostgreSQL). */
export const statementTimeoutError = () => databaseError('57014', 'canceling statement due to statement timeout');

/** A statement of a transaction whose earlier statement was cancelled. */
export const abortedTransactionError = () =>
  databaseError('25P02', 'current transaction is aborted, commands ignored until end of transaction block');

/** The database thread is gone (cancelled, crashed or closed): a connection failure (503, retried by clients). */
export const connectionLostError = (why: string) => databaseError('08006', `the embedded database connection was lost: ${why}`);

/** COMMIT of a transaction that had already failed: PGlite reports the rollback instead of succeeding silently. */
export const rolledBackError = () => databaseError('25P02', 'Transaction was rolled back instead of committed');

/** A request with a value that cannot be copied to the worker thread (a function, a symbol): it never left. */
export class UnsendableRequestError extends Error {
  constructor(cause: unknown) {
    super(`a value cannot be sent to the database thread: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Which statement of a `run` request an error belongs to (kept beside the error, not on it). */
export const failedStatement = new WeakMap<object, number>();

export const isStatementTimeout = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '57014';
