/**
 * Nobody grants more than they hold (migration 0190): a manager who may write `permissions` and `members` manages
 * the grants they hold themselves, but cannot give themselves `*` write, make themselves `admin`, or remove the
 * owner — through a dashboard session and through an API key alike, and whatever statement reaches the database.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { createUser, login, type Session, type TestUser } from './support.js';

const MANAGER_GRANTS = [
  { resource: 'members', access: 'write' as const },
  { resource: 'permissions', access: 'write' as const },
  { resource: 'calendar_events', access: 'write' as const },
];

function assertRefused(response: LightMyRequestResponse, grant: RegExp) {
  assert.equal(response.statusCode, 403, response.body);
  assert.equal(response.json().code, 'SK408');
  assert.match(response.json().message, grant);
}

forEachBackend('grant ceiling', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let owner: TestUser;
  let manager: TestUser;
  let cleaner: TestUser;
  let managerSession: Session;
  let ownerSession: Session;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Harbour');
    owner = await createUser(ctx.db, org.id, 'owner@harbour.example', { role: 'owner' });
    manager = await createUser(ctx.db, org.id, 'manager@harbour.example', { role: 'manager', permissions: MANAGER_GRANTS });
    cleaner = await createUser(ctx.db, org.id, 'cleaner@harbour.example', { role: 'cleaner' });
    managerSession = await login(app, manager.email, manager.password);
    ownerSession = await login(app, owner.email, owner.password);
  });
  after(() => app.close());

  const send = (session: Session, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, payload, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, prefer: 'return=representation' } });
  const grantsOf = async (memberId: string) =>
    (await ctx.db.query<{ grant: string }>(
      `SELECT resource || ':' || access AS grant FROM api.permissions WHERE member_id = $1 ORDER BY 1`, [memberId],
    )).rows.map((row) => row.grant);
  const roleOf = async (memberId: string) =>
    (await ctx.db.query<{ role: string }>('SELECT role FROM api.members WHERE id = $1', [memberId])).rows[0]?.role;

  describe('a manager with members:write and permissions:write', () => {
    it('cannot give themselves * write or a table they do not hold', async () => {
      assertRefused(await send(managerSession, 'POST', '/v1/permissions', { member_id: manager.memberId, resource: '*', access: 'write' }), /grant \*:write/);
      assertRefused(await send(managerSession, 'POST', '/v1/permissions', { member_id: manager.memberId, resource: 'contacts', access: 'read' }), /grant contacts:read/);
      assert.deepEqual(await grantsOf(manager.memberId), ['calendar_events:write', 'members:write', 'permissions:write']);
    });

    it('cannot widen a grant they hold into one they do not by changing it', async () => {
      const response = await send(managerSession, 'PATCH', `/v1/permissions?member_id=eq.${manager.memberId}&resource=eq.calendar_events`, { resource: 'bookings' });
      assertRefused(response, /grant bookings:write/);
      assert.deepEqual(await grantsOf(manager.memberId), ['calendar_events:write', 'members:write', 'permissions:write']);
    });

    it('grants others what they hold, and takes it back', async () => {
      const granted = await send(managerSession, 'POST', '/v1/permissions', { member_id: cleaner.memberId, resource: 'calendar_events', access: 'write' });
      assert.equal(granted.statusCode, 201, granted.body);
      assert.deepEqual(await grantsOf(cleaner.memberId), ['calendar_events:write']);
      const removed = await send(managerSession, 'DELETE', `/v1/permissions?member_id=eq.${cleaner.memberId}`);
      assert.equal(removed.statusCode, 200, removed.body);
      assert.deepEqual(await grantsOf(cleaner.memberId), []);
    });

    it('cannot make themselves admin, nor add an owner', async () => {
      assertRefused(await send(managerSession, 'PATCH', `/v1/members?id=eq.${manager.memberId}`, { role: 'admin' }), /change role manager to admin/);
      assert.equal(await roleOf(manager.memberId), 'manager');
      assertRefused(await send(managerSession, 'POST', '/v1/members', { name: 'Accomplice', role: 'owner' }), /add a member with role owner/);
    });

    it('cannot demote, deactivate or remove the owner', async () => {
      assertRefused(await send(managerSession, 'PATCH', `/v1/members?id=eq.${owner.memberId}`, { role: 'staff' }), /change role owner to staff/);
      assertRefused(await send(managerSession, 'PATCH', `/v1/members?id=eq.${owner.memberId}`, { active: false }), /deactivate/);
      assertRefused(await send(managerSession, 'DELETE', `/v1/members?id=eq.${owner.memberId}`), /remove a member with role owner/);
      assert.equal(await roleOf(owner.memberId), 'owner');
    });

    it('cannot take over another login by moving a member row to it', async () => {
      assertRefused(await send(managerSession, 'PATCH', `/v1/members?id=eq.${cleaner.memberId}`, { user_id: null }), /link a member to another login/);
    });

    it('still manages ordinary roles', async () => {
      const response = await send(managerSession, 'PATCH', `/v1/members?id=eq.${cleaner.memberId}`, { role: 'maintenance' });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(await roleOf(cleaner.memberId), 'maintenance');
    });
  });

  it('an owner promotes and grants anything', async () => {
    const member = await send(ownerSession, 'POST', '/v1/members', { name: 'Deputy', role: 'admin' });
    assert.equal(member.statusCode, 201, member.body);
    const grant = await send(ownerSession, 'POST', '/v1/permissions', { member_id: cleaner.memberId, resource: '*', access: 'write' });
    assert.equal(grant.statusCode, 201, grant.body);
  });

  it('holds an API key to its own scopes the same way', async () => {
    const key = await createKey(ctx.db, org.id, ['permissions:write', 'members:write']);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const response = await app.inject({
      method: 'POST', url: '/v1/permissions', headers,
      payload: { member_id: manager.memberId, resource: '*', access: 'write' },
    });
    assertRefused(response, /grant \*:write/);
    const promote = await app.inject({ method: 'PATCH', url: `/v1/members?id=eq.${manager.memberId}`, headers, payload: { role: 'owner' } });
    assertRefused(promote, /change role manager to owner/);
  });
});
