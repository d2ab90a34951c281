/**
 * Invoice PDFs are drawn off the event loop, under each organization's budget, with limits that say what they are
 * (issue: security round 3): while one organization's 1,000-line invoice is drawn, another organization's requests
 * are answered; one organization asking for several at once does not delay another's PDF; more lines than a PDF
 * takes is a 422 saying so, on the API and on the guest page alike.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ComputePool } from '../../src/compute/pool.js';
import { computePoolOptions } from '../../src/compute/process-pool.js';
import { loadConfig } from '../../src/config.js';
import { MAX_INVOICE_PDF_LINES } from '../../src/money/invoice-rendering.js';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, startApp } from '../support/app.js';
import { bookingFixture, resourceClient, type Json } from './support.js';

forEachBackend('invoice PDF limits', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let other: { id: string; key: string };
  let compute: ComputePool;

  before(async () => {
    compute = new ComputePool(computePoolOptions(loadConfig({})));
    app = await startApp(ctx.db, { compute });
    org = await createOrganization(ctx.db, 'Big Invoices B.V.');
    other = await createOrganization(ctx.db, 'Small Invoices B.V.');
  });
  after(async () => {
    await app.close();
    await compute.close();
  });

  /** Whether the compute pool started work before `request` was answered (waits for either). */
  async function drawnInThePool(request: Promise<unknown>): Promise<boolean> {
    let answered = false;
    void request.then(() => { answered = true; });
    while (compute.load.running === 0) {
      if (answered) return false;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return true;
  }

  /** An issued invoice of a new booking with `count` lines named `name`-n; its id and the booking's guest-page secret. */
  async function invoiceWith(owner: { id: string; key: string }, count: number, name: string): Promise<{ id: string; secret: string }> {
    const api = resourceClient(app, owner.key);
    const booked = await bookingFixture(ctx.db, owner.id);
    const invoice = await api.create('invoices', { booking_id: booked.bookingId });
    for (let start = 0; start < count; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - start) }, (_, index) => ({
        booking_id: booked.bookingId, invoice_id: invoice.id, amount: 100, name: { default: `${name}-${start + index + 1}` },
      }));
      const written = await api.call('POST', 'line_items', rows);
      assert.equal(written.statusCode, 201, written.body);
    }
    await api.update('invoices', String(invoice.id), { status: 'issued' });
    const { rows } = await ctx.db.query<{ secret: string }>('SELECT secret FROM api.bookings WHERE id = $1', [booked.bookingId]);
    return { id: String(invoice.id), secret: rows[0]!.secret };
  }

  const pdf = (owner: { key: string }, id: string): Promise<LightMyRequestResponse> =>
    app.inject({ method: 'GET', url: `/v1/invoices/${id}`, headers: { authorization: `Bearer ${owner.key}`, accept: 'application/pdf' } });

  /** Runs the requests at once and returns their names in the order their answers came. */
  async function finishingOrder(requests: Record<string, Promise<LightMyRequestResponse>>): Promise<{ order: string[]; answers: Record<string, LightMyRequestResponse> }> {
    const order: string[] = [];
    const answers: Record<string, LightMyRequestResponse> = {};
    await Promise.all(Object.entries(requests).map(([name, request]) => request.then((answer) => {
      order.push(name);
      answers[name] = answer;
    })));
    return { order, answers };
  }

  it("answers another organization while a 1,000-line invoice is drawn, and draws it whole", async () => {
    const long = 'Cleaning and linen service '.repeat(30); // 810 characters: drawn cut to 300
    const big = await invoiceWith(org, MAX_INVOICE_PDF_LINES, long);
    const heavy = pdf(org, big.id);
    assert.ok(await drawnInThePool(heavy), 'the PDF is drawn in the compute pool');
    // Asked while the PDF is being drawn (its database reads are over).
    const { order, answers } = await finishingOrder({
      heavy,
      other: app.inject({ method: 'GET', url: '/v1/products?select=id&limit=1', headers: { authorization: `Bearer ${other.key}` } }),
    });
    assert.deepEqual(order, ['other', 'heavy']);
    assert.equal(answers.other!.statusCode, 200, answers.other!.body);
    assert.equal(answers.heavy!.statusCode, 200, answers.heavy!.body);
    assert.equal(answers.heavy!.headers['content-type'], 'application/pdf');
    assert.equal(answers.heavy!.rawPayload.subarray(0, 5).toString(), '%PDF-');
    assert.equal(answers.heavy!.rawPayload.subarray(-6).toString().trim(), '%%EOF');
  });

  it("draws another organization's invoice while one organization asks for several at once", async () => {
    const big = await invoiceWith(org, MAX_INVOICE_PDF_LINES, 'Late check-out and linen service '.repeat(9));
    const small = await invoiceWith(other, 2, 'Rent');
    const warm = await invoiceWith(org, 2, 'Rent');
    // Both threads started (a thread's first task loads the PDF library), as on a server that has drawn before.
    await Promise.all([pdf(org, warm.id), pdf(other, small.id)]);
    const { order, answers } = await finishingOrder({
      first: pdf(org, big.id), second: pdf(org, big.id), third: pdf(org, big.id), other: pdf(other, small.id),
    });
    for (const answer of Object.values(answers)) assert.equal(answer.statusCode, 200, answer.body);
    // The organization's third PDF waits for its first two (one at a time); the other organization's does not.
    assert.ok(order.indexOf('other') < order.indexOf('third'), `order: ${order.join(', ')}`);
  });

  it('refuses an invoice with more lines than a PDF takes, saying so, on the API and the guest page', async () => {
    const huge = await invoiceWith(org, MAX_INVOICE_PDF_LINES + 1, 'Extra');
    const refused = await pdf(org, huge.id);
    assert.equal(refused.statusCode, 422, refused.body);
    assert.deepEqual(refused.json() as Json, {
      code: 'SK685',
      message: 'An invoice PDF holds at most 1000 lines; this invoice has 1001',
      details: null,
      hint: 'Issue the stay on several invoices, or read its lines as JSON from GET /v1/line_items',
    });
    const guest = await app.inject({ method: 'GET', url: `/g/${huge.secret}/invoices/${huge.id}.pdf` });
    assert.equal(guest.statusCode, 422, guest.body);
    assert.equal(guest.json().code, 'SK685');
  });
});
