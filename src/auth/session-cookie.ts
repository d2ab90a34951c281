/**
 * The session cookie `staykit_session`: HttpOnly (scripts never see it), SameSite=Lax (not sent with cross-site
 * POSTs), Secure when the request came over HTTPS (`request.protocol`, which follows STAYKIT_TRUST_PROXY), Path=/.
 * Read and written through @fastify/cookie, which `sessionCookies` registers on the app.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';

export const SESSION_COOKIE = 'staykit_session';

/** Cookie parsing for every route of the app (`request.cookies`, `reply.setCookie`). */
export async function sessionCookies(app: FastifyInstance): Promise<void> {
  if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);
}

/** The session token the request carries, if any. */
export function sessionCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[SESSION_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

const attributes = (request: FastifyRequest) => ({
  httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', path: '/',
}) as const;

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  void reply.setCookie(SESSION_COOKIE, token, { ...attributes(request), maxAge: maxAgeSeconds });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, attributes(request));
}
