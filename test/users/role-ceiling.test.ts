/**
 * Nobody manages a member above their own role (migration 0201), through /v1/members and /v1/permissions with a
 * dashboard session: a staff member with `members:write` cannot redirect the owner's task e-mails by changing the
 * owner's member e-mail, nor raise anyone (themselves included) above staff, nor remove or change a manager; an admin
 * cannot demote, edit or remove the owner. Each keeps managing the members at or below their own rank. The rule is
 * the database's, so every statement is held to it, bulk ones included; API keys keep to migration 0190's ceiling.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { createUser, login, type Session, type TestUser } from './support.js';

const MEMBER_MANAGER = [
  { resource: 'members', access: 'write' as const },
  { resource: 'permissions', access: 'write' as const },
  { resource: 'calendar_events', access: 'write' as const },
];

function assertRefused(response: LightMyRequestResponse, what: RegExp): void {
  assert.equal(response.statusCode, 403, response.body);
  assert.equal(response.json().code, 'SK708', response.body);
  assert.match(response.json().message, what);
}

forEachBackend('member role ceiling', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let owner: TestUser;
  let admin: TestUser;
  let manager: TestUser;
  let staff: TestUser;
  let cleaner: TestUser;
  let staffSession: Session;
  let adminSession: Session;
  let managerSession: Session;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Ceiling');
    owner = await createUser(ctx.db, org.id, 'owner@ceiling.example', { role: 'owner' });
    admin = await createUser(ctx.db, org.id, 'admin@ceiling.example', { role: 'admin' });
    manager = await createUser(ctx.db, org.id, 'manager@ceiling.example', { role: 'manager', permissions: MEMBER_MANAGER });
    staff = await createUser(ctx.db, org.id, 'staff@ceiling.example', { role: 'staff', permissions: MEMBER_MANAGER });
    cleaner = await createUser(ctx.db, org.id, 'cleaner@ceiling.example', { role: 'cleaner' });
    staffSession = await login(app, staff.email, staff.password);
    adminSession = await login(app, admin.email, admin.password);
    managerSession = await login(app, manager.email, manager.password);
  });
  after(() => app.close());

  const send = (session: Session, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, payload, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, prefer: 'return=representation' } });
  const member = async (id: string) =>
    (await ctx.db.query<{ role: string; email: string | null; active: boolean }>('SELECT role, email, active FROM api.members WHERE id = $1', [id])).rows[0];

  describe('a staff member with members:write and permissions:write', () => {
    it("cannot change the owner's member e-mail, which the owner's task e-mails go to", async () => {
      assertRefused(await send(staffSession, 'PATCH', `/v1/members?id=eq.${owner.memberId}`, { email: 'attacker@evil.example' }),
        /^You may not change a member with role owner, which is above your own role \(staff\)$/);
      assert.equal((await member(owner.memberId))?.email, owner.email);
    });

    it('cannot change, deactivate or remove a manager, nor their permissions', async () => {
      assertRefused(await send(staffSession, 'PATCH', `/v1/members?id=eq.${manager.memberId}`, { phone: '+31 6 0000 0000' }), /change a member with role manager/);
      assertRefused(await send(staffSession, 'PATCH', `/v1/members?id=eq.${manager.memberId}`, { active: false }), /change a member with role manager/);
      assertRefused(await send(staffSession, 'DELETE', `/v1/members?id=eq.${manager.memberId}`), /remove a member with role manager/);
      assertRefused(await send(staffSession, 'DELETE', `/v1/permissions?member_id=eq.${manager.memberId}&resource=eq.calendar_events`),
        /change the permissions of a member with role manager/);
      assert.deepEqual(await member(manager.memberId), { role: 'manager', email: manager.email, active: true });
    });

    it('cannot raise anyone above staff, themselves included, nor add a manager', async () => {
      assertRefused(await send(staffSession, 'PATCH', `/v1/members?id=eq.${staff.memberId}`, { role: 'manager' }), /give a member the role manager/);
      assertRefused(await send(staffSession, 'PATCH', `/v1/members?id=eq.${cleaner.memberId}`, { role: 'manager' }), /give a member the role manager/);
      assertRefused(await send(staffSession, 'POST', '/v1/members', { name: 'Accomplice', role: 'manager' }), /give a member the role manager/);
      assert.equal((await member(staff.memberId))?.role, 'staff');
      assert.equal((await member(cleaner.memberId))?.role, 'cleaner');
    });

    it('changes nothing with a statement that touches one member above them among others', async () => {
      const response = await send(staffSession, 'PATCH', `/v1/members?id=in.(${cleaner.memberId},${owner.memberId})`, { phone: '+31 6 1111 1111' });
      assertRefused(response, /change a member with role owner/);
      const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api.members WHERE phone = '+31 6 1111 1111'`);
      assert.equal(rows[0]!.n, 0);
    });

    it('still manages members of their own rank and below, and themselves', async () => {
      const own = await send(staffSession, 'PATCH', `/v1/members?id=eq.${staff.memberId}`, { phone: '+31 6 2222 2222' });
      assert.equal(own.statusCode, 200, own.body);
      const promoted = await send(staffSession, 'PATCH', `/v1/members?id=eq.${cleaner.memberId}`, { role: 'staff' });
      assert.equal(promoted.statusCode, 200, promoted.body);
      const added = await send(staffSession, 'POST', '/v1/members', { name: 'New cleaner', role: 'cleaner' });
      assert.equal(added.statusCode, 201, added.body);
      const removed = await send(staffSession, 'DELETE', `/v1/members?id=eq.${added.json()[0].id}`);
      assert.equal(removed.statusCode, 200, removed.body);
      const back = await send(staffSession, 'PATCH', `/v1/members?id=eq.${cleaner.memberId}`, { role: 'cleaner' });
      assert.equal(back.statusCode, 200, back.body);
    });
  });

  describe('an admin', () => {
    it('cannot demote, edit or remove the owner', async () => {
      assertRefused(await send(adminSession, 'PATCH', `/v1/members?id=eq.${owner.memberId}`, { role: 'staff' }), /change a member with role owner/);
      assertRefused(await send(adminSession, 'PATCH', `/v1/members?id=eq.${owner.memberId}`, { email: 'admin@ceiling.example' }), /change a member with role owner/);
      assertRefused(await send(adminSession, 'DELETE', `/v1/members?id=eq.${owner.memberId}`), /remove a member with role owner/);
      assertRefused(await send(adminSession, 'PATCH', `/v1/members?id=eq.${admin.memberId}`, { role: 'owner' }), /give a member the role owner/);
      assert.deepEqual(await member(owner.memberId), { role: 'owner', email: owner.email, active: true });
    });

    it('manages a manager', async () => {
      const response = await send(adminSession, 'PATCH', `/v1/members?id=eq.${manager.memberId}`, { phone: '+31 6 3333 3333' });
      assert.equal(response.statusCode, 200, response.body);
    });
  });

  it('a manager promotes a cleaner up to their own role, and back', async () => {
    const up = await send(managerSession, 'PATCH', `/v1/members?id=eq.${cleaner.memberId}`, { role: 'manager' });
    assert.equal(up.statusCode, 200, up.body);
    const down = await send(managerSession, 'PATCH', `/v1/members?id=eq.${cleaner.memberId}`, { role: 'cleaner' });
    assert.equal(down.statusCode, 200, down.body);
  });

  it('holds API keys to their grants only (migration 0190), not to a role they do not have', async () => {
    const key = await createKey(ctx.db, org.id, ['members:write']);
    const response = await app.inject({
      method: 'PATCH', url: `/v1/members?id=eq.${manager.memberId}`, headers: { authorization: `Bearer ${key}` }, payload: { phone: '+31 6 4444 4444' },
    });
    assert.equal(response.statusCode, 204, response.body);
  });
});
