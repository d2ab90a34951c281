/**
 * Authentication and authorization rules that need no database: the shapes of keys and headers, what scopes grant,
 * what a member's role grants, the /auth body checks, the login budgets and the session cookie's attributes — each
 * at its exact edge, with the status and code a client would get. These are the tests the mutation run of src/auth/
 * executes (scripts/mutation-modules.js); test/http/auth.test.ts and test/users/* check the same through `buildApp`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { ApiError } from '../../src/errors/api-error.js';
import { errorHandler } from '../../src/http/error-handler.js';
import { generateApiKey, hashSecret, parseApiKey, secretMatches } from '../../src/auth/api-key-format.js';
import { bearerToken } from '../../src/auth/bearer.js';
import { isPublishableKey, publishableToken } from '../../src/auth/publishable-key-format.js';
import { hasScope, parseScopes, readableTables, requiredScope, ScopeError, writableTables } from '../../src/auth/scopes.js';
import { memberScopes } from '../../src/auth/session-permissions.js';
import { emailAddress } from '../../src/auth/session-input.js';
import { loginRoute, organizationRoute, setPasswordRoute } from '../../src/auth/session-bodies.js';
import { registerPublicRoute, routeOptions } from '../../src/routing/route-schema.js';
import { LoginLimits } from '../../src/auth/session-login-limits.js';
import { missingScope } from '../../src/auth/session-errors.js';
import { clearSessionCookie, SESSION_COOKIE, sessionCookie, sessionCookies, setSessionCookie } from '../../src/auth/session-cookie.js';

function apiErrorWith(status: number, code: string, text?: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, status);
    assert.equal(error.code, code);
    if (text) assert.match(`${error.message} ${error.details ?? ''}`, text);
    return true;
  };
}

describe('API keys', () => {
  const KEY_ID = 'abcdefghijk2';

  test('sk_<12 base32>_<20 to 64 base62>: exactly those bounds, nothing around them', () => {
    for (const length of [20, 43, 64]) {
      const secret = 'aZ9'.repeat(22).slice(0, length);
      assert.deepEqual(parseApiKey(`sk_${KEY_ID}_${secret}`), { keyId: KEY_ID, secret }, `secret of ${length}`);
    }
    for (const token of [
      `sk_${KEY_ID}_${'a'.repeat(19)}`,
      `sk_${KEY_ID}_${'a'.repeat(65)}`,
      `sk_abcdefghijk_${'a'.repeat(43)}`,
      `sk_abcdefghijk23_${'a'.repeat(43)}`,
      `sk_abcdefghijk1_${'a'.repeat(43)}`,
      `sk_abcdefghijkA_${'a'.repeat(43)}`,
      `xsk_${KEY_ID}_${'a'.repeat(43)}`,
      `sk_${KEY_ID}_${'a'.repeat(43)}!`,
      `sk_${KEY_ID}_${'a'.repeat(42)}_`,
      ` sk_${KEY_ID}_${'a'.repeat(43)}`,
    ]) {
      assert.equal(parseApiKey(token), undefined, token);
    }
  });

  test('a generated key: a 12-character id from the whole base32 alphabet, a 43-character secret, its SHA-256 stored', () => {
    const keys = Array.from({ length: 300 }, generateApiKey);
    const idCharacters = new Set(keys.flatMap((key) => [...key.keyId]));
    assert.equal(idCharacters.size, 32, [...idCharacters].sort().join(''));
    for (const key of keys) {
      assert.match(key.token, new RegExp(`^sk_${key.keyId}_[0-9A-Za-z]{43}$`));
      const secret = parseApiKey(key.token)!.secret;
      assert.equal(key.secretHash, hashSecret(secret));
      assert.equal(secretMatches(secret, key.secretHash), true);
    }
    // Secrets use all 62 characters (leading zeros pad a short number to 43).
    assert.equal(new Set(keys.flatMap((key) => [...parseApiKey(key.token)!.secret])).size, 62);
    assert.equal(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('a secret matches only its own hash, whatever the stored value looks like', () => {
    const hash = hashSecret('right');
    assert.equal(secretMatches('right', hash), true);
    assert.equal(secretMatches('wrong', hash), false);
    assert.equal(secretMatches('right', hash.slice(0, 62)), false);
    assert.equal(secretMatches('right', ''), false);
  });

  test('Authorization: Bearer <token>, the scheme in any case, one token and trailing spaces only', () => {
    assert.equal(bearerToken('Bearer abc'), 'abc');
    assert.equal(bearerToken('bEaReR \t abc  '), 'abc');
    for (const header of ['Bearer', 'Bearer ', 'Bearerabc', 'Basic abc', 'Bearer a b', ' Bearer abc', 'xBearer abc', 'Bearer abc x']) {
      assert.equal(bearerToken(header), undefined, header);
    }
  });

  test('publishable keys: pk_ and exactly 32 base62 characters; a Bearer pk_ token whatever follows', () => {
    const token = `pk_${'aZ9'.repeat(11).slice(0, 32)}`;
    assert.equal(isPublishableKey(token), true);
    for (const bad of [token.slice(0, -1), `${token}a`, `x${token}`, `pk_${'_'.repeat(32)}`, token.replace('pk_', 'sk_')]) {
      assert.equal(isPublishableKey(bad), false, bad);
    }
    assert.equal(publishableToken(`Bearer ${token}`), token);
    assert.equal(publishableToken('Bearer pk_short'), 'pk_short', 'the shape is checked by the lookup, which refuses it');
    assert.equal(publishableToken(`Bearer sk_${'a'.repeat(20)}`), undefined);
    assert.equal(publishableToken(`Basic ${token}`), undefined);
    assert.equal(publishableToken(undefined), undefined);
  });
});

describe('scopes', () => {
  const resources = new Set(['bookings', 'products', 'rate_plans']);

  test('read, write and <resource>:read|write, trimmed, each once, in the order given', () => {
    assert.deepEqual(parseScopes(' bookings:write ,read,,bookings:write,rate_plans:read', resources), ['bookings:write', 'read', 'rate_plans:read']);
    assert.deepEqual(parseScopes('guests:read'), ['guests:read'], 'without resources only the form is checked');
    for (const bad of ['admin', 'Read', 'bookings:', ':read', 'bookings:delete', 'read:bookings', '9x:read', 'bookings:readx', 'xread', 'a-b:read']) {
      assert.throws(() => parseScopes(bad), (error: unknown) => error instanceof ScopeError && error.message === `invalid scope "${bad}": use read, write, <resource>:read or <resource>:write`, bad);
    }
    assert.throws(() => parseScopes('read,guests:write', resources), { message: 'invalid scope "guests:write": no resource "guests"' });
    assert.throws(() => parseScopes(' , ,'), { message: 'at least one scope is required' });
    assert.throws(() => parseScopes(''), ScopeError);
  });

  test('write implies read for the same resource; nothing implies write but write', () => {
    assert.equal(requiredScope('bookings', 'write'), 'bookings:write');
    const cases: [string[], string, 'read' | 'write', boolean][] = [
      [['read'], 'bookings', 'read', true],
      [['write'], 'bookings', 'read', true],
      [['write'], 'bookings', 'write', true],
      [['read'], 'bookings', 'write', false],
      [['bookings:read'], 'bookings', 'read', true],
      [['bookings:write'], 'bookings', 'read', true],
      [['bookings:write'], 'bookings', 'write', true],
      [['bookings:read'], 'bookings', 'write', false],
      [['products:write'], 'bookings', 'read', false],
      [['products:write'], 'bookings', 'write', false],
      [[], 'bookings', 'read', false],
    ];
    for (const [granted, resource, access, expected] of cases) {
      assert.equal(hasScope(granted, resource, access), expected, `${granted.join(',')} → ${resource}:${access}`);
    }
  });

  test('the tables scopes let a principal read and write', () => {
    assert.equal(readableTables(['read']), 'all');
    assert.equal(readableTables(['bookings:read', 'write']), 'all');
    assert.deepEqual(readableTables(['bookings:read', 'products:write', 'bookings:write']), ['bookings', 'products']);
    assert.deepEqual(readableTables([]), []);
    assert.equal(writableTables(['write']), 'all');
    assert.deepEqual(writableTables(['read', 'bookings:read', 'products:write', 'rate_plans:write', 'products:write']), ['products', 'rate_plans']);
    assert.deepEqual(writableTables(['read']), []);
  });

  test('a member: owner and admin may do everything; any other role its permissions, plus reading organizations and products, plus its role\'s first-day scopes', () => {
    assert.deepEqual(memberScopes('owner', []), ['read', 'write']);
    assert.deepEqual(memberScopes('admin', [{ resource: 'bookings', access: 'read' }]), ['read', 'write']);
    assert.deepEqual(memberScopes('staff', []), ['organizations:read', 'products:read', 'calendar_events:read']);
    assert.deepEqual(memberScopes('manager', []), ['organizations:read', 'products:read', 'calendar_events:read']);
    assert.deepEqual(
      memberScopes('staff', [{ resource: 'bookings', access: 'write' }, { resource: '*', access: 'read' }, { resource: 'products', access: 'read' }]),
      ['bookings:write', 'read', 'products:read', 'organizations:read', 'calendar_events:read'],
    );
    const fieldStaff = ['organizations:read', 'products:read', 'calendar_events:read', 'calendar_event_tasks:write', 'tasks:write', 'task_assignees:read'];
    assert.deepEqual(memberScopes('cleaner', []), fieldStaff, 'a new cleaner sees the calendar and completes their tasks');
    assert.deepEqual(memberScopes('maintenance', []), fieldStaff);
    assert.equal(memberScopes('cleaner', []).some((scope) => /contacts|bookings/.test(scope)), false, 'and reads no guest');
    assert.deepEqual(memberScopes('Owner', []), ['organizations:read', 'products:read'], 'roles are exact');
  });

  test('a missing scope is 403 SK403 for a key and SK703, worded for the member, for a session', () => {
    assert.throws(() => { throw missingScope({}, 'bookings:write'); }, apiErrorWith(403, 'SK403', /needs "bookings:write" \(or the broader "write"\)/));
    assert.throws(() => { throw missingScope({ userId: 'u1' }, 'bookings:write'); }, apiErrorWith(403, 'SK703', /permission "bookings:write".*needs "bookings:write" \(or the broader "write"\)/));
  });
});

describe('/auth bodies, as their route definitions take them', () => {
  let app: FastifyInstance;
  before(async () => {
    app = Fastify();
    app.setErrorHandler(errorHandler);
    registerPublicRoute(app, loginRoute, async (request, reply) => reply.send(request.body));
    registerPublicRoute(app, setPasswordRoute, async (request, reply) => reply.send(request.body));
    // The session is the app's to check (session-authorize.ts): here every request is a member's.
    const member = async () => ({ keyRowId: null, keyId: 'session:test', organizationId: 'test', scopes: [] });
    app.route(routeOptions(organizationRoute, member, async (request, reply) => reply.send(request.body)));
    await app.ready();
  });
  after(() => app.close());

  const send = (url: string, body: unknown) =>
    app.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const taken = async (url: string, body: unknown) => {
    const response = await send(url, body);
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };
  const refused = async (url: string, body: unknown, message: RegExp) => {
    const response = await send(url, body);
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, 'SK705');
    assert.match(response.json().message, message);
  };

  test('login: an object with a non-empty e-mail address and password, and nothing else', async () => {
    assert.deepEqual(await taken('/login', { email: 'ana@example.org', password: 'x' }), { email: 'ana@example.org', password: 'x' });
    for (const body of [[], 'text', 42]) await refused('/login', body, /^The request body must be a JSON object/);
    await refused('/login', { password: 'x' }, /^email is required/);
    await refused('/login', { email: '', password: 'x' }, /^email must be a non-empty string/);
    await refused('/login', { email: 'ana@example.org', password: '' }, /^password must be a non-empty string/);
    await refused('/login', { email: 'ana@example.org', password: 7 }, /^password must be/);
    await refused('/login', { email: 'ana@example.org', password: 'x', remember: true }, /^Unknown field: remember/);
  });

  test('an e-mail address of at most 254 characters, surrounding spaces dropped', () => {
    const badInput = (text: RegExp) => apiErrorWith(400, 'SK705', text);
    const address = (length: number) => `${'a'.repeat(length - '@example.org'.length)}@example.org`;
    assert.equal(emailAddress(address(254)), address(254));
    assert.throws(() => emailAddress(address(255), 'contact'), badInput(/^"contact" must be an e-mail address/));
    assert.equal(emailAddress(` ${address(254)} `), address(254), 'surrounding spaces do not count');
    assert.throws(() => emailAddress('ana@example'), badInput(/^"email" must be an e-mail address/));
  });

  test('switching organization needs its uuid, in either case', async () => {
    const id = '0A1B2C3D-0000-4000-8000-00000000000F';
    assert.deepEqual(await taken('/organization', { organization_id: id }), { organization_id: id });
    await refused('/organization', { organization_id: `${id}0` }, /^organization_id must be an organization id/);
    await refused('/organization', {}, /^organization_id is required/);
  });

  test('setting a password needs a token and a password', async () => {
    assert.deepEqual(await taken('/set-password', { token: 't', password: 'p' }), { token: 't', password: 'p' });
    await refused('/set-password', { password: 'p' }, /^token is required/);
    await refused('/set-password', { token: 't' }, /^password is required/);
  });
});

describe('login budgets', () => {
  const limited = (policy: string) => apiErrorWith(429, 'SK429', new RegExp(`"${policy}" rate-limit policy is exhausted; retry in 900 s`));
  const failures = async (limits: LoginLimits, address: string, email: string, count: number) => {
    for (let i = 0; i < count; i += 1) await limits.attempt(address, email);
  };

  test('the e-mail budget is per client address: used up from one, the same e-mail address has its own from another', async () => {
    const limits = new LoginLimits({ perEmail: 2, perAddress: 0 });
    await failures(limits, '198.51.100.1', 'Ana@Example.org', 2);
    const error = await limits.attempt('198.51.100.1', 'ana@EXAMPLE.org').catch((caught: unknown) => caught);
    limited('login-email')(error);
    assert.equal((error as ApiError).headers['retry-after'], '900');
    await failures(limits, '198.51.100.2', 'ana@example.org', 2);
    await assert.rejects(limits.attempt('198.51.100.2', 'ana@example.org'), limited('login-email'));
    await limits.attempt('198.51.100.1', 'bob@example.org');
  });

  test('tries sent at once are each counted: no more than the budget get through', async () => {
    const fulfilled = (outcomes: PromiseSettledResult<unknown>[]) => outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    const pair = new LoginLimits({ perEmail: 3, perAddress: 50 });
    assert.equal(fulfilled(await Promise.allSettled(Array.from({ length: 20 }, () => pair.attempt('198.51.100.1', 'a@example.org')))), 3);
    const address = new LoginLimits({ perEmail: 50, perAddress: 5 });
    const spread = ['b', 'c', 'd'].flatMap((name) => Array.from({ length: 10 }, () => address.attempt('198.51.100.1', `${name}@example.org`)));
    assert.equal(fulfilled(await Promise.allSettled(spread)), 5);
  });

  test('the client address budget: many e-mail addresses from one place', async () => {
    const limits = new LoginLimits({ perEmail: 0, perAddress: 2 });
    await limits.attempt('198.51.100.1', 'a@example.org');
    await limits.attempt('198.51.100.1', 'b@example.org');
    await assert.rejects(limits.attempt('198.51.100.1', 'c@example.org'), limited('login-address'));
    await limits.attempt('198.51.100.2', 'a@example.org');
  });

  test('a login refused by one budget gives the other its try back', async () => {
    const limits = new LoginLimits({ perEmail: 1, perAddress: 2 });
    await limits.attempt('198.51.100.1', 'a@example.org');
    for (let i = 0; i < 3; i += 1) await assert.rejects(limits.attempt('198.51.100.1', 'a@example.org'), limited('login-email'));
    await limits.attempt('198.51.100.1', 'b@example.org');
    await assert.rejects(limits.attempt('198.51.100.1', 'c@example.org'), limited('login-address'));
  });

  test('a success gives the address its try back and clears the e-mail address\'s budget there', async () => {
    const limits = new LoginLimits({ perEmail: 2, perAddress: 3 });
    await limits.attempt('198.51.100.1', 'a@example.org');
    await (await limits.attempt('198.51.100.1', 'a@example.org')).succeeded();
    await failures(limits, '198.51.100.1', 'a@example.org', 2);
    await assert.rejects(limits.attempt('198.51.100.1', 'b@example.org'), limited('login-address'));
  });

  test('a login refused by both budgets names the one with the longer wait', async (t) => {
    t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 0 });
    const limits = new LoginLimits({ perEmail: 1, perAddress: 2 });
    await limits.attempt('198.51.100.1', 'b@example.org'); // t = 0: the address's window, to 900 s
    t.mock.timers.tick(100_000);
    await limits.attempt('198.51.100.1', 'a@example.org'); // t = 100: a@'s window, to 1000 s; both used up
    t.mock.timers.tick(850_000);
    await limits.attempt('198.51.100.1', 'c@example.org'); // t = 950: the address's next window, to 1850 s
    await limits.attempt('198.51.100.1', 'd@example.org');
    t.mock.timers.tick(10_000);
    const error = await limits.attempt('198.51.100.1', 'a@example.org').catch((caught: unknown) => caught);
    apiErrorWith(429, 'SK429', /"login-address" rate-limit policy is exhausted; retry in 890 s/)(error);
    assert.equal((error as ApiError).headers['retry-after'], '890');
  });

  test('a budget of 0 is no limit', async () => {
    const limits = new LoginLimits({ perEmail: 0, perAddress: 0 });
    await failures(limits, '198.51.100.1', 'a@example.org', 5);
    const one = new LoginLimits({ perEmail: 1, perAddress: 1 });
    await one.attempt('198.51.100.9', 'z@example.org');
    await assert.rejects(one.attempt('198.51.100.9', 'z@example.org'), limited('login-email'));
  });
});

describe('the session cookie', () => {
  const apps: FastifyInstance[] = [];
  after(() => Promise.all(apps.map((app) => app.close())));

  async function cookieApp(trustProxy: boolean): Promise<FastifyInstance> {
    const app = Fastify({ logger: false, trustProxy });
    app.setErrorHandler(errorHandler);
    await sessionCookies(app);
    await sessionCookies(app);
    app.get('/login', async (request, reply) => {
      setSessionCookie(request, reply, 'token-1', 3600);
      return { ok: true };
    });
    app.get('/logout', async (request, reply) => {
      clearSessionCookie(request, reply);
      return { ok: true };
    });
    app.get('/whoami', async (request) => ({ token: sessionCookie(request) ?? null }));
    await app.ready();
    apps.push(app);
    return app;
  }

  test('HttpOnly, SameSite=Lax, Path=/, with its lifetime; Secure only over HTTPS', async () => {
    const app = await cookieApp(true);
    const plain = await app.inject({ method: 'GET', url: '/login' });
    assert.equal(plain.headers['set-cookie'], 'staykit_session=token-1; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax');
    const https = await app.inject({ method: 'GET', url: '/login', headers: { 'x-forwarded-proto': 'https' } });
    assert.equal(https.headers['set-cookie'], 'staykit_session=token-1; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax');
    const cleared = await app.inject({ method: 'GET', url: '/logout', headers: { 'x-forwarded-proto': 'https' } });
    assert.match(String(cleared.headers['set-cookie']), /^staykit_session=; Max-Age=0; Path=\/; Expires=.*; HttpOnly; Secure; SameSite=Lax$/);
  });

  test('the token a request carries; an empty cookie is none', async () => {
    const app = await cookieApp(false);
    const token = async (cookie?: string) =>
      (await app.inject({ method: 'GET', url: '/whoami', headers: cookie === undefined ? {} : { cookie } })).json<{ token: string | null }>().token;
    assert.equal(SESSION_COOKIE, 'staykit_session');
    assert.equal(await token('staykit_session=abc; other=1'), 'abc');
    assert.equal(await token('staykit_session='), null);
    assert.equal(await token('other=1'), null);
    assert.equal(await token(), null);
  });
});
