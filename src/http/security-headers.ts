/**
 * Headers on every answer of the server — API, /docs, /admin, /health, errors and 404s alike — set in one onSend
 * hook of the app, so a route cannot forget them:
 * - `X-Content-Type-Options: nosniff`: a browser takes every body for the type it is declared as, so a JSON answer
 *   or a file never runs as a script or renders as HTML.
 * - Framing: an answer whose route sets no Content-Security-Policy of its own gets `frame-ancestors 'none'` (and
 *   X-Frame-Options: DENY for browsers that predate it), so no other site can frame a page of this server and
 *   trick someone into clicking or typing in it (clickjacking; /docs is where API keys are pasted). A route that
 *   sets its own policy decides its own framing: the widget page `/w/<id>`, framed by design by its widget's allowed
 *   origins (src/widget/pages.ts); the dashboard, /docs and the guest page, which forbid it in fuller policies.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';

const NO_FRAMING_POLICY = "frame-ancestors 'none'";

/** Sets the headers on `reply` (for answers that bypass the app's hooks: Fastify's errors before routing). */
export function withSecurityHeaders(reply: FastifyReply): FastifyReply {
  reply.header('x-content-type-options', 'nosniff');
  if (!reply.hasHeader('content-security-policy')) {
    reply.header('content-security-policy', NO_FRAMING_POLICY).header('x-frame-options', 'DENY');
  }
  return reply;
}

export function securityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    withSecurityHeaders(reply);
    return payload;
  });
}
