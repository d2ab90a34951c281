/** Dashboard users for tests, created the way `staykit user create` does, and logging them in through the real app. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../src/db/types.js';
import { hashPassword } from '../../src/users/password.js';
import { addMembership, ensureUser, setPasswordHash, type MemberRole } from '../../src/users/user-store.js';
import type { MemberPermission } from '../../src/auth/session-permissions.js';
import { fixtures } from '../support/fixtures.js';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  memberId: string;
}

/** A user with a password, member of `organizationId` with `role` and `permissions`. */
export async function createUser(
  db: Database, organizationId: string, email: string,
  options: { role?: MemberRole; permissions?: MemberPermission[]; password?: string } = {},
): Promise<TestUser> {
  const password = options.password ?? 'correct horse battery staple';
  const user = await ensureUser(db, email);
  await setPasswordHash(db, user.id, await hashPassword(password), new Date());
  const memberId = await addMembership(db, { userId: user.id, email, organizationId, name: email.split('@')[0]!, role: options.role ?? 'owner' });
  for (const permission of options.permissions ?? []) {
    await fixtures(db, organizationId).row('permissions', { member_id: memberId, ...permission });
  }
  return { id: user.id, email, password, memberId };
}

/** The `name=value` of the response's session cookie, for a Cookie header. */
export function sessionCookieOf(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const cookie = (Array.isArray(header) ? header : [header]).find((value) => value?.startsWith('staykit_session='));
  if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(response.headers)}`);
  return cookie.split(';')[0]!;
}

export interface Session {
  cookie: string;
  csrf: string;
  response: LightMyRequestResponse;
}

export async function login(app: FastifyInstance, email: string, password: string, cookie?: string): Promise<Session> {
  const response = await app.inject({
    method: 'POST', url: '/auth/login', payload: { email, password }, headers: cookie ? { cookie } : {},
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return { cookie: sessionCookieOf(response), csrf: response.json().csrf_token, response };
}

/** A settable clock for the app (`now`), starting at a fixed instant. */
export function testClock(start = '2026-11-25T08:00:00Z') {
  let time = new Date(start).getTime();
  return {
    now: () => new Date(time),
    advance(ms: number) {
      time += ms;
    },
  };
}

export const HOUR = 3_600_000;
