/**
 * The request limits on a bare Fastify app (no database): what a client sees at each limit's exact boundary —
 * the request that is still accepted, the first one refused, its status, code, Retry-After and RateLimit fields.
 * These are the tests the mutation run of src/limits/ executes (scripts/mutation-modules.js), so each limit's
 * arithmetic and each branch is pinned down here; test/limits/*.test.ts check the same limits through `buildApp`.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { errorHandler } from '../../src/http/error-handler.js';
import { ApiError } from '../../src/errors/api-error.js';
import { DEFAULT_EXCLUDED_PATHS, RequestLimiter, policiesFor, rateLimit, rateLimitOptions, type RateLimitOptions } from '../../src/limits/rate-limit.js';
import { TenantConcurrency, inTenantSlot, limitTenantConcurrency } from '../../src/limits/tenant-concurrency.js';
import { countEmbeds, requestSizeLimits, type RequestSizeOptions } from '../../src/limits/request-size.js';
import { embedsInQuery } from '../../src/limits/request-size.js';
import { BodyGuard, bodyKind } from '../../src/limits/body-guard.js';
import { addressKey } from '../../src/limits/rate-limit-key.js';
import { parseSelect } from '../../src/query/parse/select.js';
import { openPostgres } from '../../src/db/postgres.js';
import { freshPrefix, needsRedis, REDIS_URL } from './support/redis.js';

const KEY = `Bearer sk_abcdefghijk2_${'A'.repeat(43)}`;
const OTHER_KEY = `Bearer sk_bcdefghijkm3_${'A'.repeat(43)}`;

const apps: FastifyInstance[] = [];
after(() => Promise.all(apps.map((app) => app.close())));

/** A Fastify app with the project's error handler, `install`'s limits, and routes that answer 200 (or 401). */
async function appWith(install: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  install(app);
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser('application/vnd.staykit+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.get('/v1/private', async (_request, reply) => reply.code(401).send({ code: 'SK401' }));
  app.get('/v1/forbidden', async (_request, reply) => reply.code(403).send({ code: 'SK403' }));
  app.get('/*', async () => ({ ok: true }));
  app.post('/*', async (request) => ({ length: JSON.stringify(request.body ?? null).length }));
  await app.ready();
  apps.push(app);
  return app;
}

const rateLimited = (options: RateLimitOptions) => appWith((app) => void rateLimit(app, options));
const sizeLimited = (options: RequestSizeOptions) => appWith((app) => requestSizeLimits(app, options));

function get(app: FastifyInstance, url: string, headers: Record<string, string> = {}, remoteAddress = '203.0.113.1') {
  return app.inject({ method: 'GET', url, headers, remoteAddress });
}

function assertRefused(response: LightMyRequestResponse, status: number, code: string, details?: RegExp): void {
  assert.equal(response.statusCode, status, response.body);
  const body = response.json<{ code: string; details: string; message: string }>();
  assert.equal(body.code, code);
  if (details) assert.match(`${body.message} ${body.details}`, details);
}

describe('rate limit policies', () => {
  test('a burst policy only for a whole burst of at least 1 below the rate', () => {
    assert.deepEqual(policiesFor(60, 59)[1], { name: 'burst', quota: 59, windowSeconds: 59 });
    assert.equal(policiesFor(60, 60).length, 1);
    assert.equal(policiesFor(60, 61).length, 1);
    assert.equal(policiesFor(60, 0).length, 1);
    assert.equal(policiesFor(60, 2.5).length, 1);
    assert.equal(policiesFor(60, Number.NaN).length, 1);
    assert.deepEqual(policiesFor(60, 1)[1], { name: 'burst', quota: 1, windowSeconds: 1 });
  });

  test('the rate must be a positive whole number', () => {
    assert.deepEqual(policiesFor(1, 1), [{ name: 'default', quota: 1, windowSeconds: 60 }]);
    for (const perMinute of [0, -5, 1.5, Number.NaN, 2 ** 53]) {
      assert.throws(() => policiesFor(perMinute, 1), { name: 'RangeError', message: new RegExp(`got ${perMinute}`) });
    }
  });

  test('staykit serve limits with its configured rate, burst, failed-authentication budget and Redis', () => {
    const config = { rateLimitPerMinute: 600, rateLimitBurst: 100, authFailureLimit: 20, redisUrl: 'redis://cache:6379' };
    assert.deepEqual(rateLimitOptions(config), { perMinute: 600, burst: 100, authFailuresPerMinute: 20, redisUrl: 'redis://cache:6379' });
  });
});

describe('RequestLimiter', () => {
  const memory = () => ({ redis: undefined, keyPrefix: freshPrefix() });

  test('counts each key down per policy; the request past the burst is refused with the burst window', async () => {
    const limiter = new RequestLimiter(policiesFor(10, 3), memory());
    const first = await limiter.consume('key:a');
    assert.deepEqual(first.states.map((state) => [state.policy.name, state.remaining, state.resetSeconds]), [['default', 9, 60], ['burst', 2, 18]]);
    assert.equal(first.exceeded, undefined);
    await limiter.consume('key:a');
    assert.equal(await limiter.exceeded('key:a'), undefined, 'one request of the burst is left');
    assert.equal((await limiter.consume('key:a')).exceeded, undefined, 'the third request is the last of the burst');
    assert.deepEqual(await limiter.exceeded('key:a'), { policy: { name: 'burst', quota: 3, windowSeconds: 18 }, remaining: 0, resetSeconds: 18 });
    const refused = await limiter.consume('key:a');
    assert.equal(refused.exceeded?.policy.name, 'burst');
    assert.deepEqual(refused.states.map((state) => state.remaining), [6, 0], 'remaining never goes below 0');
    assert.equal((await limiter.consume('key:b')).exceeded, undefined, 'another key has a budget of its own');
  });

  test('when every policy is used up, the one with the longest wait is reported', async () => {
    const limiter = new RequestLimiter(policiesFor(2, 1), memory());
    assert.equal((await limiter.consume('k')).exceeded, undefined);
    assert.equal((await limiter.consume('k')).exceeded?.policy.name, 'burst');
    const both = await limiter.consume('k');
    assert.equal(both.exceeded?.policy.name, 'default');
    assert.equal(both.exceeded?.resetSeconds, 60);
    assert.equal((await limiter.exceeded('k'))?.policy.name, 'default');
  });

  test('penalize spends without refusing, until the budget is used up', async () => {
    const limiter = new RequestLimiter([{ name: 'auth-failures', quota: 2, windowSeconds: 60 }], memory());
    await limiter.penalize('ip:1');
    assert.equal(await limiter.exceeded('ip:1'), undefined);
    await limiter.penalize('ip:1');
    await limiter.penalize('ip:1');
    assert.equal((await limiter.exceeded('ip:1'))?.policy.name, 'auth-failures');
    assert.equal(await limiter.exceeded('ip:2'), undefined);
  });
});

describe('rate limits on an app', () => {
  test('RateLimit fields on every response; the request past the burst gets 429 SK429 with Retry-After', async () => {
    const app = await rateLimited({ perMinute: 10, burst: 3 });
    for (const remaining of [2, 1, 0]) {
      const response = await get(app, '/v1/things');
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['ratelimit-policy'], '"default";q=10;w=60, "burst";q=3;w=18');
      assert.equal(response.headers.ratelimit, `"default";r=${remaining + 7};t=60, "burst";r=${remaining};t=18`);
    }
    const refused = await get(app, '/v1/things');
    assertRefused(refused, 429, 'SK429', /"burst" rate-limit policy is exhausted; retry in 18 s/);
    assert.equal(refused.headers['retry-after'], '18');
    assert.equal(refused.headers['ratelimit-policy'], '"default";q=10;w=60, "burst";q=3;w=18');
    assert.equal(refused.headers.ratelimit, '"default";r=6;t=60, "burst";r=0;t=18');
    assert.equal((await get(app, '/v1/things', {}, '203.0.113.2')).statusCode, 200, 'another address has its own budget');
  });

  test('a Staykit key spends its own budget wherever it comes from; anything else the address', async () => {
    const app = await rateLimited({ perMinute: 2, burst: 2 });
    assert.equal((await get(app, '/', { authorization: KEY }, '198.51.100.1')).statusCode, 200);
    assert.equal((await get(app, '/', { authorization: KEY }, '198.51.100.2')).statusCode, 200);
    assertRefused(await get(app, '/', { authorization: KEY }, '198.51.100.3'), 429, 'SK429');
    assert.equal((await get(app, '/', { authorization: OTHER_KEY }, '198.51.100.3')).statusCode, 200);
    assert.equal((await get(app, '/', { authorization: 'Basic Zm9vOmJhcg==' }, '198.51.100.3')).statusCode, 200);
    assert.equal((await get(app, '/', { authorization: 'Bearer not-a-key' }, '198.51.100.3')).statusCode, 200);
    assertRefused(await get(app, '/', {}, '198.51.100.3'), 429, 'SK429');
    assert.equal(addressKey({ ip: '198.51.100.3' }), 'ip:198.51.100.3');
  });

  test('the excluded paths and what is below them are never limited and carry no RateLimit fields', async () => {
    assert.deepEqual([...DEFAULT_EXCLUDED_PATHS], ['/health', '/ready', '/metrics', '/docs']);
    const app = await rateLimited({ perMinute: 1, burst: 1 });
    for (const url of ['/health', '/health?verbose=1', '/ready', '/metrics', '/docs', '/docs/openapi.json', '/docs/', '/health']) {
      const response = await get(app, url);
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers.ratelimit, undefined, url);
    }
    assert.equal((await get(app, '/healthz')).headers.ratelimit, '"default";r=0;t=60');
    assertRefused(await get(app, '/v1/healthy'), 429, 'SK429');
  });

  test('exclude replaces the default excluded paths', async () => {
    const app = await rateLimited({ perMinute: 1, burst: 1, exclude: ['/open'] });
    assert.equal((await get(app, '/open/x')).headers.ratelimit, undefined);
    assert.equal((await get(app, '/health')).statusCode, 200);
    assertRefused(await get(app, '/health'), 429, 'SK429');
  });

  test('failed authentications: past the budget, every request with a key from that address gets 429 before its key is looked at', async () => {
    const app = await rateLimited({ perMinute: 1000, burst: 1000, authFailuresPerMinute: 2 });
    const failure = () => get(app, '/v1/private', { authorization: KEY });
    assert.equal((await failure()).statusCode, 401);
    assert.equal((await get(app, '/v1/forbidden', { authorization: KEY })).statusCode, 403, 'a 403 is no failed authentication');
    assert.equal((await get(app, '/v1/private')).statusCode, 401, 'a 401 without credentials is not counted');
    assert.equal((await get(app, '/v1/things', { authorization: KEY })).statusCode, 200, 'one failure is left');
    assert.equal((await failure()).statusCode, 401);
    const refused = await get(app, '/v1/things', { authorization: OTHER_KEY });
    assertRefused(refused, 429, 'SK429', /"auth-failures" rate-limit policy is exhausted; retry in 60 s/);
    assert.equal(refused.headers['retry-after'], '60');
    assert.equal(refused.headers['ratelimit-policy'], '"auth-failures";q=2;w=60');
    assert.equal((await get(app, '/v1/things')).statusCode, 200, 'without credentials the address may go on');
    assert.equal((await get(app, '/health', { authorization: KEY })).statusCode, 200, 'excluded paths stay open');
    assert.equal((await get(app, '/v1/things', { authorization: KEY }, '203.0.113.77')).statusCode, 200, 'another address');
  });

  test('without a failed-authentication budget, failures are never refused', async () => {
    const app = await rateLimited({ perMinute: 1000, burst: 1000, authFailuresPerMinute: 0 });
    for (let i = 0; i < 5; i += 1) assert.equal((await get(app, '/v1/private', { authorization: KEY })).statusCode, 401);
  });

  test('two apps counting in one Redis share one limit', needsRedis, async () => {
    const keyPrefix = freshPrefix();
    const [one, two] = await Promise.all([1, 2].map(() => rateLimited({ perMinute: 3, burst: 3, redisUrl: REDIS_URL, keyPrefix })));
    assert.equal((await get(one!, '/')).statusCode, 200);
    assert.equal((await get(two!, '/')).statusCode, 200);
    assert.equal((await get(one!, '/')).headers.ratelimit, '"default";r=0;t=60');
    assertRefused(await get(two!, '/'), 429, 'SK429');
  });
});

describe('request size limits on an app', () => {
  test('a request target of exactly maxUrlBytes bytes is accepted, one byte more is 414 SK414', async () => {
    const app = await sizeLimited({ maxUrlBytes: 40 });
    const url = (bytes: number) => `/v1/things?q=${'x'.repeat(bytes - '/v1/things?q='.length)}`;
    assert.equal((await get(app, url(40))).statusCode, 200);
    assertRefused(await get(app, url(41)), 414, 'SK414', /The URI has 41 bytes; at most 40 are accepted/);
    // Bytes, not characters: é is two bytes in UTF-8.
    assert.equal(Buffer.byteLength('/v1/é'), 6);
  });

  test('embeds per select: exactly maxEmbeds accepted, one more is 400 PGRST100; only on the resource API', async () => {
    const app = await sizeLimited({ maxEmbeds: 2 });
    assert.equal((await get(app, '/v1/things?select=id,a(b(c)),d')).statusCode, 200);
    assertRefused(await get(app, '/v1/things?select=id,a(b(c(d)))'), 400, 'PGRST100', /may embed at most 2 resources, this one embeds 3/);
    assertRefused(await get(app, '/v1/things?select=a(x),b(y),c(z)'), 400, 'PGRST100');
    assertRefused(await get(app, '/v1/things?select=id&select=a(b(c(d)))'), 400, 'PGRST100', /embeds 3/);
    assertRefused(await get(app, '/v1/things?order=id&select=a(b(c(d)))'), 400, 'PGRST100');
    assert.equal((await get(app, '/other?select=a(b(c(d)))')).statusCode, 200, 'outside the API prefix');
    assert.equal((await get(app, '/v1/things?columns=a(b(c(d)))')).statusCode, 200, 'no select');
    assert.equal((await get(app, '/v1/things?select=a(b(c(d)')).statusCode, 200, 'an unparseable select is the engine’s to answer');
    assert.equal((await get(app, '/v1/things?x=%zz&select=a(b(c(d)))')).statusCode, 200, 'an unparseable query string too');
  });

  test('the defaults: 8 KiB of request target and 32 embeds', async () => {
    const app = await sizeLimited({});
    assert.equal((await get(app, `/v1/x?q=${'x'.repeat(8192 - 8)}`)).statusCode, 200);
    assertRefused(await get(app, `/v1/x?q=${'x'.repeat(8192 - 7)}`), 414, 'SK414');
    const embeds = (n: number) => Array.from({ length: n }, (_, i) => `e${i}(id)`).join(',');
    assert.equal((await get(app, `/v1/x?select=${embeds(32)}`)).statusCode, 200);
    assertRefused(await get(app, `/v1/x?select=${embeds(33)}`), 400, 'PGRST100');
    const api = await sizeLimited({ apiPrefix: '/api/', maxEmbeds: 1 });
    assertRefused(await get(api, '/api/x?select=a(b(c))'), 400, 'PGRST100');
    assert.equal((await get(api, '/v1/x?select=a(b(c))')).statusCode, 200);
  });

  test('countEmbeds and embedsInQuery count every embed at every depth, spreads included', () => {
    assert.equal(countEmbeds(parseSelect('id,a(b(c),d(e)),...f(g)')), 4);
    assert.equal(embedsInQuery('select=a(b)&select=c(d(e(f)))&x=1'), 3);
    assert.equal(embedsInQuery('select'), 0);
    assert.equal(embedsInQuery(''), 0);
  });

  test('JSON nesting: exactly maxJsonDepth levels accepted, one more is 400 PGRST102', async () => {
    const app = await sizeLimited({ maxJsonDepth: 3 });
    const post = (payload: string, contentType = 'application/json') =>
      app.inject({ method: 'POST', url: '/v1/things', payload, headers: { 'content-type': contentType } });
    assert.equal((await post('[[[1]]]')).statusCode, 200);
    assertRefused(await post('[[[[1]]]]'), 400, 'PGRST102', /at most 3 levels deep/);
    assertRefused(await post('{"a":{"b":[{}]}}'), 400, 'PGRST102');
    assertRefused(await post('[[[[1]]]]', 'application/vnd.staykit+json'), 400, 'PGRST102');
    // Closing brackets give levels back; brackets inside strings (escaped quotes too) are text.
    assert.equal((await post('[[[1],[2]],[[3]],[[4],[[]]]]')).statusCode, 400);
    assert.equal((await post('[[[1],[2]],[[3]],[[4]]]')).statusCode, 200);
    assert.equal((await post('["[[[[", "\\"[[[[", "\\\\", [["]]]]"]]]')).statusCode, 200);
    assertRefused(await post('["\\\\", [[[1]]]]'), 400, 'PGRST102');
    assert.equal((await post('[[[[1]]]]', 'text/plain')).statusCode, 200, 'text is not JSON');
  });

  test('the default JSON nesting is 64 levels', async () => {
    const app = await sizeLimited({});
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const post = (payload: string) => app.inject({ method: 'POST', url: '/v1/things', payload, headers: { 'content-type': 'application/json' } });
    assert.equal((await post(nested(64))).statusCode, 200);
    assertRefused(await post(nested(65)), 400, 'PGRST102', /at most 64 levels/);
  });

  test('text bodies must be UTF-8; other bodies are not read', async () => {
    const app = await sizeLimited({});
    const post = (payload: Buffer, contentType: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: '/v1/things', payload, headers: { 'content-type': contentType, ...headers } });
    const stray = Buffer.from([0x61, 0xff, 0x62]);
    assertRefused(await post(stray, 'text/plain'), 400, 'PGRST102', /not valid UTF-8/);
    assertRefused(await post(stray, 'application/json'), 400, 'PGRST102', /not valid UTF-8/);
    assertRefused(await post(Buffer.from([0x22, 0x61, 0xc3]), 'text/plain'), 400, 'PGRST102', /not valid UTF-8/);
    assert.equal((await post(Buffer.from('"é"'), 'text/plain; charset=utf-8')).statusCode, 200);
    assert.equal((await post(stray, 'application/octet-stream')).statusCode, 200);
    const chunked = await app.inject({
      method: 'POST',
      url: '/v1/things',
      payload: Readable.from([Buffer.from([0x61, 0xff])]),
      headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
    });
    assertRefused(chunked, 400, 'PGRST102', /not valid UTF-8/);
  });

  test('BodyGuard reads a character split across chunks, and fails the stream at the first bad one', async () => {
    const read = async (guard: BodyGuard, chunks: Buffer[]) => {
      const out: Buffer[] = [];
      for await (const chunk of Readable.from(chunks).pipe(guard)) out.push(chunk as Buffer);
      return Buffer.concat(out).toString();
    };
    assert.equal(await read(new BodyGuard('text', 1), [Buffer.from([0x22, 0xc3]), Buffer.from([0xa9, 0x22])]), '"é"');
    assert.equal(await read(new BodyGuard('json', 2), [Buffer.from('[["a'), Buffer.from('[["]]')]), '[["a[["]]');
    await assert.rejects(read(new BodyGuard('json', 2), [Buffer.from('[['), Buffer.from('[')]), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, 'PGRST102');
      return true;
    });
    await assert.rejects(read(new BodyGuard('json', 2), [Buffer.from('["\\'), Buffer.from('"", [[1]]]')]), ApiError);
  });

  test('BodyGuard refuses a NUL in every form a body can carry it, split across chunks too, and nothing like it', async () => {
    const read = async (kind: 'json' | 'text' | 'form', chunks: string[]) => {
      const out: Buffer[] = [];
      for await (const chunk of Readable.from(chunks.map((text) => Buffer.from(text))).pipe(new BodyGuard(kind, 64))) out.push(chunk as Buffer);
      return Buffer.concat(out).toString();
    };
    const nul = (error: unknown) => error instanceof ApiError && error.status === 400 && error.code === 'SK707';
    for (const chunks of [['{"a":"\\u0000"}'], ['{"a":"x\\u00', '00"}'], ['{"a":"\\', 'u0000"}'], ['{"\\u0000":1}'], ['["a", "\\U0000\\u0000"]'], ['{"a":1}\u0000']]) {
      await assert.rejects(read('json', chunks), nul, chunks.join(''));
    }
    for (const chunks of [['{"a":"\\\\u0000"}'], ['{"a":"\\u0001\\u000A\\u1000\\u0100"}'], ['{"a":"\\u00g0", "b": "0000"}'], ['{"u0000":"\\n0000"}']]) {
      assert.equal(await read('json', chunks), chunks.join(''), chunks.join(''));
    }
    await assert.rejects(read('text', ['name\nA', 'da\u0000\n']), nul);
    await assert.rejects(read('form', ['reason=a%', '0', '0b']), nul);
    await assert.rejects(read('form', ['reason=a\u0000']), nul);
    for (const form of ['reason=100%2500', 'a=%0A%100', 'a=%20%30%300']) assert.equal(await read('form', [form]), form);
  });

  test('bodyKind: JSON when none or any +json type, text for text/*, otherwise not read', () => {
    for (const type of [undefined, '', 'application/json', 'Application/JSON; charset=utf-8', 'application/vnd.pgrst.object+json', ' application/json ']) {
      assert.equal(bodyKind(type), 'json', String(type));
    }
    for (const type of ['text/csv', 'TEXT/plain;charset=utf-8']) assert.equal(bodyKind(type), 'text', type);
    for (const type of ['application/x-www-form-urlencoded', 'Application/X-WWW-Form-Urlencoded; charset=utf-8']) assert.equal(bodyKind(type), 'form', type);
    for (const type of ['application/octet-stream', 'application/jsonx', 'application/x+jsonx', 'xapplication/a+json', 'multipart/form-data', 'application/json-seq']) {
      assert.equal(bodyKind(type), 'other', type);
    }
  });
});

describe('TenantConcurrency', () => {
  function gate(): { promise: Promise<void>; open: () => void } {
    let open!: () => void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    return { promise, open };
  }
  const sk430 = (details: RegExp) => (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'SK430');
    assert.equal(error.headers['retry-after'], '1');
    assert.match(error.details ?? '', details);
    return true;
  };

  test('maxActive run at once, maxQueued wait in arrival order, the next is refused at once', async () => {
    const limiter = new TenantConcurrency({ maxActive: 2, maxQueued: 2, maxWaitMs: 60_000 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const run = (org: string, name: string) => {
      gates.set(name, gate());
      return limiter.run(org, async () => {
        started.push(name);
        await gates.get(name)!.promise;
        return name;
      });
    };
    const runs = ['a1', 'a2', 'a3', 'a4'].map((name) => run('a', name));
    await assert.rejects(run('a', 'a5'), sk430(/^2 requests of this organization are running on this server and 2 are waiting$/));
    const other = run('b', 'b1');
    await new Promise(setImmediate);
    assert.deepEqual(started, ['a1', 'a2', 'b1']);
    gates.get('a2')!.open();
    await runs[1];
    await new Promise(setImmediate);
    assert.deepEqual(started, ['a1', 'a2', 'b1', 'a3'], 'the first waiter gets the freed slot');
    for (const name of ['a1', 'a3', 'a4', 'b1']) gates.get(name)!.open();
    assert.deepEqual(await Promise.all([...runs, other]), ['a1', 'a2', 'a3', 'a4', 'b1']);
    // Every slot is free again: two run at once, without waiting.
    const again = [gate(), gate()];
    const both = again.map((g, i) => limiter.run('a', async () => (await g.promise, i)));
    for (const g of again) g.open();
    assert.deepEqual(await Promise.all(both), [0, 1]);
  });

  test('with no queue, the request past maxActive is refused at once', async () => {
    const limiter = new TenantConcurrency({ maxActive: 1, maxQueued: 0, maxWaitMs: 60_000 });
    const held = gate();
    const holder = limiter.run('a', () => held.promise);
    await assert.rejects(limiter.run('a', async () => 'never'), sk430(/1 requests .* and 0 are waiting/));
    held.open();
    await holder;
    assert.equal(await limiter.run('a', async () => 'free'), 'free');
  });

  test('a waiter is refused when maxWaitMs passes without a slot, and leaves the queue', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const limiter = new TenantConcurrency({ maxActive: 1, maxQueued: 1, maxWaitMs: 1500 });
    const held = gate();
    const holder = limiter.run('a', () => held.promise);
    let outcome: unknown = 'waiting';
    const waiter = limiter.run('a', async () => 'ran').then((value) => (outcome = value), (error: unknown) => (outcome = error));
    t.mock.timers.tick(1499);
    await new Promise(setImmediate);
    assert.equal(outcome, 'waiting');
    t.mock.timers.tick(1);
    await waiter;
    sk430(/^1 requests of this organization are running on this server; none finished within 1.5 s$/)(outcome);
    // Its place in the queue is free again, and the slot goes to the next waiter.
    const next = limiter.run('a', async () => 'next');
    held.open();
    await holder;
    assert.equal(await next, 'next');
  });

  test('a waiter handed a slot is not refused when its wait would have ended', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const limiter = new TenantConcurrency({ maxActive: 1, maxQueued: 1, maxWaitMs: 1000 });
    const held = gate();
    const holder = limiter.run('a', () => held.promise);
    const second = gate();
    const waiter = limiter.run('a', async () => (await second.promise, 'second'));
    held.open();
    await holder;
    t.mock.timers.tick(5000);
    second.open();
    assert.equal(await waiter, 'second');
  });

  test('a failing transaction gives its slot back', async () => {
    const limiter = new TenantConcurrency({ maxActive: 1, maxQueued: 0, maxWaitMs: 0 });
    await assert.rejects(limiter.run('a', () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await limiter.run('a', async () => 'ok'), 'ok');
  });

  test('maxActive must be a positive and maxQueued a non-negative whole number', () => {
    for (const maxActive of [0, -1, 1.5]) {
      assert.throws(() => new TenantConcurrency({ maxActive, maxQueued: 0, maxWaitMs: 1 }), { name: 'RangeError', message: new RegExp(`maxActive .* got ${maxActive}`) });
    }
    for (const maxQueued of [-1, 0.5]) {
      assert.throws(() => new TenantConcurrency({ maxActive: 1, maxQueued, maxWaitMs: 1 }), { name: 'RangeError', message: new RegExp(`maxQueued .* got ${maxQueued}`) });
    }
    assert.doesNotThrow(() => new TenantConcurrency({ maxActive: 1, maxQueued: 0, maxWaitMs: 1 }));
  });

  test('the cap an app registers for its database holds until the app closes', async () => {
    // A pool that is never asked for a connection: only its identity matters here.
    const db = await openPostgres({ connectionString: 'postgres://127.0.0.1:1/none' });
    try {
      const app = Fastify({ logger: false });
      limitTenantConcurrency(app, db, { maxActive: 1, maxQueued: 0, maxWaitMs: 1 });
      await app.ready();
      const held = gate();
      const holder = inTenantSlot(db, 'a', () => held.promise);
      await assert.rejects(inTenantSlot(db, 'a', async () => 'x'), sk430(/and 0 are waiting/));
      assert.equal(await inTenantSlot(db, 'b', async () => 'b'), 'b');
      // A second app on the same database replaces the cap; closing the first leaves the second's in place.
      const second = Fastify({ logger: false });
      limitTenantConcurrency(second, db, { maxActive: 1, maxQueued: 0, maxWaitMs: 1 });
      await second.ready();
      await app.close();
      const secondHeld = gate();
      const secondHolder = inTenantSlot(db, 'a', () => secondHeld.promise);
      await assert.rejects(inTenantSlot(db, 'a', async () => 'x'), ApiError);
      await second.close();
      assert.equal(await inTenantSlot(db, 'a', async () => 'uncapped'), 'uncapped');
      held.open();
      secondHeld.open();
      await Promise.all([holder, secondHolder]);
    } finally {
      await db.close();
    }
  });
});
