/**
 * The routes of a booking's later life (docs/booking.md): cancel it with a reason. Registered under `/v1` next to
 * the booking flow (routes.ts), with the same shape: authorize → parse (400s) → one tenant transaction → respond.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/types.js';
import type { Authorize } from '../auth/authorize.js';
import { methodNotAllowed } from '../errors/catalogue.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';
import { cancelBooking, parseCancelInput } from './cancel.js';
import { guarded } from './routes.js';

export interface LifecycleRouteDeps {
  db: Database;
  authorize: Authorize;
  /** The clock behind "today" in each product's time zone; tests pin it. */
  now?: (() => Date) | undefined;
}

/** Operations, not resources: every other method on their paths is a 405 naming the one they take. */
const OPERATIONS = ['/booking-cancel'];

export const bookingLifecycleRoutes: FastifyPluginAsync<LifecycleRouteDeps> = async (app, deps) => {
  const { db, authorize } = deps;
  for (const url of OPERATIONS) {
    // Refused in onRequest, before a body parser could answer first (a DELETE that says JSON and sends none).
    app.route({
      method: ['GET', 'HEAD', 'PATCH', 'PUT', 'DELETE'], url,
      onRequest: async (request) => {
        throw methodNotAllowed(request.method, url.slice(1), 'POST');
      },
      handler: async () => undefined,
    });
  }

  app.post('/booking-cancel', async (request, reply) => {
    const principal = await authorize(request, 'bookings', 'write');
    const input = parseCancelInput(request.body);
    const result = await guarded(() => inTenantTransaction(db, principal, async (tx) => ({
      result: await cancelBooking(tx, input), rollback: false,
    })));
    return reply.send(result);
  });
};
