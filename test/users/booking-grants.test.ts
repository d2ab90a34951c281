/**
 * A dashboard member books with `bookings:write` alone: what a booking creates on their behalf — its calendar
 * event, and the pending payments of the product's payment schedule — needs no further grant (migration 0191),
 * while the payments table itself stays out of their reach.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';
import { createUser, login, type Session } from './support.js';

forEachBackend('booking with a member grant', (ctx) => {
  let app: FastifyInstance;
  let session: Session;
  let productId: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    const org = await createOrganization(ctx.db, 'Dunes');
    const f = fixtures(ctx.db, org.id);
    productId = await f.product();
    await f.configuration(productId, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    const service = await f.service(productId, { type: 'text', name: { default: 'Remarks' } });
    await f.rows('service_payment_moments', [
      { service_id: service, moment: { type: 'confirmation', offset: 0 }, value: { type: 'percentage', value: 30 } },
      { service_id: service, moment: { type: 'check-in', offset: -14 }, value: { type: 'percentage', value: 70 } },
    ]);
    const agent = await createUser(ctx.db, org.id, 'agent@dunes.example', {
      role: 'staff', permissions: [{ resource: 'bookings', access: 'write' }],
    });
    session = await login(app, agent.email, agent.password);
  });
  after(() => app.close());

  it('books a product with a payment schedule, the schedule written as pending payments', async () => {
    const response = await app.inject({
      method: 'POST', url: '/v1/book', headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
      payload: { product_id: productId, interval: { start: '2027-06-01', end: '2027-06-05' } },
    });
    assert.equal(response.statusCode, 201, response.body);
    const { rows } = await ctx.db.query<{ amount: number; status: string }>(
      'SELECT amount, status FROM api.payments WHERE booking_id = $1 ORDER BY due_at', [response.json().booking_id]);
    assert.deepEqual(rows, [{ amount: 12000, status: 'pending' }, { amount: 28000, status: 'pending' }]);
  });

  it('still may not read or write payments directly', async () => {
    const listed = await app.inject({ method: 'GET', url: '/v1/payments', headers: { cookie: session.cookie } });
    assert.equal(listed.statusCode, 403, listed.body);
    assert.equal(listed.json().code, 'SK703');
  });
});
