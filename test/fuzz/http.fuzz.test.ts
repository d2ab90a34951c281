/**
 * Fuzzing Staykit's own `/v1` API through HTTP (app.inject) on each backend: random and adversarial requests never
 * get a 5xx, every error is in the API's shape, and no statement sent to the database holds a client value in its
 * text. Also the pure parse → plan → SQL property against Staykit's real schema cache (no queries).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { loadSchemaCache } from '../../src/schema/load.js';
import { type SchemaCache } from '../../src/schema/types.js';
import { API_ROLE } from '../../src/transaction/tenant-transaction.js';
import { engineRequest, fuzzParameters, MARKER, wellFormed, type SchemaShape } from './arbitraries.js';
import { checkPipeline, shapeOf } from './check.js';

/** Tables the generator favours (Staykit's busiest), so requests often reach the database. */
const FAVOURITES = ['products', 'contacts', 'bookings', 'calendar_events', 'coupons', 'tasks', 'product_configurations', 'api_requests'];

function favour(shape: SchemaShape): SchemaShape {
  const favourite = shape.tables.filter((t) => FAVOURITES.includes(t.name));
  return { ...shape, tables: [...favourite, ...favourite, ...shape.tables] };
}

forEachBackend('fuzz /v1 through HTTP', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let cache: SchemaCache;
  const statements: string[] = [];
  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Fuzz');
    cache = await loadSchemaCache(ctx.db, { schema: 'api', role: API_ROLE });
    ctx.db.onStatement = (text) => statements.push(text);
  });
  after(async () => {
    ctx.db.onStatement = undefined;
    await app.close();
  });

  if (ctx.backend === 'pglite') {
    test('parse → plan → SQL on Staykit\'s schema: only ApiErrors, values only as parameters', () => {
      fc.assert(fc.property(engineRequest(favour(shapeOf(cache))), (request) => void checkPipeline(request, cache)), fuzzParameters(4000));
    });
  }

  test('no 5xx, errors in the API shape, no client value in any statement text', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(engineRequest(favour(shapeOf(cache))), async (request) => {
        statements.length = 0;
        const headers: Record<string, string> = { ...bearer(org.key) };
        for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = wellFormed(value);
        const url = `/v1/${request.path}${request.query === '' ? '' : `?${request.query}`}`;
        const response = await app.inject({
          method: request.method as 'GET',
          url,
          headers,
          ...(request.body === undefined || ['GET', 'HEAD', 'OPTIONS'].includes(request.method) ? {} : { payload: wellFormed(request.body) }),
        });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        assert.ok(response.statusCode < 500, `${response.statusCode} ${response.body}\nfor ${request.method} ${url}\n${JSON.stringify(request)}`);
        if (response.statusCode >= 400 && request.method !== 'HEAD') {
          const body = response.json() as Record<string, unknown>;
          assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message'], response.body);
        }
        // The request log is written in batches; wait for nothing, check what was sent for this request.
        for (const text of statements) assert.ok(!text.includes(MARKER), `a client value reached SQL text:\n${text}\nfor ${url}`);
      }),
      fuzzParameters(250),
    );
    console.log(`# statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    assert.ok([...statuses.keys()].some((status) => status < 300), 'some requests succeed');
  });
});

forEachBackend('malformed paths', (ctx) => {
  const check = async (app: FastifyInstance) => {
    try {
      for (const url of ['/v1/%', '/v1/%zz', '/v1/rpc/%E0%A4%A', '/health%']) {
        const response = await app.inject({ method: 'GET', url });
        assert.equal(response.statusCode, 400, url);
        assert.deepEqual(Object.keys(response.json() as object).sort(), ['code', 'details', 'hint', 'message'], response.body);
      }
    } finally {
      await app.close();
    }
  };
  test('bad percent-encoding in the path: 400 in the API shape', async () => {
    await check(await startApp(ctx.db));
  });
});
