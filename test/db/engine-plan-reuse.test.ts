/**
 * Which engine reads reuse one PostgreSQL plan (src/query/plan/plan-reuse.ts): a read of one row by key, with to-one
 * embeds only. Over HTTP on PostgreSQL, PostgreSQL's own counters per named statement
 * (`pg_prepared_statements.generic_plans`, `custom_plans`) show which plan each request's statement ran with; the
 * criterion itself is checked shape by shape on plans.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';
import { memoryCache } from '../query/memory-cache.js';
import { openPostgres } from '../../src/db/postgres.js';
import type { Database } from '../../src/db/types.js';
import { parseRequest } from '../../src/query/parse/request.js';
import { planRequest } from '../../src/query/plan/index.js';
import { reusesPlan } from '../../src/query/plan/plan-reuse.js';
import type { EngineOptions } from '../../src/query/plan/types.js';

interface PlanCounts {
  generic: number;
  custom: number;
}

describe('engine reads whose plan is reused [postgres]', { skip: !BACKENDS.includes('postgres') }, () => {
  let testDb: TestDatabase;
  /** One connection: the API's statements and the counters read afterwards meet on the same session. */
  let db: Database;
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let products: string[];
  let event: string;
  /** The engine statement of each request, by its SQL text. */
  let sent: string[] = [];

  before(async () => {
    testDb = await createTestDatabase('postgres');
    db = await openPostgres({ connectionString: testDb.url!, maxConnections: 1 });
    const org = await createOrganization(db, 'Plans');
    const f = fixtures(db, org.id);
    products = [await f.product(), await f.product(), await f.product()];
    await f.configuration(products[0]!);
    event = await f.event(products[0]!, { start_date: '2027-03-05', end_date: '2027-03-08' });
    app = await startBookingApp(db);
    api = client(app, org.key);
    db.onStatement = (text) => {
      if (text.includes('pgrst_')) sent.push(text);
    };
  });
  after(async () => {
    await app?.close();
    await db?.close();
    await testDb?.drop();
  });

  /** Asks for each path in turn; returns the plan counts of the one statement they all ran, and their bodies. */
  async function ask(paths: string[]): Promise<{ counts: PlanCounts; bodies: unknown[] }> {
    sent = [];
    const bodies: unknown[] = [];
    for (const path of paths) {
      const response = await api.get(path);
      assert.equal(response.statusCode, 200, response.body);
      bodies.push(response.json());
    }
    const texts = [...new Set(sent)];
    assert.equal(texts.length, 1, `one statement for ${paths.join(', ')}`);
    const { rows } = await db.transaction((tx) => tx.query<PlanCounts>(
      `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement = $1`, [texts[0]]));
    return { counts: { ...rows[0]! }, bodies };
  }

  it('a product by id: one generic plan, reused for every id', async () => {
    const { counts, bodies } = await ask(products.map((id) => `/v1/products?id=eq.${id}&select=id`));
    assert.deepEqual(bodies, products.map((id) => [{ id }]));
    assert.deepEqual(counts, { generic: 3, custom: 0 });
  });

  it('an event by id with its product (a to-one embed): reused', async () => {
    const { counts, bodies } = await ask([1, 2].map(() => `/v1/calendar_events?id=eq.${event}&select=id,products(id)`));
    assert.deepEqual(bodies, [1, 2].map(() => [{ id: event, products: { id: products[0] } }]));
    assert.deepEqual(counts, { generic: 2, custom: 0 });
  });

  it('products by id=in.(…): planned for each request\'s ids', async () => {
    const { counts } = await ask([0, 1, 2].map((n) => `/v1/products?id=in.(${products[n]},${products[(n + 1) % 3]})&select=id`));
    assert.deepEqual(counts, { generic: 0, custom: 3 });
  });

  it('a list, and a product by id with a to-many embed: planned for each request', async () => {
    const list = await ask([1, 2, 3].map(() => '/v1/products?select=id&limit=2'));
    assert.deepEqual(list.counts, { generic: 0, custom: 3 });
    const embed = await ask(products.map((id) => `/v1/products?id=eq.${id}&select=id,product_configurations(id)`));
    assert.deepEqual(embed.counts, { generic: 0, custom: 3 });
  });
});

describe('which reads reuse their plan', () => {
  const tenant = { column: 'org_id', value: '7' };
  const options: EngineOptions = { maxRows: 1000, requireFilterForWrites: false, basePath: '', tenant };

  function reused(pathAndQuery: string, method = 'GET', cache = memoryCache()): boolean {
    const [path = '', query = ''] = pathAndQuery.split(/\?(.*)/s);
    const body = method === 'GET' ? undefined : JSON.stringify({ name: 'x' });
    return reusesPlan(planRequest(parseRequest({ method, path, query, headers: {}, body }), cache, options));
  }

  it('a read of one row by its key, with to-one embeds only', () => {
    assert.equal(reused('/clients?id=eq.1'), true);
    assert.equal(reused('/clients?id=eq.1&name=eq.Ada&order=name&limit=1&offset=0'), true);
    assert.equal(reused('/projects?id=eq.1&select=id,clients(name)'), true);
    assert.equal(reused('/projects?id=eq.1&select=id,...clients(name)'), true);
  });

  for (const [shape, pathAndQuery] of [
    ['a list', '/clients?limit=10'],
    ['equality on a column that is no key', '/clients?name=eq.Ada'],
    ['in.(…) on the key', '/clients?id=in.(1,2)'],
    ['in.(…) of one id', '/clients?id=in.(1)'],
    ['a quantified equality', '/clients?id=eq(any).{1,2}'],
    ['a negated equality', '/clients?id=not.eq.1'],
    ['a range comparison', '/clients?id=gte.1'],
    ['a pattern beside the key', '/clients?id=eq.1&name=like.A*'],
    ['an or beside the key', '/clients?id=eq.1&or=(name.eq.a,name.eq.b)'],
    ['a to-many embed', '/clients?id=eq.1&select=id,projects(id)'],
    ['a pattern on a to-one embed', '/projects?id=eq.1&select=id,clients(name)&clients.name=like.A*'],
    ['an aggregate', '/clients?id=eq.1&select=count()'],
  ] as const) {
    it(`not for ${shape}`, () => assert.equal(reused(pathAndQuery), false));
  }

  it('not for a view, whose key is inferred, nor for a write', () => {
    const cache = memoryCache();
    cache.tables.get('clients')!.kind = 'view';
    assert.equal(reused('/clients?id=eq.1', 'GET', cache), false);
    assert.equal(reused('/clients?id=eq.1', 'PATCH'), false);
  });
});
