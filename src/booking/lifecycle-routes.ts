/**
 * The routes of a booking's later life (docs/booking.md): change it, cancel it with a reason, import a channel's
 * reservation. Registered under `/v1` next to the booking flow (routes.ts), the same way: a definition
 * (flow-definitions.ts) and its own steps, run by flowRoute.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../db/types.js';
import type { Authorize } from '../auth/authorize.js';
import { hasScope } from '../auth/scopes.js';
import { methodNotAllowed } from '../errors/catalogue.js';
import type { TenantTransactionOptions } from '../transaction/tenant-transaction.js';
import { cancelBooking, toCancelInput } from './cancel.js';
import { changeBooking, toChangeInput, type ChangeInput } from './change.js';
import { importBooking, toImportInput } from './import.js';
import { flowRoute } from './flow-route.js';
import { FLOW_TRANSACTION } from './flow-transaction.js';
import { bookingCancelRoute, bookingChangeRoute, importBookingRoute } from './flow-definitions.js';
import type { CancelResult, ChangeResult } from './answer-schemas.js';

export interface LifecycleRouteDeps {
  db: Database;
  authorize: Authorize;
  /** The clock behind "today" in each product's time zone; tests pin it. */
  now?: (() => Date) | undefined;
}

/** Operations, not resources: every other method on their paths is a 405 naming the one they take. */
const OPERATIONS = [bookingCancelRoute.url, bookingChangeRoute.url, importBookingRoute.url];

/** An import reads the units and their calendars, and which reservations were imported before. */
const IMPORT_TRANSACTION: TenantTransactionOptions = {
  readable: [...(FLOW_TRANSACTION.readable as string[]), 'booking_imports'],
};

/** A change reads what the booking flow reads, and the booking it starts from. */
const CHANGE_TRANSACTION: TenantTransactionOptions = {
  readable: [...(FLOW_TRANSACTION.readable as string[]), 'bookings', 'booking_details', 'line_items'],
};

export const bookingLifecycleRoutes: FastifyPluginAsync<LifecycleRouteDeps> = async (app, deps) => {
  const flow = { db: deps.db, authorize: deps.authorize, now: deps.now ?? (() => new Date()) };
  for (const url of OPERATIONS) {
    // Refused in onRequest, before a body parser could answer first (a DELETE that says JSON and sends none).
    app.route({
      method: ['GET', 'HEAD', 'PATCH', 'PUT', 'DELETE'], url, config: { staykitRoute: { kind: 'other-methods' } },
      onRequest: async (request) => {
        throw methodNotAllowed(request.method, url.slice(1), 'POST');
      },
      handler: async () => undefined,
    });
  }

  // The key's own read scopes: the cancellation reads the booking and settles its payments in the database.
  flowRoute(app, flow, {
    route: bookingCancelRoute, transaction: {}, writes: true,
    parse: (request) => toCancelInput(request.body),
    work: (tx, input) => cancelBooking(tx, input),
    // The settlement is money: shown to whoever may read payments, as a change's payments are.
    after: (response, { principal }) => {
      if (!hasScope(principal.scopes, 'payments', 'read')) delete (response.body as Partial<CancelResult>).settlement;
    },
  });

  flowRoute(app, flow, {
    route: bookingChangeRoute, transaction: CHANGE_TRANSACTION, writes: (input: ChangeInput) => !input.dryRun, idempotent: 'booking-change',
    parse: (request) => toChangeInput(request.body),
    work: (tx, input, { now }) => changeBooking(tx, input, now),
    // What the booking's payments are after the change is payments data: shown to who may read payments (a replay too).
    after: (response, { principal }) => {
      if (!hasScope(principal.scopes, 'payments', 'read')) delete (response.body as Partial<ChangeResult>).payments;
    },
  });

  flowRoute(app, flow, {
    route: importBookingRoute, transaction: IMPORT_TRANSACTION, writes: true,
    parse: (request) => toImportInput(request.body),
    work: (tx, input, context) => importBooking(tx, input, context.request.body),
    status: (result) => (result.created ? 201 : 200),
  });
};
