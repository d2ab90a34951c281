/** The session endpoints (docs/dashboard.md, "Sessions API"). */
import type { Enums } from './database';
import { requestJson, setCsrfToken } from './http';

export type Access = Enums<'permissions_access'>;

export interface Permission {
  resource: string;
  access: Access;
}

export interface Session {
  user: { id: string; email: string };
  organization: { id: string; name: string; timezone?: string; currency?: string; language?: string };
  /** `scopes`: the role and permissions in the API keys' scope language, which the server enforces. */
  member: { id: string; name: string; role: string; permissions: Permission[]; scopes: string[] };
  organizations: { id: string; name: string; role: string }[];
  csrf_token: string;
}

export interface LoginAnswer {
  user: { id: string; email: string };
  organizations: { id: string; name: string; role: string }[];
  csrf_token: string;
}

/** The current session, or null when there is none (401). */
export async function currentSession(): Promise<Session | null> {
  try {
    const session = await requestJson<Session>('GET', '/auth/session');
    setCsrfToken(session.csrf_token);
    return session;
  } catch (error) {
    if ((error as { status?: number }).status === 401) return null;
    throw error;
  }
}

export async function logIn(email: string, password: string): Promise<LoginAnswer> {
  const answer = await requestJson<LoginAnswer>('POST', '/auth/login', { email, password });
  setCsrfToken(answer.csrf_token);
  return answer;
}

export async function logOut(): Promise<void> {
  await requestJson<void>('POST', '/auth/logout');
  setCsrfToken(null);
}

export async function switchOrganization(organizationId: string): Promise<void> {
  await requestJson<unknown>('POST', '/auth/organization', { organization_id: organizationId });
}

/** Sets the password with the one-time link's token (`/admin/set-password?token=…`). */
export async function setPassword(token: string, password: string): Promise<void> {
  await requestJson<unknown>('POST', '/auth/set-password', { token, password });
}
