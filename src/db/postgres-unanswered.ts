/**
 * A statement PostgreSQL did not answer in time (node-postgres' `query_timeout`, set by postgres.ts above the
 * statement timeout) becomes a lost connection for the rest of the code: the API answers it 503 like any other loss
 * of the database, and a transaction drops the connection (postgres-transaction.ts), whose answer may still arrive.
 */

/** node-postgres' error when `query_timeout` passed without an answer from the server (matched by its text). */
export function isUnanswered(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}

/**
 * What a query the server did not answer in time rejects with: a connection error (`ETIMEDOUT`), which the API
 * answers 503 like any other loss of the database. With `query_timeout` above the statement timeout, a server that
 * is reachable has always answered (at worst with its own timeout error) by then: the network or the server stalled.
 */
export function unanswered(cause: unknown): Error {
  return Object.assign(new Error('PostgreSQL did not answer in time (the network or the server stalled)', { cause }), { code: 'ETIMEDOUT' });
}

export function rethrow(error: unknown): never {
  throw isUnanswered(error) ? unanswered(error) : error;
}
