/**
 * Several statements in one round trip on a node-postgres connection: Parse/Bind/Describe/Execute for each and a
 * single Sync, written at once (the extended protocol's pipelining). node-postgres' own queries end with a Sync each
 * (one per round trip, or, with its `pipeline` option, one per query), so none of them hands back several results of
 * one Sync; a transaction's BEGIN, its deferred statements, its statement and its COMMIT (postgres-transaction.ts)
 * go through `runPipeline` instead: an API read costs one round trip, not four.
 *
 * The server runs a pipeline's statements in order and, on an error, skips the rest up to the Sync — a failed
 * statement never lets a later one run (outside BEGIN the statements up to the Sync are one implicit transaction, so
 * the earlier ones are undone too). `runPipeline` resolves with one result per statement, in the statements' order,
 * or rejects with the first error (`failedStatementOf` says whose); the connection is usable afterwards either way.
 *
 * This leans on node-postgres internals, not only on its documented surface; `pg` is therefore pinned to patch
 * releases (`~8.23.1` in package.json), and a new minor must pass test/db/postgres-pipeline.test.ts on PostgreSQL
 * before the range moves. What it relies on, and what breaks if that changes:
 * - `Client#query(submittable)`: an object with `submit(connection)` becomes the client's active query, and the
 *   client hands it the connection's messages (`handleRowDescription`, `handleDataRow`, `handleCommandComplete`,
 *   `handleEmptyQuery`, `handleError`, `handleReadyForQuery`, the copy and portal ones). This part is documented
 *   (pg-cursor is such a Submittable). Undocumented: after an ErrorResponse the client drops its active query, so
 *   `handleError` is the last call of a failed pipeline (no `handleReadyForQuery` follows), and a non-null return of
 *   `submit` is reported through `handleError` with the connection left usable. If that changed, a failed pipeline
 *   would settle twice or hang. The client's own `pipeline` option, which refuses custom Submittables, stays off.
 * - The client's `query_timeout`: it wraps the Submittable's `callback` to clear its timer, and times out with
 *   `handleError(new Error('Query read timeout'))` (postgres-unanswered.ts matches that text).
 * - pg's `Connection` (the `connection` passed to `submit`): `parse`, `bind`, `describe`, `execute`, `close`, `sync`
 *   and `sendCopyFail` write one message each through pg-protocol's serializer; `stream.cork`/`uncork` make them one
 *   write. Renamed or changed, nothing (or the wrong message) is sent and the pipeline hangs or fails.
 * - `pg.Result` (lib/result.js): `new Result(rowMode, types)`, `addFields`, `parseRow`, `addRow`,
 *   `addCommandComplete` build each result the way node-postgres' own Query does; @types/pg does not declare them.
 *   Changed, the first row throws (or rows come back unparsed).
 * - `pg/lib/utils.js`'s `prepareValue` (an exported path of the package): binds a value exactly as
 *   `client.query(text, values)` would (dates, arrays, buffers, JSON). Moved, this module fails to load.
 * - column-bytes.ts's reader in front of pg-protocol's parser (`columnBytesReaders`), for `QueryOptions.bytes`.
 *
 * With a statement cache (prepared-statements.ts), each statement is bound to its connection's name for its text
 * (parsed first when new), after the Close of names the cache let go; without one, the unnamed statement is parsed
 * each time.
 */
import { createRequire } from 'node:module';
import pg from 'pg';
import type { Row } from './types.js';
import { postgresTypes } from './postgres-type-parsers.js';
import { columnBytesReaders, type ColumnBytesReader } from './column-bytes.js';
import { isStaleStatementError, type NamedStatement, type PreparedStatementCache } from './prepared-statements.js';

// The driver's own conversion of parameter values (dates, arrays, buffers, JSON), so a pipelined statement binds
// exactly what `client.query(text, values)` would. `pg/lib/utils` is an exported path of the package.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

export interface PipelineStatement {
  text: string;
  values: readonly unknown[];
  /** Its rows are not wanted (BEGIN, COMMIT, deferred settings): not described, and its rows are skipped. */
  discard?: boolean;
  /** Columns whose values are kept as the bytes PostgreSQL sent (QueryOptions.bytes). */
  bytes?: readonly string[] | undefined;
}

/** What the driver hands a Submittable (pg's Connection; only the calls made here). */
interface Wire {
  stream: { cork?: () => void; uncork?: () => void };
  parse(message: { text: string; name?: string }): void;
  bind(message: { portal?: string; statement?: string; values: unknown[] }): void;
  describe(message: { type: 'P' | 'S'; name?: string }): void;
  close(message: { type: 'S'; name: string }): void;
  execute(message: { portal?: string; rows?: number }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

interface ResultMessage {
  fields: unknown[];
}

interface RowDescriptionMessage {
  fields: { name: string }[];
}

/** pg.Result's row-building calls, which @types/pg does not declare. */
interface RowBuilder extends pg.QueryResult {
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): Row;
  addRow(row: Row): void;
  addCommandComplete(message: unknown): void;
}

/** The result of a statement whose rows are not wanted. */
const DISCARDED = { rows: [], rowCount: 0 } as unknown as RowBuilder;

/** Which statement of a pipeline an error belongs to (kept beside the driver's error object, not on it). */
const failedStatement = new WeakMap<object, number>();

/** The index, in its pipeline, of the statement `error` (a rejection of `runPipeline`) belongs to. */
export function failedStatementOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? failedStatement.get(error) : undefined;
}

/** Each connection's named statements (for as long as the connection lives); set by the pool (postgres.ts). */
export const statementCaches = new WeakMap<pg.Client, PreparedStatementCache>();

/** One pipeline: the Submittable node-postgres runs as its active query (see the header for the calls it gets). */
class Pipeline {
  private readonly results: RowBuilder[] = [];
  private current: RowBuilder | undefined;
  private rowError: { error: unknown; index: number } | undefined;
  private bindFailure: number | undefined;
  /** Each statement's name, when sent through the cache. */
  private readonly named: (NamedStatement | undefined)[] = [];
  private reader: ColumnBytesReader | undefined;
  /** The current result's columns kept as bytes: index and name. */
  private byteColumns: { index: number; name: string }[] | undefined;
  /**
   * Set by node-postgres when it times the query (`query_timeout`): called once the pipeline is over, it clears
   * that timer — which would otherwise keep the pipeline, and so its results, alive until it fires.
   */
  callback: ((error?: Error) => void) | undefined;

  constructor(
    private readonly statements: readonly PipelineStatement[],
    private readonly cache: PreparedStatementCache | undefined,
    private readonly settle: (error: Error | undefined, index: number, results: RowBuilder[]) => void,
  ) {}

  submit(connection: Wire): Error | null {
    const bound: unknown[][] = [];
    for (const [index, statement] of this.statements.entries()) {
      try {
        bound.push(statement.values.map(prepareValue));
      } catch (error) {
        // Returned, not thrown: the client then reports it through handleError and stays usable.
        this.bindFailure = index;
        return error instanceof Error ? error : new Error(String(error));
      }
    }
    this.reader = columnBytesReaders.get(connection);
    connection.stream.cork?.();
    try {
      for (const name of this.cache?.takeClosing() ?? []) connection.close({ type: 'S', name });
      for (const [index, statement] of this.statements.entries()) {
        const named = this.cache?.name(statement.text);
        this.named.push(named);
        if (named === undefined) {
          connection.parse({ text: statement.text });
          connection.bind({ values: bound[index]! });
        } else {
          if (named.parse) connection.parse({ text: statement.text, name: named.name });
          connection.bind({ statement: named.name, values: bound[index]! });
        }
        // Without Describe the server sends no row description, and the rows are dropped unparsed.
        if (!statement.discard) connection.describe({ type: 'P' });
        connection.execute({ rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  private result(): RowBuilder {
    // Rows as objects (any rowMode but 'array'), converted by this pool's type parsers like every other query.
    this.current ??= new pg.Result('object', postgresTypes as unknown as typeof pg.types) as unknown as RowBuilder;
    return this.current;
  }

  handleRowDescription(message: RowDescriptionMessage): void {
    this.result().addFields(message.fields);
    const bytes = this.statements[this.results.length]?.bytes;
    if (bytes === undefined || this.reader === undefined) return;
    const columns = message.fields.flatMap(({ name }, index) => (bytes.includes(name) ? [{ index, name }] : []));
    if (columns.length === 0) return;
    this.byteColumns = columns;
    this.reader.columns = new Set(columns.map(({ index }) => index));
  }

  /** The result is over: the reader decodes every value again. */
  private endBytes(): void {
    if (this.byteColumns === undefined) return;
    this.byteColumns = undefined;
    if (this.reader) this.reader.columns = undefined;
  }

  handleDataRow(message: ResultMessage): void {
    if (this.rowError !== undefined || this.statements[this.results.length]?.discard) return;
    const result = this.result();
    try {
      if (this.byteColumns === undefined) {
        result.addRow(result.parseRow(message.fields));
        return;
      }
      // The byte columns bypass the type parsers (which would make strings of them); the others go through them.
      const fields = [...message.fields];
      for (const { index } of this.byteColumns) fields[index] = null;
      const row = result.parseRow(fields);
      for (const { index, name } of this.byteColumns) row[name] = message.fields[index];
      result.addRow(row);
    } catch (error) {
      // Like pg's Query: keep reading the answer, report the error once the server is ready again.
      this.rowError = { error, index: this.results.length };
    }
  }

  handleCommandComplete(message: unknown): void {
    this.endBytes();
    if (this.statements[this.results.length]?.discard) {
      this.results.push(DISCARDED);
      return;
    }
    const result = this.result();
    result.addCommandComplete(message);
    this.results.push(result);
    this.current = undefined;
  }

  handleEmptyQuery(): void {
    this.endBytes();
    this.results.push(this.result());
    this.current = undefined;
  }

  handleError(error: Error): void {
    this.endBytes();
    const index = this.bindFailure ?? this.results.length;
    this.forgetUnparsed(index, error);
    this.settle(error, index, this.results);
    this.callback?.(error);
  }

  handleReadyForQuery(): void {
    this.callback?.();
    if (this.rowError !== undefined) {
      const { error, index } = this.rowError;
      this.settle(error instanceof Error ? error : new Error(String(error)), index, this.results);
      return;
    }
    this.settle(undefined, this.results.length, this.results);
  }

  /**
   * After an error at `failed`, the server holds no statement for the names this pipeline parsed from there on
   * (the failed one's parse may itself have failed; the later ones were skipped), nor a usable one for a cached
   * statement that went stale: the cache forgets them, and closes the names in case the server holds them.
   */
  private forgetUnparsed(failed: number, error: Error): void {
    if (this.cache === undefined) return;
    for (let index = failed; index < this.named.length; index += 1) {
      const named = this.named[index]!;
      if (named.parse || (index === failed && isStaleStatementError(error))) this.cache.forget(this.statements[index]!.text, named.name);
    }
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: Wire): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}
}

/** Runs `statements` in one round trip on `client`: one result per statement, in order (see the header). */
export function runPipeline(client: pg.Client, statements: readonly PipelineStatement[]): Promise<pg.QueryResult[]> {
  return new Promise((resolve, reject) => {
    const pipeline = new Pipeline(statements, statementCaches.get(client), (error, index, results) => {
      if (!error) return resolve(results);
      failedStatement.set(error, index);
      // As node-postgres does for its own queries: a stack that leads back here rather than to the socket.
      Error.captureStackTrace(error);
      reject(error);
    });
    client.query(pipeline as unknown as pg.Submittable);
  });
}
