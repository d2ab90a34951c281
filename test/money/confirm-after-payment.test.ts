/**
 * A request booking whose product says confirm_after_initial_payment is confirmed once its paid payments reach
 * the first scheduled payment — also when the payment is recorded by hand through the API — and not before, nor
 * for products without the setting.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';
import { resourceClient, type Json } from './support.js';

forEachBackend('confirm after the initial payment', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let flow: ReturnType<typeof client>;
  let api: ReturnType<typeof resourceClient>;
  let f: Fixtures;

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Confirming');
    flow = client(app, org.key);
    api = resourceClient(app, org.key);
    f = fixtures(ctx.db, org.id);
  });
  after(() => app.close());

  const requestProduct = async (confirmAfterPayment: boolean) => {
    const product = await f.product({ interaction: 'request', request_status: 'TENTATIVE', confirm_after_initial_payment: confirmAfterPayment });
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    const service = await f.service(product, { type: 'text', name: { default: 'Remarks' } });
    await f.rows('service_payment_moments', [
      { service_id: service, moment: { type: 'confirmation', offset: 0 }, value: { type: 'percentage', value: 25 } },
      { service_id: service, moment: { type: 'check-in', offset: -30 }, value: { type: 'percentage', value: 75 } },
    ]);
    return product;
  };
  const book = async (product: string) => {
    const response = await flow.post('/v1/book', { product_id: product, interval: { start: '2027-06-01', end: '2027-06-05' } });
    assert.equal(response.statusCode, 201, response.body);
    return String((response.json() as Json).booking_id);
  };
  const eventStatus = async (bookingId: string) =>
    (await ctx.db.query<{ status: string }>('SELECT status FROM api.calendar_events WHERE booking_id = $1', [bookingId])).rows[0]!.status;
  const firstPayment = async (bookingId: string) =>
    (await ctx.db.query<{ id: string; amount: number }>('SELECT id, amount FROM api.payments WHERE booking_id = $1 ORDER BY due_at LIMIT 1', [bookingId])).rows[0]!;

  it('confirms when the first scheduled payment is paid by hand, not before', async () => {
    const bookingId = await book(await requestProduct(true));
    const first = await firstPayment(bookingId);
    assert.equal(first.amount, 10000);
    // Less than the first payment: still a request.
    await api.create('payments', { booking_id: bookingId, amount: 4000, currency: 'EUR', status: 'paid', method: 'cash' });
    assert.equal(await eventStatus(bookingId), 'TENTATIVE');
    await api.update('payments', first.id, { status: 'paid', method: 'bank_transfer' });
    assert.equal(await eventStatus(bookingId), 'CONFIRMED');
    const { rows } = await ctx.db.query('SELECT 1 FROM api.bookings WHERE id = $1 AND confirmed_at IS NOT NULL', [bookingId]);
    assert.equal(rows.length, 1);
  });

  it('leaves the booking a request when the product does not say so', async () => {
    const bookingId = await book(await requestProduct(false));
    await api.update('payments', (await firstPayment(bookingId)).id, { status: 'paid' });
    assert.equal(await eventStatus(bookingId), 'TENTATIVE');
  });
});
