import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import type { Database, QueryResult, Queryable, Row, Transaction } from './types.js';
import { INT8_OID, TEXT_TYPE_OIDS, identity, toNumber } from './type-parsers.js';

interface PGliteQueryable {
  query<R>(text: string, values?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

const parsers: Record<number, (value: string) => unknown> = { [INT8_OID]: toNumber };
for (const oid of Object.values(TEXT_TYPE_OIDS)) parsers[oid] = identity;

function wrap(target: PGliteQueryable, notify: (text: string) => void): Queryable {
  return {
    async query<R = Row>(text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
      notify(text);
      const result = await target.query<R>(text, [...values]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      notify(sql);
      await target.exec(sql);
    },
  };
}

/**
 * Embedded Postgres (WASM). `dataDir` undefined keeps everything in memory (tests). One connection only, so
 * PGlite serialises transactions itself.
 */
export async function openPGlite(dataDir: string | undefined): Promise<Database> {
  const pg = await PGlite.create({ dataDir, extensions: { btree_gist }, parsers });
  await pg.exec(`SET TimeZone = 'UTC'`);
  const db: Database = {
    backend: 'pglite',
    onStatement: undefined,
    ...wrap(pg, (text) => db.onStatement?.(text)),
    transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      return pg.transaction((tx) => fn(wrap(tx, (text) => db.onStatement?.(text))));
    },
    close: () => pg.close(),
  };
  return db;
}
