/**
 * The money module's HTTP routes, registered under `/v1` (docs/payments.md):
 * - `GET /v1/invoices/{id}` with `Accept: application/pdf` → the invoice as a PDF (the read scope of every table it shows);
 *   each route is its definition in bodies.ts;
 * - `PUT /v1/payment-settings` `{stripe_secret_key, stripe_webhook_secret, success_url, cancel_url}` → the
 *   organization's Stripe account, stored encrypted; `GET` shows which key (its last four characters), never the
 *   keys; `DELETE` removes it (payments become manual). Scope `organizations:write` / `organizations:read`;
 * - `POST /v1/payment-link` `{booking_id}` → `{payment_id, amount, currency, payment_url}` for the booking's next
 *   payment (scope `payments:write`);
 * - `POST /v1/stripe/webhook/{organization_id}`: Stripe's events, verified by their signature (no API key).
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { requireReadScopes, type Authorize } from '../auth/authorize.js';
import { notFound } from '../errors/catalogue.js';
import { apiError } from '../errors/registry.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';
import { invoicePdfOnly, noPaymentDue, onlinePaymentNotSetUp } from './errors.js';
import { registerPublicRoute, registerRoute } from '../routing/route-schema.js';
import { invoicePdf, paymentLinkPost, paymentSettingsDelete, paymentSettingsGet, paymentSettingsPut, stripeWebhook } from './bodies.js';
import { renderInvoicePdf } from './invoice-rendering.js';
import type { ComputePool } from '../compute/pool.js';
import { INVOICE_DOCUMENT_TABLES, loadInvoiceDocument } from './invoice-queries.js';
import { paymentLinkFor, type PaymentLinkDeps } from './payment-links.js';
import { deleteStripeAccount, saveStripeAccount, stripeAccountSummary } from './stripe-accounts.js';
import { executeStripeRefunds } from './stripe-refunds.js';
import { refuseOtherMethods } from '../common/other-methods.js';
import { receiveStripeEvent } from './stripe-webhook.js';

export type MoneyRouteDeps = PaymentLinkDeps & { authorize: Authorize; compute: ComputePool };

function acceptsPdf(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => part.split(';')[0]!.trim().toLowerCase() === 'application/pdf');
}

export const moneyRoutes: FastifyPluginAsync<MoneyRouteDeps> = async (app, deps) => {
  const { db, authorize } = deps;
  // Methods a route does not offer answer 405 with Allow, as the resources do.
  refuseOtherMethods(app, '/invoices/:id', ['GET']);
  refuseOtherMethods(app, '/payment-settings', ['GET', 'PUT', 'DELETE']);
  refuseOtherMethods(app, '/payment-link', ['POST']);

  registerRoute(app, invoicePdf, authorize, async (request, reply, principal) => {
    // The document shows the buyer, the stay and the lines: each table it is read from needs its read scope.
    requireReadScopes(principal, INVOICE_DOCUMENT_TABLES);
    const { id } = request.params;
    if (!acceptsPdf(request.headers.accept)) throw invoicePdfOnly(id);
    const invoice = await inTenantTransaction(db, principal, async (tx) => ({
      result: await loadInvoiceDocument(tx, id), rollback: true,
    }), { readable: INVOICE_DOCUMENT_TABLES });
    if (!invoice) throw notFound(`No invoice ${id}`);
    const pdf = await renderInvoicePdf(deps.compute, invoice);
    const name = invoice.number ?? `draft-${invoice.id}`;
    return reply.type('application/pdf')
      .header('content-disposition', `inline; filename="invoice-${name.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`)
      .send(pdf);
  });

  registerRoute(app, paymentSettingsPut, authorize, async (request, reply, principal) => {
    const { body } = request;
    if (!deps.serverSecret) throw apiError('SK678');
    await saveStripeAccount(db, deps.serverSecret, principal.organizationId, {
      secret_key: body.stripe_secret_key, webhook_secret: body.stripe_webhook_secret, success_url: body.success_url, cancel_url: body.cancel_url,
    });
    return reply.send(await stripeAccountSummary(db, principal.organizationId));
  });

  registerRoute(app, paymentSettingsGet, authorize, async (_request, reply, principal) =>
    reply.send((await stripeAccountSummary(db, principal.organizationId)) ?? { provider: null }));

  registerRoute(app, paymentSettingsDelete, authorize, async (_request, reply, principal) => {
    await deleteStripeAccount(db, principal.organizationId);
    return reply.status(204).send();
  });

  registerRoute(app, paymentLinkPost, authorize, async (request, reply, principal) => {
    const bookingId = request.body.booking_id;
    const link = await paymentLinkFor(deps, principal.organizationId, bookingId);
    if (link) return reply.send(link);
    if (!(await stripeAccountSummary(db, principal.organizationId)) || !deps.serverSecret) throw onlinePaymentNotSetUp();
    throw noPaymentDue(`Booking ${bookingId} has no payment to pay`);
  });

  // Stripe signs the exact bytes it sent: this route keeps the raw body.
  await app.register(async (stripeScope) => {
    stripeScope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    refuseOtherMethods(stripeScope, '/stripe/webhook/:organization_id', ['POST']);
    registerPublicRoute(stripeScope, stripeWebhook, async (request, reply) => {
      const signature = request.headers['stripe-signature'];
      const raw: unknown = request.body;
      const bytes = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
      return reply.send(await receiveStripeEvent(db, deps.serverSecret, request.params.organization_id, bytes, typeof signature === 'string' ? signature : undefined));
    });
  });
};

/** Answers after which refunds may wait to be sent to Stripe: a refund written, a cancellation settled (migration 0216). */
const REFUNDING_ROUTES: readonly [string, number][] = [['/v1/refunds', 201], ['/v1/booking-cancel', 200]];

/**
 * A refund written through the API (`POST /v1/refunds`, or by a cancellation's settlement) is executed at Stripe
 * right after its response; what is left (Stripe unreachable) is retried by the background worker.
 */
export function executeRefundsAfterResponse(scope: FastifyInstance, deps: PaymentLinkDeps): void {
  scope.addHook('onResponse', async (request, reply) => {
    const principal = request.principal;
    if (!principal || request.method !== 'POST' || !REFUNDING_ROUTES.some(([url, status]) => request.url.startsWith(url) && reply.statusCode === status)) return;
    await executeStripeRefunds(deps.db, deps.stripe, deps.serverSecret, principal.organizationId)
      .catch((error: unknown) => request.log.warn({ err: error }, 'stripe refunds'));
  });
}
