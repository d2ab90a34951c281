/** A request whose SQL runs past the statement timeout is cancelled and answered 504, and changes nothing. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { bearer, createOrganization } from '../support/app.js';
import { buildApp } from '../../src/http/app.js';

// PostgreSQL only: on PGlite's single connection no second session can hold the lock that makes the request slow.
describe('statement timeout [postgres]', { skip: !BACKENDS.includes('postgres') }, () => {
  let app: FastifyInstance;
  let ctx: TestDatabase;
  before(async () => {
    ctx = await createTestDatabase('postgres');
    app = await buildApp({ db: ctx.db, statementTimeoutMs: 300 });
  });
  after(async () => {
    await app.close();
    await ctx.drop();
  });

  it('answers 504 with the error shape when a statement is cancelled', async () => {
    const org = await createOrganization(ctx.db, 'Slow');
    const coupon = await fixtures(ctx.db, org.id).coupon({ code: 'SLOW', definition: { type: 'fixed', value: 1 } });
    const locker = new pg.Client({ connectionString: ctx.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM api.coupons WHERE id = $1 FOR UPDATE', [coupon]);
      const response = await app.inject({
        method: 'PATCH',
        url: `/v1/coupons?id=eq.${coupon}`,
        headers: { ...bearer(org.key), 'content-type': 'application/json' },
        payload: { description: 'changed' },
      });
      assert.equal(response.statusCode, 504);
      assert.equal(response.json().code, '57014');
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    const after = await ctx.db.query<{ description: string }>('SELECT description FROM api.coupons WHERE id = $1', [coupon]);
    assert.equal(after.rows[0]!.description, '');
  });
});
