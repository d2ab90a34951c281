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

export interface Queryable {
  /** One statement, values bound as parameters ($1, $2, …). */
  query<R = Row>(text: string, values?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Several statements without parameters (migrations, scripts). */
  exec(sql: string): Promise<void>;
}

export type Transaction = Queryable;

export type Backend = 'pglite' | 'postgres';

export interface Database extends Queryable {
  readonly backend: Backend;
  /** Runs `fn` in BEGIN … COMMIT on one connection; any throw rolls back. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Connection pool counts, for metrics (PostgreSQL only; PGlite has one connection). */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
  /** Called with the text of every statement sent; used by tests and metrics. */
  onStatement?: ((text: string) => void) | undefined;
}
