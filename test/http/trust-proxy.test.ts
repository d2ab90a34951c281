/**
 * Behind a reverse proxy (STAYKIT_TRUST_PROXY, docs/deployment.md#behind-a-reverse-proxy): with the proxy trusted,
 * its X-Forwarded-For names the client whose budgets a request spends (failed authentications, logins) and its
 * X-Forwarded-Proto makes the session cookie Secure — so one client's made-up keys or wrong passwords lock out only
 * that client; without the setting (the default), and from any address that is not the proxy, the headers are
 * ignored, so a client can neither spoof its address nor pass for HTTPS.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';
import { buildApp } from '../../src/http/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { rateLimitOptions } from '../../src/limits/rate-limit.js';
import { generateApiKey } from '../../src/auth/api-key-format.js';
import { createUser, type TestUser } from '../users/support.js';

const PROXY = '10.1.2.3';
const LIMITS = { STAYKIT_AUTH_FAILURE_LIMIT: '3', STAYKIT_LOGIN_LIMIT_PER_ADDRESS: '2', STAYKIT_LOGIN_LIMIT_PER_EMAIL: '5' };

describe('STAYKIT_TRUST_PROXY', () => {
  it('takes true, false, addresses, CIDRs and range names; refuses a hop count and anything else, naming it', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ STAYKIT_TRUST_PROXY: 'false' }).trustProxy, false);
    assert.equal(loadConfig({ STAYKIT_TRUST_PROXY: 'TRUE' }).trustProxy, true);
    assert.deepEqual(loadConfig({ STAYKIT_TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,::1, fd00::/8,loopback' }).trustProxy,
      ['10.0.0.0/8', '192.0.2.7', '::1', 'fd00::/8', 'loopback']);
    assert.throws(() => loadConfig({ STAYKIT_TRUST_PROXY: '1' }), (error: Error) => error instanceof ConfigError && /hop count \("1"\)/.test(error.message));
    for (const bad of ['10.0.0.0/33', 'fd00::/129', 'proxy.example', '10.0.0.1/8/1', '10.0.0.1,', '10.0.0/8']) {
      assert.throws(() => loadConfig({ STAYKIT_TRUST_PROXY: bad }), /STAYKIT_TRUST_PROXY must be true, false or comma-separated/, bad);
    }
  });
});

forEachBackend('behind a reverse proxy', (ctx) => {
  let trusting: FastifyInstance;
  let ignoring: FastifyInstance;
  let org: TestOrganization;
  let user: TestUser;

  before(async () => {
    const build = (trust: Record<string, string>) => {
      const config = loadConfig({ ...LIMITS, ...trust });
      return buildApp({ db: ctx.db, config, rateLimit: rateLimitOptions(config) });
    };
    trusting = await build({ STAYKIT_TRUST_PROXY: `${PROXY},192.0.2.0/24` });
    ignoring = await build({});
    org = await createOrganization(ctx.db, 'Proxied');
    user = await createUser(ctx.db, org.id, 'proxied@example.com');
  });
  after(async () => {
    await trusting.close();
    await ignoring.close();
  });

  /** A request as the proxy forwards it: from the proxy's address, naming the client. */
  const viaProxy = (app: FastifyInstance, client: string, request: { method?: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: object }) =>
    app.inject({ method: request.method ?? 'GET', url: request.url, payload: request.payload, remoteAddress: PROXY,
      headers: { 'x-forwarded-for': client, 'x-forwarded-proto': 'https', ...request.headers } });
  const products = (key: string) => ({ url: '/v1/products?select=id', headers: bearer(key) });
  const login = (password: string) => ({ method: 'POST' as const, url: '/auth/login', payload: { email: user.email, password } });

  describe('trusted', () => {
    it('made-up keys lock out only the client that sent them, not every client behind the proxy', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await viaProxy(trusting, '198.51.100.1', products(generateApiKey().token))).statusCode, 401);
      assert.equal((await viaProxy(trusting, '198.51.100.1', products(org.key))).statusCode, 429);
      assert.equal((await viaProxy(trusting, '198.51.100.2', products(org.key))).statusCode, 200);
    });

    it('counts logins per client, and gives the session cookie Secure over the proxy\'s HTTPS', async () => {
      for (let i = 0; i < 2; i++) assert.equal((await viaProxy(trusting, '198.51.100.3', login('a wrong guess'))).statusCode, 401);
      assert.equal((await viaProxy(trusting, '198.51.100.3', login(user.password))).statusCode, 429);
      const other = await viaProxy(trusting, '198.51.100.4', login(user.password));
      assert.equal(other.statusCode, 200, other.body);
      assert.match(String(other.headers['set-cookie']), /; Secure;/);
    });

    it('takes the address the trusted proxy saw, not one the client wrote in front of it', async () => {
      // The client sends "X-Forwarded-For: 203.0.113.99"; the proxy appends the address it saw, 198.51.100.5.
      for (let i = 0; i < 2; i++) {
        const spoofing = await viaProxy(trusting, `203.0.113.${i}, 198.51.100.5`, login('a wrong guess'));
        assert.equal(spoofing.statusCode, 401);
      }
      assert.equal((await viaProxy(trusting, '203.0.113.7, 198.51.100.5', login(user.password))).statusCode, 429);
    });

    it('ignores the headers of a client that connects directly, not through the proxy', async () => {
      const direct = (client: string) => trusting.inject({
        method: 'GET', url: '/v1/products?select=id', remoteAddress: '203.0.113.50',
        headers: { ...bearer(generateApiKey().token), 'x-forwarded-for': client, 'x-forwarded-proto': 'https' },
      });
      for (let i = 0; i < 3; i++) assert.equal((await direct(`198.51.100.${100 + i}`)).statusCode, 401);
      assert.equal((await direct('198.51.100.200')).statusCode, 429, 'a new made-up X-Forwarded-For each time buys no new budget');
      const cookie = await trusting.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: user.password },
        remoteAddress: '203.0.113.51', headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(cookie.statusCode, 200, cookie.body);
      assert.doesNotMatch(String(cookie.headers['set-cookie']), /Secure/);
    });
  });

  describe('not trusted (the default)', () => {
    it('takes the forwarded headers for nothing: every client behind the proxy shares its address', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await viaProxy(ignoring, `198.51.100.${10 + i}`, products(generateApiKey().token))).statusCode, 401);
      assert.equal((await viaProxy(ignoring, '198.51.100.20', products(org.key))).statusCode, 429);
      const spoofed = await ignoring.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: user.password },
        remoteAddress: '203.0.113.60', headers: { 'x-forwarded-for': '198.51.100.30', 'x-forwarded-proto': 'https' } });
      assert.equal(spoofed.statusCode, 200, spoofed.body);
      assert.doesNotMatch(String(spoofed.headers['set-cookie']), /Secure/);
    });
  });
});
