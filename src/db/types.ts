/**
 * The one small interface both database backends implement. Everything above `src/db` talks to this,
 * never to PGlite or `pg` directly, so the same SQL runs on the embedded and the server backend.
 */
export type Row = Record<string, unknown>;

export interface QueryResult<R = Row> {
  rows: R[];
  /** Rows affected by INSERT/UPDATE/DELETE, or returned by SELECT. */
  rowCount: number;
}

export interface QueryOptions {
  /**
   * Columns of text whose values come back as the bytes PostgreSQL sent (a Buffer of UTF-8), not decoded into a
   * string: a large value built by PostgreSQL — a response body — goes out without being decoded and encoded again.
   * Kept by PostgreSQL transactions (and, behind a pooler, `Database.query`); elsewhere — PGlite, a direct pool's
   * `Database.query` — the values are strings, so a reader of such a column takes both.
   */
  bytes?: readonly string[];
  /**
   * Plan this statement once per connection and reuse that plan (PostgreSQL's generic plan of its named statement)
   * instead of planning it for each execution's values. Only for a statement whose best plan does not depend on its
   * values: a generic plan is made without them. Honoured by PostgreSQL transactions with named statements (and,
   * behind a pooler with named statements, `Database.query`), for this statement alone: the ones after it are planned
   * per execution again, in the same round trip (src/db/postgres-transaction.ts). Elsewhere — PGlite, connections
   * without named statements, a direct pool's `Database.query` — every statement is parsed and planned afresh anyway,
   * and the option changes nothing: a generic plan there would be made for one execution, without the values.
   */
  reusePlan?: boolean;
}

export interface Queryable {
  /** One statement, values bound as parameters ($1, $2, …). */
  query<R = Row>(text: string, values?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<R>>;
  /** Several statements without parameters (migrations, scripts). */
  exec(sql: string): Promise<void>;
}

/**
 * Statements on one connection between BEGIN and COMMIT. Besides running statements, a transaction may save round
 * trips; both backends' transactions can (see `PipelinedTransaction`), while a plain `Queryable` handed to the
 * engine — a test's recorder — cannot, so the members below are optional and used when present.
 *
 * Savepoints need nothing of their own: `SAVEPOINT`, `RELEASE` and `ROLLBACK TO` are plain statements.
 */
export interface Transaction extends Queryable {
  /**
   * Runs `text` (one statement) right before the next statement of this transaction, in the same round trip. Its
   * result is not returned; if it fails, that next statement is not run and rejects with its error, which
   * `failure()` returns from then on.
   */
  defer?(text: string, values?: readonly unknown[]): void;
  /**
   * Runs `text` (one statement) as the last statement of the transaction and commits in the same round trip. The
   * transaction is over once it resolves: a rollback has nothing left to undo, and further statements reject. If
   * COMMIT fails, the statement rejects with that error, which `failure()` returns from then on.
   */
  queryAndCommit?<R = Row>(text: string, values?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<R>>;
  /**
   * The error of a statement sent on the caller's behalf (deferred, or the COMMIT of `queryAndCommit`): it
   * belongs to the transaction, not to the statement that rejected with it.
   */
  failure?(): unknown;
}

/**
 * A transaction with every capability: what `Database.transaction` hands out on both backends. `BEGIN` is not sent
 * on its own but with the first statement, together with deferred ones, and `queryAndCommit` sends COMMIT with the
 * last: an API read costs one round trip instead of four. A transaction that sends no statement sends nothing.
 */
export type PipelinedTransaction = Required<Transaction>;

export type Backend = 'pglite' | 'postgres';

export interface Database extends Queryable {
  readonly backend: Backend;
  /** Runs `fn` in BEGIN … COMMIT on one connection; any throw rolls back. */
  transaction<T>(fn: (tx: PipelinedTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Connection pool counts, for metrics (PostgreSQL only; PGlite has one connection). */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
  /**
   * Named-statement counters over the pool's connections (PostgreSQL only): statements bound to a name parsed
   * before on their connection (`hits`), parsed under a new name (`parses`), names closed (`closed`).
   */
  preparedStatementStats?: () => { hits: number; parses: number; closed: number };
  /**
   * Embedded with a data folder only: runs `copy` while the folder's files are at rest and complete — after a
   * CHECKPOINT, holding the one connection so that no statement runs — so what it copies is the database as of that
   * moment, never a file mid-write (src/backup/embedded-files.ts).
   */
  whileFilesAtRest?<T>(copy: (dataDir: string) => Promise<T>): Promise<T>;
  /** Called with the text of every statement sent; used by tests and metrics. */
  onStatement?: ((text: string) => void) | undefined;
}
