/**
 * /admin serves the built dashboard: the app for every page path (so a reload or a shared link works), its assets
 * with long caching, a 404 in the API's shape for a missing asset, and headers that keep the page from being framed
 * or loading anything from elsewhere. No database behaviour is involved beyond building the app, so PGlite only.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serveBuiltApp } from '../../src/dashboard/static-app.js';
import { errorHandler } from '../../src/http/error-handler.js';
import { DIST, ensureDashboardBuilt } from './support/built-app.js';

let app: FastifyInstance;

before(async () => {
  ensureDashboardBuilt();
  app = Fastify();
  app.setErrorHandler(errorHandler);
  await app.register(async (scope) => serveBuiltApp(scope, DIST));
});

after(() => app.close());

it('answers /admin with the app and every page path with the same index.html', async () => {
  const redirect = await app.inject('/admin');
  assert.equal(redirect.statusCode, 302);
  assert.equal(redirect.headers.location, '/admin/');
  const index = await app.inject('/admin/');
  assert.equal(index.statusCode, 200);
  assert.match(index.headers['content-type'] as string, /text\/html/);
  assert.match(index.body, /<div id="root">/);
  assert.equal(index.headers['cache-control'], 'no-cache');
  assert.match(index.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
  assert.match(index.headers['content-security-policy'] as string, /script-src 'self'/);
  const deep = await app.inject('/admin/bookings/0b6e3f0e-58a8-4bde-9a43-1f0c1f7b1a11');
  assert.equal(deep.statusCode, 200);
  assert.equal(deep.body, index.body);
});

it('serves the hashed assets the page names, cached for a year', async () => {
  const index = (await app.inject('/admin/')).body;
  const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(index)?.[1];
  assert.ok(script, 'index.html names its script under /admin/assets/');
  const asset = await app.inject(script);
  assert.equal(asset.statusCode, 200);
  assert.match(asset.headers['content-type'] as string, /javascript/);
  assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.ok((await readdir(join(DIST, 'assets'))).some((name) => script.endsWith(name)));
});

it('a missing asset is a 404 in the API error shape, not the app', async () => {
  const missing = await app.inject('/admin/assets/index-stale.js');
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.json().code, 'SK404');
});

it('without a build, /admin says how to build the dashboard', async () => {
  const bare = Fastify();
  bare.setErrorHandler(errorHandler);
  const empty = await mkdtemp(join(tmpdir(), 'staykit-no-dashboard-'));
  await bare.register(async (scope) => serveBuiltApp(scope, empty));
  const answer = await bare.inject('/admin/');
  assert.equal(answer.statusCode, 404);
  assert.equal(answer.json().message, 'The dashboard is not built');
  assert.match(answer.json().hint, /npm run build:web/);
  await bare.close();
});
