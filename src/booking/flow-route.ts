/**
 * `flowRoute`: a booking-flow route from its definition (flow-definitions.ts) and what is its own — how the typed
 * request becomes the flow's input, the work in the tenant transaction, whether it writes and under which
 * Idempotency-Key operation — with the steps every such route shares written once: authorize (the definition's
 * scope) → validate (its schemas) → parse → one tenant transaction (rolled back unless the flow writes; the key's
 * stored answer in the same transaction) → after the commit (payment links, hiding what the caller may not read) →
 * send.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TObject, TSchema } from 'typebox';
import type { Authorize } from '../auth/authorize.js';
import type { Principal } from '../auth/principal.js';
import type { Database, Transaction } from '../db/types.js';
import { registerRoute, type RouteDefinition, type RouteRequest, type RouteScope } from '../routing/route-schema.js';
import { inTenantTransaction, type TenantTransactionOptions } from '../transaction/tenant-transaction.js';
import { guarded } from './flow-errors.js';
import { parseIdempotencyKey, withIdempotency, type StoredResponse } from './idempotency.js';

export interface FlowDeps {
  db: Database;
  authorize: Authorize;
  /** The clock behind "today" in each product's time zone; tests pin it. */
  now: () => Date;
}

/** What a flow's steps know of the request beyond its input. */
export interface FlowContext {
  principal: Principal;
  now: Date;
  request: FastifyRequest;
}

export interface Flow<Body extends TSchema | undefined, Query extends TObject | undefined, Input, Answer> {
  route: RouteDefinition<Body, Query, undefined> & { scope: RouteScope };
  /** The validated request → the flow's input: what the schema cannot check (several fields, the shape of a key). */
  parse: (request: RouteRequest<Body, Query>) => Input;
  /** The tables the transaction may read (FLOW_TRANSACTION for the booking flow; `{}`: what the key's scopes allow). */
  transaction: TenantTransactionOptions;
  /** Whether the work is kept: a read (or a dry run) is rolled back. */
  writes: boolean | ((input: Input) => boolean);
  /** For a write: the operation an Idempotency-Key stores its answer under (docs/booking.md#idempotency). */
  idempotent?: string;
  /** Before the transaction: work that commits on its own (a calendar sync). */
  before?: (input: Input, context: FlowContext) => Promise<void>;
  work: (tx: Transaction, input: Input, context: FlowContext) => Promise<Answer>;
  /** The answer's status; default the route's (first) success status. */
  status?: (answer: Answer) => number;
  /** After the commit, on the answer to send (a replay too): add to it, or hide what the caller may not read. */
  after?: (response: StoredResponse, context: FlowContext) => Promise<void> | void;
}

/** Sends a (possibly replayed) answer as JSON; a replay says so in `Idempotent-Replayed`. */
export function send(reply: FastifyReply, response: StoredResponse): FastifyReply {
  if (response.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(response.status).type('application/json; charset=utf-8').send(JSON.stringify(response.body));
}

export function flowRoute<Body extends TSchema | undefined, Query extends TObject | undefined, Input, Answer>(
  app: FastifyInstance, deps: FlowDeps, flow: Flow<Body, Query, Input, Answer>,
): void {
  const successStatus = Number(Object.keys(flow.route.responses)[0]);
  registerRoute(app, flow.route, deps.authorize, async (request, reply, principal) => {
    const context: FlowContext = { principal, now: deps.now(), request };
    const key = flow.idempotent ? parseIdempotencyKey(request.headers['idempotency-key']) : undefined;
    const input = flow.parse(request);
    await flow.before?.(input, context);
    const writes = typeof flow.writes === 'function' ? flow.writes(input) : flow.writes;
    const response = await guarded(() => inTenantTransaction<StoredResponse>(deps.db, principal, async (tx) => {
      const answer = async () => {
        const body = await flow.work(tx, input, context);
        return { status: flow.status?.(body) ?? successStatus, body };
      };
      const result = writes && flow.idempotent
        ? await withIdempotency(tx, principal.organizationId, key, flow.idempotent, request.body, answer)
        : { ...(await answer()), replayed: false };
      return { result, rollback: !writes };
    }, flow.transaction));
    await flow.after?.(response, context);
    return send(reply, response);
  });
}
