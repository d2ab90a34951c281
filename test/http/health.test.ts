import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { startApp } from '../support/app.js';
import { loadMigrations } from '../../src/db/migrate.js';

forEachBackend('health and readiness', (ctx) => {
  let app: FastifyInstance;
  before(async () => {
    app = await startApp(ctx.db);
  });
  after(() => app.close());

  it('reports the backend, its Postgres version and the newest migration', async () => {
    const response = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body.status, 'ok');
    assert.equal(body.backend, ctx.backend);
    assert.match(body.postgres_version, ctx.backend === 'pglite' ? /^18\./ : /^\d+\./);
    const migrations = await loadMigrations();
    assert.equal(body.migration, migrations.at(-1)!.id);
  });

  it('is ready when every migration is applied', async () => {
    const response = await app.inject({ method: 'GET', url: '/ready' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json().pending, []);
  });

  it('answers unknown paths with 404 in the error shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/nope' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(Object.keys(response.json()).sort(), ['code', 'details', 'hint', 'message']);
  });
});
