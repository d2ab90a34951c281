/**
 * Size limits through HTTP, each at the limit (accepted) and one past it (refused in the API's error shape): body
 * (413 SK413), URL (414 SK414), select depth and or/and depth (400 PGRST100, the engine's), rows per bulk insert
 * (413 SK440, the engine's), embeds per select (400 PGRST100, src/limits).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { countEmbeds } from '../../src/limits/request-size.js';
import { parseSelect } from '../../src/query/parse/select.js';

type Injected = { statusCode: number; json(): unknown };

function assertError(response: Injected, status: number, code: string, detailsPattern?: RegExp): void {
  assert.equal(response.statusCode, status, JSON.stringify(response.json()));
  const body = response.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
  assert.equal(body.code, code);
  if (detailsPattern) assert.match(String(body.details), detailsPattern);
}

/** `products(id,product_configurations(id,products(…)))`, `levels` embeds deep. */
function nestedSelect(levels: number): string {
  let inner = 'id';
  for (let level = levels; level >= 1; level -= 1) inner = `id,${level % 2 === 1 ? 'product_configurations' : 'products'}(${inner})`;
  return inner;
}

/** `a or(b and(c or(…)))`, `levels` logic trees deep (the `or=` itself is level 1). */
function nestedLogic(levels: number): string {
  let inner = 'exact_address.eq.x';
  for (let level = levels; level >= 2; level -= 1) inner = `${level % 2 === 0 ? 'and' : 'or'}(id.not.is.null,${inner})`;
  return `(id.not.is.null,${inner})`;
}

test('countEmbeds counts every embed at every depth, spreads included', () => {
  assert.equal(countEmbeds(parseSelect('id,a(id,b(id)),...c(x),d()')), 4);
  assert.equal(countEmbeds(parseSelect('*')), 0);
});

forEachBackend('size limits', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Sizes');
  });
  after(() => app.close());

  const headers = () => ({ ...bearer(org.key), 'content-type': 'application/json' });

  test('request body: 1 MiB accepted, one byte more → 413 SK413', async () => {
    const at = JSON.stringify([{ first_name: 'x', notes: '' }]);
    const padded = at.slice(0, -2) + ' '.repeat(1024 * 1024 - at.length) + at.slice(-2);
    assert.equal(Buffer.byteLength(padded), 1024 * 1024);
    const accepted = await app.inject({ method: 'POST', url: '/v1/contacts', headers: headers(), payload: padded });
    assert.equal(accepted.statusCode, 201, accepted.body);
    const refused = await app.inject({ method: 'POST', url: '/v1/contacts', headers: headers(), payload: `${padded} ` });
    assertError(refused, 413, 'SK413');
    const booking = await app.inject({ method: 'POST', url: '/v1/book', headers: headers(), payload: `${padded} ` });
    assertError(booking, 413, 'SK413');
  });

  test('URL: 8 KiB accepted, longer → 414 SK414', async () => {
    const base = '/v1/contacts?first_name=eq.';
    const at = base + 'a'.repeat(8192 - base.length);
    const accepted = await app.inject({ method: 'GET', url: at, headers: bearer(org.key) });
    assert.equal(accepted.statusCode, 200, accepted.body);
    assertError(await app.inject({ method: 'GET', url: `${at}a`, headers: bearer(org.key) }), 414, 'SK414', /8193 bytes; at most 8192/);
    assertError(await app.inject({ method: 'GET', url: `/health?${'x'.repeat(9000)}` }), 414, 'SK414');
  });

  test('select depth: 8 levels of embedding accepted, 9 → 400 PGRST100', async () => {
    const accepted = await app.inject({ method: 'GET', url: `/v1/products?select=${nestedSelect(8)}`, headers: bearer(org.key) });
    assert.equal(accepted.statusCode, 200, accepted.body);
    const refused = await app.inject({ method: 'GET', url: `/v1/products?select=${nestedSelect(9)}`, headers: bearer(org.key) });
    assertError(refused, 400, 'PGRST100', /embedding may be nested at most 8 levels deep/);
  });

  test('or/and depth: 10 levels accepted, 11 → 400 PGRST100', async () => {
    const accepted = await app.inject({ method: 'GET', url: `/v1/products?or=${encodeURIComponent(nestedLogic(10))}`, headers: bearer(org.key) });
    assert.equal(accepted.statusCode, 200, accepted.body);
    const refused = await app.inject({ method: 'GET', url: `/v1/products?or=${encodeURIComponent(nestedLogic(11))}`, headers: bearer(org.key) });
    assertError(refused, 400, 'PGRST100', /nested at most 10 levels deep/);
  });

  test('bulk insert: 1000 rows accepted, 1001 → 413 SK440', async () => {
    const rows = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ first_name: `bulk ${i}` })));
    const accepted = await app.inject({ method: 'POST', url: '/v1/contacts', headers: headers(), payload: rows(1000) });
    assert.equal(accepted.statusCode, 201, accepted.body);
    const refused = await app.inject({ method: 'POST', url: '/v1/contacts', headers: headers(), payload: rows(1001) });
    assertError(refused, 413, 'SK440', /1001 rows/);
  });

  test('embeds per select: 32 accepted, 33 → 400 PGRST100', async () => {
    const select = (n: number) => ['id', ...Array.from({ length: n }, (_, i) => `c${i}:product_configurations(id)`)].join(',');
    const accepted = await app.inject({ method: 'GET', url: `/v1/products?select=${select(32)}`, headers: bearer(org.key) });
    assert.equal(accepted.statusCode, 200, accepted.body);
    const refused = await app.inject({ method: 'GET', url: `/v1/products?select=${select(33)}`, headers: bearer(org.key) });
    assertError(refused, 400, 'PGRST100', /at most 32 resources, this one embeds 33/);
  });
});
