/**
 * Dashboard sessions through the real app: login sets an HttpOnly, SameSite=Lax cookie and rotates it; the session
 * answers /auth/session and /v1 until logout, idle expiry or absolute expiry (on the app's settable clock); writes
 * with the cookie need the CSRF token; the Bearer key path is unchanged; failed logins all look alike; logins are
 * rate limited per e-mail address at a client address and per client address, counted before the password check.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { loadConfig } from '../../src/config.js';
import { createPasswordToken } from '../../src/users/password-links.js';
import Fastify from 'fastify';
import { sessionCookies, setSessionCookie } from '../../src/auth/session-cookie.js';
import { createUser, HOUR, login, testClock, type TestUser } from './support.js';
import { fixtures } from '../support/fixtures.js';
import { hashPassword } from '../../src/users/password.js';
import { setPasswordHash } from '../../src/users/user-store.js';

const IDLE_HOURS = 12;
const MAX_AGE_DAYS = 7;

forEachBackend('dashboard sessions', (ctx) => {
  const clock = testClock();
  let app: FastifyInstance;
  let org: TestOrganization;
  let other: TestOrganization;
  let owner: TestUser;

  before(async () => {
    app = await startApp(ctx.db, {
      now: clock.now,
      config: loadConfig({ STAYKIT_LOGIN_LIMIT_PER_EMAIL: '3', STAYKIT_LOGIN_LIMIT_PER_ADDRESS: '6' }),
    });
    org = await createOrganization(ctx.db, 'Seaside');
    other = await createOrganization(ctx.db, 'Lakeside');
    owner = await createUser(ctx.db, org.id, 'owner@example.com');
    await createUser(ctx.db, other.id, 'owner@example.com', { role: 'admin' });
  });
  after(() => app.close());

  const session = (cookie?: string) => app.inject({ method: 'GET', url: '/auth/session', headers: cookie ? { cookie } : {} });

  describe('login', () => {
    it('answers the user, their organizations and a CSRF token, and sets the session cookie', async () => {
      const { response } = await login(app, 'Owner@Example.com', owner.password);
      const body = response.json();
      assert.deepEqual(body.user, { id: owner.id, email: 'owner@example.com' });
      assert.deepEqual(body.organizations.map((o: { name: string; role: string }) => [o.name, o.role]), [['Lakeside', 'admin'], ['Seaside', 'owner']]);
      assert.match(body.csrf_token, /^[A-Za-z0-9_-]{43}$/);
      const cookie = String(response.headers['set-cookie']);
      assert.match(cookie, /^staykit_session=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
      assert.equal(response.headers['cache-control'], 'no-store');
    });

    it('gives a new session on every login and ends the one the browser had', async () => {
      const liveBefore = (await ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM staykit_internal.sessions WHERE user_id = $1 AND revoked_at IS NULL', [owner.id])).rows[0]!.n;
      const first = await login(app, owner.email, owner.password);
      const second = await login(app, owner.email, owner.password, first.cookie);
      assert.notEqual(second.cookie, first.cookie);
      assert.notEqual(second.csrf, first.csrf);
      assert.equal((await session(first.cookie)).statusCode, 401);
      assert.equal((await session(second.cookie)).statusCode, 200);
      await login(app, owner.email, owner.password, second.cookie);
      const { rows } = await ctx.db.query<{ live: number; ended: number }>(
        `SELECT count(*) FILTER (WHERE revoked_at IS NULL)::int AS live, count(*) FILTER (WHERE revoked_at IS NOT NULL)::int AS ended
         FROM staykit_internal.sessions WHERE user_id = $1`, [owner.id]);
      assert.deepEqual(rows[0], { live: 1 + liveBefore, ended: 0 }, 'a login forgets the ended sessions of the user');
    });

    it('answers a wrong password and an unknown e-mail address alike: 401 SK700, same body and headers', async () => {
      const wrong = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: owner.email, password: 'not the password' }, remoteAddress: '10.0.0.1' });
      const unknown = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'nobody@example.com', password: 'not the password' }, remoteAddress: '10.0.0.2' });
      assert.equal(wrong.statusCode, 401);
      assert.equal(unknown.statusCode, 401);
      assert.equal(wrong.body, unknown.body);
      assert.deepEqual(wrong.json(), { code: 'SK700', message: 'The e-mail address or password is wrong', details: null, hint: null });
      const shape = (headers: Record<string, unknown>) => Object.keys(headers).filter((name) => !['date', 'x-request-id'].includes(name)).sort();
      assert.deepEqual(shape(wrong.headers), shape(unknown.headers));
      assert.equal(wrong.headers['set-cookie'], undefined);
      assert.equal(wrong.headers['content-length'], unknown.headers['content-length']);
    });

    it('answers a malformed body with 400 SK705, never 500', async () => {
      for (const payload of [[], { email: owner.email }, { email: 'not-an-address', password: 'x' }, { email: 1, password: 2 }]) {
        const response = await app.inject({ method: 'POST', url: '/auth/login', payload });
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.equal(response.json().code, 'SK705');
      }
      // What an HTML form on another site can send: never a login.
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const form = await app.inject({ method: 'POST', url: '/auth/login', payload: `email=${owner.email}&password=${owner.password}`, headers: { 'content-type': type } });
        assert.ok(form.statusCode >= 400 && form.statusCode < 500, form.body);
        assert.equal(form.headers['set-cookie'], undefined);
      }
    });
  });

  describe('the session', () => {
    it('tells who is logged in, where, and with which grants', async () => {
      const { cookie, csrf } = await login(app, owner.email, owner.password);
      const response = await session(cookie);
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(body.user, { id: owner.id, email: owner.email });
      assert.equal(body.organization.name, 'Lakeside');
      assert.equal(body.member.role, 'admin');
      assert.deepEqual(body.member.permissions, []);
      assert.equal(body.csrf_token, csrf);
    });

    it('answers 401 SK701 without a cookie or with a made-up one', async () => {
      for (const cookie of [undefined, 'staykit_session=made-up', `staykit_session=${'A'.repeat(43)}`]) {
        const response = await session(cookie);
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().code, 'SK701');
      }
    });

    it('works for /v1 instead of a key, in the organization it is switched to', async () => {
      const { cookie, csrf } = await login(app, owner.email, owner.password);
      const read = () => app.inject({ method: 'GET', url: '/v1/organizations?select=name', headers: { cookie } });
      assert.deepEqual((await read()).json(), [{ name: 'Lakeside' }]);
      const refused = await app.inject({ method: 'POST', url: '/auth/organization', payload: { organization_id: org.id }, headers: { cookie } });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().code, 'SK702');
      const switched = await app.inject({ method: 'POST', url: '/auth/organization', payload: { organization_id: org.id }, headers: { cookie, 'x-csrf-token': csrf } });
      assert.equal(switched.statusCode, 200, switched.body);
      assert.equal(switched.json().organization.name, 'Seaside');
      assert.equal(switched.json().member.role, 'owner');
      assert.deepEqual((await read()).json(), [{ name: 'Seaside' }]);
    });

    it('refuses to switch to an organization the user is not a member of (403 SK704)', async () => {
      const stranger = await createOrganization(ctx.db, 'Elsewhere');
      const { cookie, csrf } = await login(app, owner.email, owner.password);
      const response = await app.inject({ method: 'POST', url: '/auth/organization', payload: { organization_id: stranger.id }, headers: { cookie, 'x-csrf-token': csrf } });
      assert.equal(response.statusCode, 403);
      assert.equal(response.json().code, 'SK704');
    });

    it('ends with logout: 204, and the cookie no longer works anywhere', async () => {
      const { cookie, csrf } = await login(app, owner.email, owner.password);
      const out = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie, 'x-csrf-token': csrf } });
      assert.equal(out.statusCode, 204);
      assert.match(String(out.headers['set-cookie']), /^staykit_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
      assert.equal((await session(cookie)).statusCode, 401);
      const api = await app.inject({ method: 'GET', url: '/v1/products', headers: { cookie } });
      assert.equal(api.statusCode, 401);
      assert.equal(api.json().code, 'SK701');
    });
  });

  describe('expiry on the app clock', () => {
    it(`ends a session left idle for ${IDLE_HOURS} hours`, async () => {
      const { cookie } = await login(app, owner.email, owner.password);
      clock.advance(IDLE_HOURS * HOUR - 1000);
      assert.equal((await session(cookie)).statusCode, 200);
      clock.advance(IDLE_HOURS * HOUR - 1000);
      assert.equal((await session(cookie)).statusCode, 200, 'each request restarts the idle time');
      clock.advance(IDLE_HOURS * HOUR + 1000);
      assert.equal((await session(cookie)).statusCode, 401);
    });

    it(`ends a session ${MAX_AGE_DAYS} days after login, however active`, async () => {
      const { cookie } = await login(app, owner.email, owner.password);
      for (let hours = 0; hours < MAX_AGE_DAYS * 24 - 10; hours += 10) {
        clock.advance(10 * HOUR);
        assert.equal((await session(cookie)).statusCode, 200, `after ${hours + 10} h`);
      }
      clock.advance(10 * HOUR);
      const expired = await app.inject({ method: 'GET', url: '/v1/products', headers: { cookie } });
      assert.equal(expired.statusCode, 401);
      assert.equal(expired.json().code, 'SK701');
    });
  });

  describe('CSRF', () => {
    it('needs X-CSRF-Token for cookie-authenticated writes, not for reads', async () => {
      const { cookie, csrf } = await login(app, owner.email, owner.password);
      const write = (headers: Record<string, string | undefined>) => app.inject({
        method: 'POST', url: '/v1/contacts', payload: { first_name: 'Ada' }, headers: { cookie, ...headers },
      });
      for (const headers of [{}, { 'x-csrf-token': 'wrong' }, { 'x-csrf-token': `${csrf.slice(1)}x` }]) {
        const refused = await write(headers);
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().code, 'SK702');
      }
      assert.equal((await write({ 'x-csrf-token': csrf })).statusCode, 201);
      const read = await app.inject({ method: 'GET', url: '/v1/contacts?select=first_name', headers: { cookie } });
      assert.deepEqual(read.json(), [{ first_name: 'Ada' }]);
    });

    it('needs the token to log out of a live session, so another site cannot end it; a dead cookie is just cleared', async () => {
      const { cookie, csrf } = await login(app, owner.email, owner.password);
      for (const headers of [{ cookie }, { cookie, 'x-csrf-token': 'wrong' }]) {
        const refused = await app.inject({ method: 'POST', url: '/auth/logout', headers });
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().code, 'SK702');
        assert.equal(refused.headers['set-cookie'], undefined);
      }
      assert.equal((await session(cookie)).statusCode, 200, 'the refused logout ended nothing');
      assert.equal((await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie, 'x-csrf-token': csrf } })).statusCode, 204);
      const dead = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie } });
      assert.equal(dead.statusCode, 204, 'an ended session needs no token to clear its cookie');
      assert.match(String(dead.headers['set-cookie']), /^staykit_session=; Max-Age=0/);
      assert.equal((await app.inject({ method: 'POST', url: '/auth/logout' })).statusCode, 204);
    });

    it('needs the token for a GET that writes (availability with perform_sync=true), not for the same read without it', async () => {
      const unit = await fixtures(ctx.db, other.id).product();
      const { cookie, csrf } = await login(app, owner.email, owner.password);
      const availability = (query: string, headers: Record<string, string> = {}) =>
        app.inject({ method: 'GET', url: `/v1/availability?product_ids=${unit}&start=2027-03-01&end=2027-03-05${query}`, headers: { cookie, ...headers } });
      for (const query of ['&perform_sync=true', '&perform_sync=false&perform_sync=true']) {
        const refused = await availability(query);
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().code, 'SK702');
      }
      assert.equal((await availability('&perform_sync=true', { 'x-csrf-token': csrf })).statusCode, 200);
      assert.equal((await availability('')).statusCode, 200);
      assert.equal((await availability('&perform_sync=false')).statusCode, 200);
      const withKey = await app.inject({ method: 'GET', url: `/v1/availability?product_ids=${unit}&perform_sync=true`, headers: bearer(other.key) });
      assert.equal(withKey.statusCode, 200, 'an API key needs no token');
    });

    it('leaves the Bearer key path as it was: the key decides, no CSRF token needed', async () => {
      const { cookie } = await login(app, owner.email, owner.password);
      const response = await app.inject({
        method: 'POST', url: '/v1/contacts', payload: { first_name: 'Grace' }, headers: { cookie, ...bearer(org.key), prefer: 'return=representation' },
      });
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(response.json()[0].organization_id, org.id);
    });
  });

  describe('set-password links', () => {
    it('set a password once; the old password and its sessions stop working', async () => {
      const before = await login(app, owner.email, owner.password);
      const token = await createPasswordToken(ctx.db, owner.id, clock.now());
      const weak = await app.inject({ method: 'POST', url: '/auth/set-password', payload: { token, password: 'short' } });
      assert.equal(weak.statusCode, 400);
      assert.equal(weak.json().code, 'SK705');
      const set = await app.inject({ method: 'POST', url: '/auth/set-password', payload: { token, password: 'a new long passphrase' } });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json().user, { id: owner.id, email: owner.email });
      assert.equal((await session(before.cookie)).statusCode, 401);
      const again = await app.inject({ method: 'POST', url: '/auth/set-password', payload: { token, password: 'yet another passphrase' } });
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().code, 'SK706');
      const old = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: owner.email, password: owner.password } });
      assert.equal(old.statusCode, 401);
      await login(app, owner.email, 'a new long passphrase');
      owner.password = 'a new long passphrase';
    });

    it('refuses white space, common and guessable passwords with a 400 saying why, and keeps the link usable', async () => {
      const token = await createPasswordToken(ctx.db, owner.id, clock.now());
      const cases: [string, RegExp][] = [
        [' '.repeat(10), /^The password must be more than white space$/],
        ['\t \n '.repeat(4), /^The password must be more than white space$/],
        ['password1234', /^The password is too easy to guess\. This is similar to a commonly used password\./],
        ['qwertyuiop', /^The password is too easy to guess\. This is a frequently used password\./],
        ['1234567890', /^The password is too easy to guess\./],
        ['owner@example.com', /^The password is too easy to guess\./],
        ['x'.repeat(257), /^The password must have at most 256 characters$/],
        // Judged by its first 20 characters: a long repetition of a common word is no better than the word.
        ['password'.repeat(32), /^The password is too easy to guess\./],
      ];
      for (const [password, why] of cases) {
        const refused = await app.inject({ method: 'POST', url: '/auth/set-password', payload: { token, password } });
        assert.equal(refused.statusCode, 400, JSON.stringify(password));
        assert.equal(refused.json().code, 'SK705');
        assert.match(refused.json().message, why, JSON.stringify(password));
      }
      const set = await app.inject({ method: 'POST', url: '/auth/set-password', payload: { token, password: 'velvet lantern orbit' } });
      assert.equal(set.statusCode, 200, set.body);
      owner.password = 'velvet lantern orbit';
      await login(app, owner.email, owner.password);
    });

    it('checks the link before the password: a made-up link is 400 SK706 whatever the password', async () => {
      const response = await app.inject({ method: 'POST', url: '/auth/set-password', payload: { token: 'A'.repeat(43), password: 'short' } });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'SK706');
    });

    it('voids an older link once a newer one is made', async () => {
      const setWith = (token: string, password: string) => app.inject({ method: 'POST', url: '/auth/set-password', payload: { token, password } });
      const older = await createPasswordToken(ctx.db, owner.id, clock.now());
      const newer = await createPasswordToken(ctx.db, owner.id, clock.now());
      const voided = await setWith(older, 'an older link passphrase');
      assert.equal(voided.statusCode, 400, voided.body);
      assert.equal(voided.json().code, 'SK706');
      assert.equal((await setWith(newer, 'the newer link passphrase')).statusCode, 200);
      owner.password = 'the newer link passphrase';
      await login(app, owner.email, owner.password);
    });

    it('voids every link made before a new password, however the password was set', async () => {
      const pending = await createPasswordToken(ctx.db, owner.id, clock.now());
      // As `staykit user reset-password --password-stdin` sets it: no link involved.
      await setPasswordHash(ctx.db, owner.id, await hashPassword('set without a link'), clock.now());
      const response = await app.inject({ method: 'POST', url: '/auth/set-password', payload: { token: pending, password: 'from the pending link' } });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'SK706');
      owner.password = 'set without a link';
      await login(app, owner.email, owner.password);
    });

    it('refuses an expired link', async () => {
      const token = await createPasswordToken(ctx.db, owner.id, clock.now());
      clock.advance(73 * HOUR);
      const response = await app.inject({ method: 'POST', url: '/auth/set-password', payload: { token, password: 'a passphrase too late' } });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'SK706');
    });
  });

  describe('login rate limits', () => {
    const attempt = (email: string, password: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress });
    const statuses = async (responses: Promise<{ statusCode: number }>[]) => {
      const counts: Record<number, number> = {};
      for (const { statusCode } of await Promise.all(responses)) counts[statusCode] = (counts[statusCode] ?? 0) + 1;
      return counts;
    };

    it('counts a try before the password is checked: 40 wrong passwords at once for one e-mail address, 3 checked', async () => {
      const target = await createUser(ctx.db, org.id, 'burst@example.com', { role: 'staff' });
      const burst = Array.from({ length: 40 }, () => attempt(target.email, 'a wrong guess', '192.0.2.10'));
      assert.deepEqual(await statuses(burst), { 401: 3, 429: 37 });
      const limited = await attempt(target.email, target.password, '192.0.2.10');
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'SK429');
      assert.match(limited.json().details, /"login-email" rate-limit policy is exhausted; retry in \d+ s/);
      assert.ok(Number(limited.headers['retry-after']) > 0);
    });

    it('caps a client address over every e-mail address: 3 addresses × 20 at once, 6 checked', async () => {
      const burst = ['one', 'two', 'three'].flatMap((name) =>
        Array.from({ length: 20 }, () => attempt(`${name}@example.com`, 'a wrong guess', '192.0.2.11')));
      assert.deepEqual(await statuses(burst), { 401: 6, 429: 54 });
      const fromThere = await attempt(owner.email, owner.password, '192.0.2.11');
      assert.equal(fromThere.statusCode, 429);
      assert.match(fromThere.json().details, /login-address/);
      assert.equal((await attempt(owner.email, owner.password, '192.0.2.12')).statusCode, 200, 'from elsewhere it still logs in');
    });

    it('cannot be aimed at a victim: their right password from their own address works while the attacker is refused', async () => {
      const victim = await createUser(ctx.db, org.id, 'victim@example.com', { role: 'staff' });
      for (let i = 0; i < 3; i++) assert.equal((await attempt(victim.email, `guess number ${i}`, '203.0.113.66')).statusCode, 401);
      const attacker = await attempt(victim.email, victim.password, '203.0.113.66');
      assert.equal(attacker.statusCode, 429, 'the attacker has used up their tries for this e-mail address, even a right one');
      assert.match(attacker.json().details, /login-email/);
      const own = await attempt(victim.email, victim.password, '198.51.100.77');
      assert.equal(own.statusCode, 200, own.body);
      assert.ok(own.headers['set-cookie']);
    });

    it('a successful login gives its try back and clears the e-mail address\'s budget at that client address', async () => {
      const user = await createUser(ctx.db, org.id, 'typo@example.com', { role: 'staff' });
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 2; i++) assert.equal((await attempt(user.email, 'a typo of it', '192.0.2.13')).statusCode, 401);
        assert.equal((await attempt(user.email, user.password, '192.0.2.13')).statusCode, 200, `round ${round}`);
      }
      // 4 failures in all from there: the address's budget (6) still has 2, the e-mail address's (3) all of its own.
      for (let i = 0; i < 2; i++) assert.equal((await attempt(user.email, 'a typo of it', '192.0.2.13')).statusCode, 401);
      assert.equal((await attempt('else@example.com', 'a typo of it', '192.0.2.13')).statusCode, 429);
    });
  });
});

describe('the session cookie over HTTPS', () => {
  it('is Secure when the request came over HTTPS (here: through a trusted proxy), and only then', async () => {
    const app = Fastify({ trustProxy: true });
    await sessionCookies(app);
    app.get('/', async (request, reply) => {
      setSessionCookie(request, reply, 'token', 60);
      return 'ok';
    });
    try {
      const https = await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(https.headers['set-cookie'], 'staykit_session=token; Max-Age=60; Path=/; HttpOnly; Secure; SameSite=Lax');
      const http = await app.inject({ method: 'GET', url: '/' });
      assert.doesNotMatch(String(http.headers['set-cookie']), /Secure/);
    } finally {
      await app.close();
    }
  });
});
