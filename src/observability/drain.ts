/**
 * Graceful shutdown needs in-flight requests to finish *and* their connections to go away: `app.close()` closes
 * the connections that are idle when it is called, but a keep-alive connection whose request is still running
 * would stay open after its response until `keepAliveTimeout` (72 s in Fastify), holding the process up. Once the
 * app is closing, every response therefore says `Connection: close`, and Node closes the socket after sending it.
 */
import type { FastifyInstance } from 'fastify';

export function closeConnectionsWhenDraining(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
}
