import pg from 'pg';
import type { Database, QueryResult, Queryable, Row, Transaction } from './types.js';
import { INT8_OID, TEXT_TYPE_OIDS, identity, toNumber } from './type-parsers.js';

const textOids = new Set<number>(Object.values(TEXT_TYPE_OIDS));

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (textOids.has(oid)) return identity;
    if (oid === INT8_OID) return toNumber;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<pg.QueryResult>;
}

function wrap(target: PgQueryable, notify: (text: string) => void): Queryable {
  return {
    async query<R = Row>(text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
      notify(text);
      const result = await target.query(text, [...values]);
      return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      notify(sql);
      await target.query(sql);
    },
  };
}

export interface PostgresOptions {
  connectionString: string;
  maxConnections?: number;
  connectionTimeoutMs?: number;
}

/** A pooled connection to a PostgreSQL server (DATABASE_URL). Every session runs in UTC. */
export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    types,
    options: '-c TimeZone=UTC',
    // Waiting for a connection (server down, or pool exhausted) ends in an error instead of a hang: the API answers 503.
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
  });
  // An idle client losing its server (restart, network) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db: Database = {
    backend: 'postgres',
    onStatement: undefined,
    ...wrap(pool, (text) => db.onStatement?.(text)),
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // The pool listens for errors of idle clients only: a connection lost while checked out would otherwise
      // be an unhandled 'error' event that kills the process. The next query on it fails and is answered instead.
      let lost: Error | undefined;
      const onError = (error: Error) => {
        lost = error;
      };
      client.on('error', onError);
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client, (text) => db.onStatement?.(text)));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        broken = await client.query('ROLLBACK').then(() => undefined, (rollbackError: unknown) => rollbackError);
        throw error;
      } finally {
        client.off('error', onError);
        // A lost connection, or one whose ROLLBACK failed, is in an unknown state: destroy it instead of pooling it.
        const discard = lost ?? (broken instanceof Error ? broken : undefined);
        client.release(discard);
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: options.maxConnections ?? 10 }),
    close: () => pool.end(),
  };
  return db;
}
