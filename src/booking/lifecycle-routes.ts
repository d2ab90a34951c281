/**
 * The routes of a booking's later life (docs/booking.md): change it, cancel it with a reason, import a channel's
 * reservation. Registered under `/v1` next to
 * the booking flow (routes.ts), with the same shape: authorize → parse (400s) → one tenant transaction → respond.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/types.js';
import type { Authorize } from '../auth/authorize.js';
import { hasScope } from '../auth/scopes.js';
import { methodNotAllowed } from '../errors/catalogue.js';
import { inTenantTransaction, type TenantTransactionOptions } from '../transaction/tenant-transaction.js';
import { cancelBooking, parseCancelInput } from './cancel.js';
import { changeBooking, parseChangeInput, type ChangeResult } from './change.js';
import { importBooking, parseImportInput } from './import.js';
import { parseIdempotencyKey, withIdempotency, type StoredResponse } from './idempotency.js';
import { FLOW_TRANSACTION, guarded, send } from './routes.js';

export interface LifecycleRouteDeps {
  db: Database;
  authorize: Authorize;
  /** The clock behind "today" in each product's time zone; tests pin it. */
  now?: (() => Date) | undefined;
}

/** Operations, not resources: every other method on their paths is a 405 naming the one they take. */
const OPERATIONS = ['/booking-cancel', '/booking-change', '/import-booking'];

/** An import reads the units and their calendars, and which reservations were imported before. */
const IMPORT_TRANSACTION: TenantTransactionOptions = {
  readable: [...(FLOW_TRANSACTION.readable as string[]), 'booking_imports'],
};

/** A change reads what the booking flow reads, and the booking it starts from. */
const CHANGE_TRANSACTION: TenantTransactionOptions = {
  readable: [...(FLOW_TRANSACTION.readable as string[]), 'bookings', 'booking_details', 'line_items'],
};

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
    // The settlement is money: shown to whoever may read payments, as a change's payments are.
    if (!hasScope(principal.scopes, 'payments', 'read')) delete result.settlement;
    return reply.send(result);
  });

  app.post('/booking-change', async (request, reply) => {
    const principal = await authorize(request, 'bookings', 'write');
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    const input = parseChangeInput(request.body);
    const now = deps.now ?? (() => new Date());
    const response = await guarded(() => inTenantTransaction<StoredResponse>(db, principal, async (tx) => {
      if (input.dryRun) return { result: { status: 200, body: await changeBooking(tx, input, now()), replayed: false }, rollback: true };
      return {
        result: await withIdempotency(tx, principal.organizationId, key, 'booking-change', request.body, async () => ({
          status: 200, body: await changeBooking(tx, input, now()),
        })),
        rollback: false,
      };
    }, CHANGE_TRANSACTION));
    // What the booking's payments are after the change is payments data: shown to who may read payments (a replay too).
    if (!hasScope(principal.scopes, 'payments', 'read')) delete (response.body as Partial<ChangeResult>).payments;
    return send(reply, response);
  });

  // Its own scope (booking_imports:write): a channel manager's key need not be able to book or change bookings.
  app.post('/import-booking', async (request, reply) => {
    const principal = await authorize(request, 'booking_imports', 'write');
    const input = parseImportInput(request.body);
    const result = await guarded(() => inTenantTransaction(db, principal, async (tx) => ({
      result: await importBooking(tx, input, request.body), rollback: false,
    }), IMPORT_TRANSACTION));
    return reply.status(result.created ? 201 : 200).send(result);
  });
};
