/**
 * The demo organization's dashboard login (demo@staykit.local, owner): created with the demo data so the first
 * `npm start` can print a login next to the API key. Its password is random, made here, and shown only to whoever
 * seeds; a user who exists already (a second `staykit seed`) keeps their password and just joins the organization.
 */
import type { Queryable } from '../db/types.js';
import { generatePassword, hashPassword } from './password.js';
import { addMembership, ensureUser, setPasswordHash } from './user-store.js';

export const DEMO_USER_EMAIL = 'demo@staykit.local';

export interface DemoLogin {
  email: string;
  password: string;
}

/** Makes the demo user an owner of the organization; returns the login when the password was set now. */
export async function addDemoUser(db: Queryable, organizationId: string): Promise<DemoLogin | null> {
  const user = await ensureUser(db, DEMO_USER_EMAIL);
  await addMembership(db, { userId: user.id, email: user.email, organizationId, name: 'Demo owner', role: 'owner' });
  if (user.password_hash !== null) return null;
  const password = generatePassword();
  await setPasswordHash(db, user.id, await hashPassword(password), new Date());
  return { email: user.email, password };
}
