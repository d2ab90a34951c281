/** Methods a route does not offer answer 405 with `Allow`, as the resources do (before any body is read). */
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { unsupportedMethod } from '../errors/catalogue.js';

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function refuseOtherMethods(app: FastifyInstance, url: string, offered: readonly HTTPMethods[]): void {
  const allow = offered.join(', ');
  const others = METHODS.filter((method) => !offered.includes(method) && !(method === 'HEAD' && offered.includes('GET')));
  app.route({
    method: others,
    url,
    config: { staykitRoute: { kind: 'other-methods' } },
    onRequest: async (request) => {
      throw unsupportedMethod(request.method, allow);
    },
    handler: async () => undefined,
  });
}
