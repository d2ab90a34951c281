/**
 * A local HTTP server that speaks the part of Stripe's API Staykit calls (Checkout sessions, refunds), for the
 * official SDK pointed at it through its host/port/protocol options. It records each request as Stripe would
 * receive it (form fields, idempotency key, secret key) so tests can check what was asked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeRequest {
  method: string;
  path: string;
  /** The form body, nested keys as Stripe encodes them: `metadata[payment_id]`, `line_items[0][price_data][unit_amount]`. */
  form: Record<string, string>;
  secretKey: string;
  idempotencyKey: string | undefined;
}

export interface FakeStripe {
  url: string;
  requests: StripeRequest[];
  /** Makes the next `times` refunds fail at "Stripe" with this message and status (400: refused; 500: Stripe failing). */
  failNextRefunds(message: string, status?: number, times?: number): void;
  /** Resolves once `count` requests matching `match` have arrived (an observation: no timer). */
  received(match: (request: StripeRequest) => boolean, count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  const waiters: { match: (request: StripeRequest) => boolean; count: number; resolve: () => void }[] = [];
  const settleWaiters = () => {
    for (const waiter of [...waiters]) {
      if (requests.filter(waiter.match).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  let counter = 0;
  let refundFailure: { message: string; status: number; times: number } | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({
        method: req.method ?? '', path, form,
        secretKey: String(req.headers.authorization ?? '').replace(/^Bearer /, ''),
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${counter}` });
        res.end(JSON.stringify(body));
        settleWaiters();
      };
      counter += 1;
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${counter}`;
        const metadata = Object.fromEntries(Object.entries(form).filter(([key]) => key.startsWith('metadata[')).map(([key, value]) => [key.slice(9, -1), value]));
        return send(200, {
          id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}`, mode: 'payment',
          payment_status: 'unpaid', status: 'open', payment_intent: null, metadata, client_reference_id: form.client_reference_id ?? null,
          amount_total: Number(form['line_items[0][price_data][unit_amount]']), currency: form['line_items[0][price_data][currency]'],
        });
      }
      if (req.method === 'POST' && path === '/v1/refunds') {
        if (refundFailure) {
          const { message, status } = refundFailure;
          refundFailure.times -= 1;
          if (refundFailure.times === 0) refundFailure = undefined;
          return send(status, { error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message } });
        }
        return send(200, { id: `re_test_${counter}`, object: 'refund', status: 'succeeded', amount: Number(form.amount), payment_intent: form.payment_intent });
      }
      return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${path})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNextRefunds: (message, status = 400, times = 1) => { refundFailure = { message, status, times }; },
    received: (match, count) => new Promise<void>((resolve) => {
      waiters.push({ match, count, resolve });
      settleWaiters();
    }),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
