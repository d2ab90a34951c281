/**
 * The request transaction on both backends, and its round trips on PostgreSQL: the session setup travels with
 * BEGIN and the first statement, a read's COMMIT with its statement — with the same outcomes as one statement per
 * round trip, including when a setup statement or the COMMIT fails.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, type TestOrganization } from '../support/app.js';
import { Authenticator } from '../../src/auth/authenticate.js';
import type { Principal } from '../../src/auth/principal.js';
import type { Transaction } from '../../src/db/types.js';
import { inRequestTransaction } from '../../src/transaction/request-transaction.js';
import { inTenantTransaction } from '../../src/transaction/tenant-transaction.js';
import { runRequest } from '../../src/query/run.js';
import type { EngineOptions } from '../../src/query/plan/types.js';
import type { EngineRequest } from '../../src/query/parse/request.js';
import { type EngineResponse } from '../../src/query/response.js';
import { loadSchemaCache } from '../../src/schema/load.js';
import { type SchemaCache } from '../../src/schema/types.js';

/** Runs `fn` counting what node-postgres sends: one `Client#query` is one round trip. */
async function countRoundTrips<T>(fn: () => Promise<T>): Promise<{ result: T; trips: number }> {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  let trips = 0;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    trips++;
    return original.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, trips };
  } finally {
    prototype.query = original;
  }
}

const setSetting = async (tx: Transaction) => {
  await tx.query(`SELECT set_config('staykit.request_test', $1, true)`, ['from prepare']);
};

forEachBackend('request transaction', (ctx) => {
  before(async () => {
    await ctx.db.exec(`
      CREATE TABLE public.rt_items (v int NOT NULL);
      CREATE TABLE public.rt_parent (id int PRIMARY KEY);
      CREATE TABLE public.rt_child (parent int REFERENCES public.rt_parent DEFERRABLE INITIALLY DEFERRED);
    `);
  });

  it('applies the settings of prepare to the first statement of work, and to that transaction only', async () => {
    const seen = await inRequestTransaction(ctx.db, setSetting, async (tx) => {
      const { rows } = await tx.query<{ v: string }>(`SELECT current_setting('staykit.request_test', true) || $1 AS v`, ['!']);
      return { result: rows[0]!.v, rollback: false };
    });
    assert.equal(seen, 'from prepare!');
    const { rows } = await ctx.db.query<{ v: string | null }>(`SELECT nullif(current_setting('staykit.request_test', true), '') AS v`);
    assert.equal(rows[0]!.v, null);
  });

  it('fails with the error of a failed prepare statement, even when work swallowed it', async () => {
    const prepare = async (tx: Transaction) => {
      await tx.query(`SELECT set_config('role', $1, true)`, ['rt_no_such_role']);
    };
    await assert.rejects(
      inRequestTransaction(ctx.db, prepare, async (tx) => {
        try {
          await tx.query('INSERT INTO public.rt_items (v) VALUES ($1)', [1]);
        } catch {
          return { result: 'swallowed', rollback: false };
        }
        return { result: 'ran', rollback: false };
      }),
      /role "rt_no_such_role" does not exist/,
    );
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM public.rt_items');
    assert.equal(rows[0]!.n, 0);
  });

  it('rolls back a failed statement and leaves the connection usable', async () => {
    await assert.rejects(
      inRequestTransaction(ctx.db, setSetting, async (tx) => {
        await tx.query('INSERT INTO public.rt_items (v) VALUES ($1)', [2]);
        await tx.query('SELECT 1 / $1::int', [0]);
        return { result: undefined, rollback: false };
      }),
      /division by zero/,
    );
    const kept = await inRequestTransaction(ctx.db, setSetting, async (tx) => {
      const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM public.rt_items WHERE v = $1', [2]);
      return { result: rows[0]!.n, rollback: false };
    });
    assert.equal(kept, 0);
  });

  it('answers with the response of a rolled-back work and keeps nothing of it', async () => {
    const response = await inRequestTransaction(ctx.db, setSetting, async (tx) => {
      await tx.query('INSERT INTO public.rt_items (v) VALUES ($1)', [3]);
      return { result: 'rolled back', rollback: true };
    });
    assert.equal(response, 'rolled back');
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM public.rt_items WHERE v = 3');
    assert.equal(rows[0]!.n, 0);
  });

  it('runs statements without parameters (simple protocol, several statements) after the setup', async () => {
    const seen = await inRequestTransaction(ctx.db, setSetting, async (tx) => {
      await tx.exec(`INSERT INTO public.rt_items (v) VALUES (4); INSERT INTO public.rt_items (v) VALUES (4)`);
      const { rows } = await tx.query<{ v: string }>(`SELECT current_setting('staykit.request_test', true) AS v`);
      return { result: rows[0]!.v, rollback: true };
    });
    assert.equal(seen, 'from prepare');
  });

  it('sends nothing for work that runs no statement [postgres]', async (t) => {
    if (ctx.backend !== 'postgres') return t.skip('round trips are counted on PostgreSQL');
    const { result, trips } = await countRoundTrips(() =>
      inRequestTransaction(ctx.db, setSetting, async () => ({ result: 'nothing', rollback: false })),
    );
    assert.equal(result, 'nothing');
    assert.equal(trips, 0);
  });

  it('commits with the last statement in one round trip; later statements reject [postgres]', async (t) => {
    if (ctx.backend !== 'postgres') return t.skip('queryAndCommit is PostgreSQL’s');
    const { result, trips } = await countRoundTrips(() =>
      inRequestTransaction(ctx.db, setSetting, async (tx) => {
        const { rows } = await tx.queryAndCommit<{ v: number }>(
          'INSERT INTO public.rt_items (v) VALUES ($1) RETURNING v',
          [5],
        );
        await assert.rejects(tx.query('SELECT $1::int', [1]), /already been committed/);
        // A rollback after the commit has nothing to undo (reads are what commit early).
        return { result: rows[0]!.v, rollback: true };
      }),
    );
    assert.equal(result, 5);
    assert.equal(trips, 1);
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM public.rt_items WHERE v = 5');
    assert.equal(rows[0]!.n, 1);
  });

  it('fails with the error of a COMMIT sent with the last statement, even when work swallowed it [postgres]', async (t) => {
    if (ctx.backend !== 'postgres') return t.skip('queryAndCommit is PostgreSQL’s');
    await assert.rejects(
      inRequestTransaction(ctx.db, setSetting, async (tx) => {
        try {
          // The deferred foreign key fails at COMMIT, not at the INSERT.
          await tx.queryAndCommit('INSERT INTO public.rt_child (parent) VALUES ($1)', [42]);
        } catch {
          return { result: 'swallowed', rollback: true };
        }
        return { result: 'committed', rollback: false };
      }),
      (error: { code?: string }) => error.code === '23503',
    );
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM public.rt_child');
    assert.equal(rows[0]!.n, 0);
  });
});

forEachBackend('resource API round trips', (ctx) => {
  let cache: SchemaCache;
  let org: TestOrganization;
  let principal: Principal;
  let engine: EngineOptions;

  before(async () => {
    cache = await loadSchemaCache(ctx.db, { schema: 'api', role: 'staykit_api' });
    org = await createOrganization(ctx.db, 'Round trips');
    principal = await new Authenticator(ctx.db).authenticate(`Bearer ${org.key}`);
    // Authenticating marks the key used in the background: let that finish before round trips are counted.
    for (let waited = 0; waited < 5_000; waited += 20) {
      const { rows } = await ctx.db.query('SELECT 1 FROM staykit_internal.api_keys WHERE id = $1 AND last_used_at IS NOT NULL', [principal.keyRowId]);
      if (rows.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    engine = {
      maxRows: 1000,
      requireFilterForWrites: true,
      basePath: '/v1',
      tenant: { column: 'organization_id', value: org.id },
      readsArePure: true,
    };
  });

  const request = (method: string, path: string, query: string, headers: Record<string, string> = {}, body?: unknown): EngineRequest => ({
    method,
    path,
    query,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  const run = async (engineRequest: EngineRequest): Promise<{ response: EngineResponse; trips: number }> => {
    const { result, trips } = await countRoundTrips(() =>
      inTenantTransaction(ctx.db, principal, async (tx) => {
        const response = await runRequest(tx, engineRequest, cache, engine);
        return { result: response, rollback: response.rollback };
      }),
    );
    return { response: result, trips };
  };

  const tripsOn = (trips: number) => (ctx.backend === 'postgres' ? trips : undefined);

  it('writes in two round trips and reads in one, with the tenant settings applied', async () => {
    const created = await run(request('POST', 'coupons', '', { prefer: 'return=representation' }, { code: 'TRIP', definition: { type: 'fixed', value: 5 } }));
    assert.equal(created.response.status, 201);
    assert.equal(tripsOn(created.trips), tripsOn(2));
    const read = await run(request('GET', 'coupons', 'select=code,organization_id'));
    assert.equal(read.response.status, 200);
    assert.deepEqual(JSON.parse(String(read.response.body)), [{ code: 'TRIP', organization_id: org.id }]);
    assert.equal(tripsOn(read.trips), tripsOn(1));
  });

  it('keeps the separate COMMIT or ROLLBACK where a read needs it', async () => {
    const rolledBack = await run(request('GET', 'coupons', 'select=code', { prefer: 'tx=rollback' }));
    assert.equal(rolledBack.response.status, 200);
    assert.equal(tripsOn(rolledBack.trips), tripsOn(2));
    const planned = await run(request('GET', 'coupons', 'select=code', { prefer: 'count=planned' }));
    assert.ok([200, 206].includes(planned.response.status), `status ${planned.response.status}`);
    assert.match(planned.response.headers['Content-Range']!, /^0-0\/\d+$/);
    assert.equal(tripsOn(planned.trips), tripsOn(3));
  });

  it('answers a failed read with its error and sends nothing for a request that fails before SQL', async () => {
    const failed = await run(request('GET', 'coupons', 'code=eq.X&created_at=gt.not-a-date'));
    assert.equal(failed.response.status, 400);
    assert.equal(JSON.parse(String(failed.response.body)).code, '22007');
    assert.equal(tripsOn(failed.trips), tripsOn(2));
    const unparsed = await run(request('GET', 'coupons', 'select=code,,'));
    assert.equal(unparsed.response.status, 400);
    assert.equal(tripsOn(unparsed.trips), tripsOn(0));
  });
});
