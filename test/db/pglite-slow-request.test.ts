/**
 * Through the app on the embedded database in a data folder: a slow request is answered 504 at the statement
 * timeout, `/health` answers while it runs, and what was committed before the cancellation is still there after.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { openPGlite } from '../../src/db/pglite.js';
import { migrate } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/types.js';
import { buildApp } from '../../src/http/app.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';

describe('a slow request on the embedded database [pglite]', () => {
  let dir: string;
  let db: Database;
  let app: FastifyInstance;
  let org: TestOrganization;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'staykit-pglite-'));
    db = await openPGlite(join(dir, 'data'));
    await migrate(db);
    org = await createOrganization(db, 'Slow');
    // 300 MB of addresses: a substring search over them runs for seconds, far past the timeout below. Raw: made by the
    // database itself rather than sent as parameters.
    await db.query(
      `INSERT INTO api.contacts (organization_id, address)
       SELECT $1, jsonb_build_object('street', repeat('ab', 1000000)) FROM generate_series(1, 150)`,
      [org.id],
    );
    app = await buildApp({ db, statementTimeoutMs: 1000 });
  });
  after(async () => {
    await app?.close();
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 504 at the statement timeout while /health answers, and keeps what was committed', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/v1/contacts',
      headers: { ...bearer(org.key), 'content-type': 'application/json', prefer: 'return=representation' },
      payload: { first_name: 'Committed', last_name: 'Before' },
    });
    assert.equal(created.statusCode, 201);
    const contactId = created.json()[0].id as string;

    let slowEnded = false;
    const slow = app
      .inject({ method: 'GET', url: '/v1/contacts?select=id&address->>street=ilike.*xyz*', headers: bearer(org.key) })
      .finally(() => (slowEnded = true));
    const health = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200);
    assert.equal(health.json().status, 'ok');
    assert.equal(slowEnded, false, '/health answered while the slow request was running');

    const response = await slow;
    assert.equal(response.statusCode, 504);
    const body = response.json();
    assert.equal(body.code, '57014');
    assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);

    const read = await app.inject({ method: 'GET', url: `/v1/contacts?select=first_name&id=eq.${contactId}`, headers: bearer(org.key) });
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json(), [{ first_name: 'Committed' }]);
    const count = await app.inject({
      method: 'HEAD',
      url: '/v1/contacts?select=id',
      headers: { ...bearer(org.key), prefer: 'count=exact' },
    });
    assert.match(String(count.headers['content-range']), /\/151$/);
  });
});
