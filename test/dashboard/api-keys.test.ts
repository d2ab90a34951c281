/**
 * /admin/api/keys: the dashboard's API key management, reachable only with a dashboard session (never with a key),
 * within the session's organization, with the CSRF token on writes, and never granting a key more than its
 * creator's own scopes.
 */
import { before, after, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { forEachBackend } from '../support/databases.js';
import { createUser, login, type Session } from '../users/support.js';

forEachBackend('dashboard API keys', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let other: TestOrganization;
  let owner: Session;
  let cleaner: Session;
  let integrator: Session;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Seaside');
    other = await createOrganization(ctx.db, 'Elsewhere');
    const users = [
      await createUser(ctx.db, org.id, 'owner@example.com', { role: 'owner' }),
      await createUser(ctx.db, org.id, 'cleaner@example.com', { role: 'cleaner', permissions: [{ resource: 'calendar_events', access: 'read' }] }),
      await createUser(ctx.db, org.id, 'integrator@example.com', {
        role: 'staff', permissions: [{ resource: 'api_keys', access: 'write' }, { resource: 'bookings', access: 'read' }],
      }),
    ];
    [owner, cleaner, integrator] = await Promise.all(users.map((user) => login(app, user.email, user.password))) as [Session, Session, Session];
  });
  after(() => app.close());

  const create = (session: Session, body: unknown, csrf = session.csrf) => app.inject({
    method: 'POST', url: '/admin/api/keys', payload: body as object, headers: { cookie: session.cookie, 'x-csrf-token': csrf },
  });

  it('an owner creates a key, shown once, that works against /v1 with its scopes only; the list never shows secrets', async () => {
    const created = await create(owner, { name: 'Website', scopes: ['bookings:read'], expires_at: '2099-01-01' });
    assert.equal(created.statusCode, 201, created.body);
    const key = created.json();
    assert.match(key.api_key, /^sk_[a-z2-7]{12}_/);
    assert.deepEqual(key.scopes, ['bookings:read']);
    assert.equal(Date.parse(key.expires_at), Date.parse('2099-01-01T00:00:00Z'));
    const read = await app.inject({ url: '/v1/bookings', headers: { authorization: `Bearer ${key.api_key}` } });
    assert.equal(read.statusCode, 200);
    const write = await app.inject({ method: 'POST', url: '/v1/coupons', headers: { authorization: `Bearer ${key.api_key}` }, payload: {} });
    assert.equal(write.statusCode, 403);
    const list = await app.inject({ url: '/admin/api/keys', headers: { cookie: owner.cookie } });
    assert.equal(list.statusCode, 200);
    assert.ok(list.json().some((row: { key_id: string }) => row.key_id === key.key_id));
    assert.doesNotMatch(list.body, /sk_[a-z2-7]{12}_/);
    assert.equal(list.headers['cache-control'], 'no-store');
  });

  it('revokes a key of its organization; another organization\'s key is not found', async () => {
    const key = (await create(owner, { name: 'Short-lived', scopes: ['read'] })).json();
    const revoked = await app.inject({ method: 'DELETE', url: `/admin/api/keys/${key.key_id}`, headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf } });
    assert.equal(revoked.statusCode, 200);
    assert.ok(revoked.json().revoked_at);
    assert.equal((await app.inject({ url: '/v1/bookings', headers: { authorization: `Bearer ${key.api_key}` } })).statusCode, 401);
    const foreign = other.key.split('_')[1]!;
    const refused = await app.inject({ method: 'DELETE', url: `/admin/api/keys/${foreign}`, headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf } });
    assert.equal(refused.statusCode, 404);
    assert.equal((await app.inject({ url: '/v1/bookings', headers: { authorization: `Bearer ${other.key}` } })).statusCode, 200);
  });

  it('needs a session (an API key is not one), the CSRF token on writes, and the api_keys permission', async () => {
    assert.equal((await app.inject({ url: '/admin/api/keys' })).statusCode, 401);
    assert.equal((await app.inject({ url: '/admin/api/keys', headers: { authorization: `Bearer ${org.key}` } })).statusCode, 401);
    const noCsrf = await create(owner, { name: 'x', scopes: ['read'] }, 'not-the-token');
    assert.equal(noCsrf.statusCode, 403);
    assert.equal(noCsrf.json().code, 'SK702');
    const cleanerList = await app.inject({ url: '/admin/api/keys', headers: { cookie: cleaner.cookie } });
    assert.equal(cleanerList.statusCode, 403);
    assert.equal(cleanerList.json().code, 'SK703');
    assert.equal((await create(cleaner, { name: 'x', scopes: ['calendar_events:read'] })).statusCode, 403);
  });

  it('a member gives a key no scope beyond their own', async () => {
    const within = await create(integrator, { name: 'Reports', scopes: ['bookings:read'] });
    assert.equal(within.statusCode, 201, within.body);
    for (const scope of ['write', 'read', 'bookings:write', 'contacts:read']) {
      const beyond = await create(integrator, { name: 'Too much', scopes: [scope] });
      assert.equal(beyond.statusCode, 403, scope);
      assert.equal(beyond.json().code, 'SK703');
      assert.match(beyond.json().message, new RegExp(scope));
    }
  });

  it('bad input is a 400 that names the field', async () => {
    const cases: [unknown, RegExp][] = [
      [[], /JSON object/],
      [{ scopes: ['read'] }, /^name is required/],
      [{ name: ' ', scopes: ['read'] }, /"name"/],
      [{ name: 'x', scopes: 'read' }, /^scopes must be an array/],
      [{ name: 'x', scopes: ['read'], secret: 'mine' }, /^Unknown field: secret/],
      [{ name: 'x', scopes: [] }, /at least one scope/],
      [{ name: 'x', scopes: ['nope:read'] }, /no resource "nope"/],
      [{ name: 'x', scopes: ['read'], expires_at: 'tomorrow' }, /"expires_at"/],
      [{ name: 'x', scopes: ['read'], expires_at: '2001-01-01' }, /in the future/],
    ];
    for (const [body, message] of cases) {
      const answer = await create(owner, body);
      assert.equal(answer.statusCode, 400, JSON.stringify(body));
      assert.match(answer.json().message, message);
    }
  });
});
