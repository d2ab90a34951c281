/**
 * The PostgreSQL backend's value parsers, in node-postgres' shape: the shared rules of `type-parsers.ts` (dates and
 * times as the text PostgreSQL printed, 64-bit integers as numbers), node-postgres' own parsers for everything else.
 * One object for the pool's plain queries (postgres.ts) and the pipeline's results (postgres-pipeline.ts), so a value
 * reads the same whichever path its statement took. Apart from `type-parsers.ts` because the worker thread of the
 * embedded database uses that one and must not load `pg`.
 */
import pg from 'pg';
import { INT8_OID, TEXT_TYPE_OIDS, identity, toNumber } from './type-parsers.js';

const textOids = new Set<number>(Object.values(TEXT_TYPE_OIDS));

export const postgresTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (textOids.has(oid)) return identity;
    if (oid === INT8_OID) return toNumber;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;
