/**
 * E-mails about payments, with the default templates an organization Staykit creates (docs/automations.md#payments):
 * recording a payment sends the guest a receipt with the amount and what is still to pay; a payment still to pay
 * gets its reminder three days before it is due, at 10:00 in the unit's time zone — not when it was paid before,
 * at the new time when the booking (and so the payment) moves, not at all when the booking is cancelled.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createOrganization } from '../../src/cli/commands/org.js';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { client, startBookingApp } from '../booking/support.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, textOf, type TestSmtpServer } from './support.js';

const REMINDER = /^A reminder: /;
const RECEIPT = /^We received your payment/;

forEachBackend('payment e-mails', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let org: { organization_id: string; api_key: string };
  let unit: { product: string; adults: string };
  const time = clock('2027-03-01T10:00:00Z');

  before(async () => {
    smtp = await startSmtpServer();
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Dune Stays');
    unit = await bookableUnit(ctx.db, org.organization_id);
    // 30 % when booked, the rest 14 days before arrival.
    const f = fixtures(ctx.db, org.organization_id);
    const service = await f.service(unit.product, { type: 'text', name: { default: 'Remarks' } });
    await f.rows('service_payment_moments', [
      { service_id: service, moment: { type: 'confirmation', offset: 0 }, value: { type: 'percentage', value: 30 } },
      { service_id: service, moment: { type: 'check-in', offset: -14 }, value: { type: 'percentage', value: 70 } },
    ]);
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  const pay = async (paymentId: string) => {
    const response = await app.inject({
      method: 'PATCH', url: `/v1/payments?id=eq.${paymentId}`, headers: { authorization: `Bearer ${org.api_key}` },
      payload: { status: 'paid', method: 'bank_transfer' },
    });
    assert.equal(response.statusCode, 204, response.body);
  };
  const book = async (start: string, end: string, name: string, silent = false) => {
    const response = await client(app, org.api_key).post('/v1/book', {
      product_id: unit.product, interval: { start, end }, occupancy: { [unit.adults]: 2 }, silent,
      contact: { first_name: name, last_name: 'Lovelace', email: `${name.toLowerCase()}@example.com` },
    });
    assert.equal(response.statusCode, 201, response.body);
    const bookingId = response.json<{ booking_id: string }>().booking_id;
    const payments = await ctx.db.query<{ id: string; amount: number }>(
      'SELECT id, amount FROM api.payments WHERE booking_id = $1 ORDER BY due_at', [bookingId]);
    assert.deepEqual(payments.rows.map((payment) => payment.amount), [9000, 21000]);
    // The first 30 % is paid at once, as a guest does at booking: its own reminder (due 2027-02-26, three days before
    // the booking day of the app's pinned clock) never goes. The database's clock is the real one, so without this
    // it would count as ahead and go at the scheduler's first run.
    await pay(payments.rows[0]!.id);
    return { bookingId, payments: payments.rows };
  };
  const run = async (at: string) => {
    time.set(at);
    await runDue(ctx.db, schedulerOptions(smtp, time));
  };
  const mails = (name: string, subject: RegExp) => smtp.received.map(parseMime)
    .filter((mail) => (mail.headers.to ?? '').endsWith(`<${name.toLowerCase()}@example.com>`) && subject.test(mail.headers.subject ?? ''));

  it('recording a payment sends the guest a receipt with the amount and what is still to pay', async () => {
    await book('2027-06-10', '2027-06-13', 'Ada');
    await run('2027-03-01T10:00:00Z');
    const [receipt, ...more] = mails('Ada', RECEIPT);
    assert.ok(receipt);
    assert.equal(more.length, 0);
    assert.equal(receipt.headers.subject, 'We received your payment of €90.00 for Dune House');
    assert.match(textOf(receipt), /we received your payment of €90\.00 on .+ for your stay at Dune House from Thursday, June 10, 2027 to Sunday, June 13, 2027\. Still to pay: €210\.00;/);
    assert.match(textOf(receipt), /Kind regards,\nDune Stays/);
  });

  it('reminds of the second payment three days before it is due, at 10:00 in the unit\'s time zone', async () => {
    // Due 2027-05-27 (14 days before arrival): the reminder is due 2027-05-24 10:00 in Amsterdam, 08:00 UTC.
    await run('2027-05-24T07:59:59Z');
    assert.equal(mails('Ada', REMINDER).length, 0);
    await run('2027-05-24T08:00:00Z');
    const [reminder, ...more] = mails('Ada', REMINDER);
    assert.ok(reminder);
    assert.equal(more.length, 0);
    assert.equal(reminder.headers.subject, 'A reminder: €210.00 for Dune House is due on Thursday, May 27, 2027');
    assert.match(textOf(reminder), /the next payment, €210\.00, is due on Thursday, May 27, 2027\./);
    assert.match(textOf(reminder), /https:\/\/stay\.example\.com\/g\//, 'the booking page, where the guest pays');
    await run('2027-05-27T08:00:00Z');
    assert.equal(mails('Ada', REMINDER).length, 1, 'sent once');
  });

  it('sends no reminder for a payment paid before it', async () => {
    const { payments } = await book('2027-06-20', '2027-06-23', 'Grace');
    await pay(payments[1]!.id);
    await run('2027-06-03T08:00:00Z'); // 3 days before 2027-06-06, at 10:00 in Amsterdam
    assert.equal(mails('Grace', REMINDER).length, 0);
    assert.deepEqual(mails('Grace', RECEIPT).map((mail) => mail.headers.subject), [
      'We received your payment of €90.00 for Dune House', 'We received your payment of €210.00 for Dune House',
    ]);
    assert.match(textOf(mails('Grace', RECEIPT)[1]!), /Your stay is now paid in full\./);
  });

  it('re-times the reminder when the booking moves', async () => {
    const { bookingId } = await book('2027-07-10', '2027-07-13', 'Edsger');
    const moved = await client(app, org.api_key).post('/v1/booking-change', { booking_id: bookingId, interval: { start: '2027-07-20', end: '2027-07-23' } });
    assert.equal(moved.statusCode, 200, moved.body);
    await run('2027-06-23T08:00:00Z'); // the old reminder: 3 days before 2027-06-26
    assert.equal(mails('Edsger', REMINDER).length, 0);
    await run('2027-07-03T07:59:59Z');
    assert.equal(mails('Edsger', REMINDER).length, 0);
    await run('2027-07-03T08:00:00Z'); // 3 days before 2027-07-06, the new due date
    assert.deepEqual(mails('Edsger', REMINDER).map((mail) => mail.headers.subject), ['A reminder: €210.00 for Dune House is due on Tuesday, July 6, 2027']);
  });

  it('sends no reminder once the booking is cancelled', async () => {
    const { bookingId } = await book('2027-08-10', '2027-08-13', 'Barbara');
    const cancelled = await client(app, org.api_key).post('/v1/booking-cancel', { booking_id: bookingId });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    await run('2027-07-24T08:00:00Z'); // 3 days before 2027-07-27
    assert.equal(mails('Barbara', REMINDER).length, 0);
    const left = await ctx.db.query(
      `SELECT 1 FROM staykit_internal.automation_jobs WHERE booking_id = $1 AND trigger = 'payment_due'`, [bookingId]);
    assert.equal(left.rows.length, 0);
  });

  it('sends neither receipts nor reminders for a silent booking', async () => {
    const { bookingId } = await book('2027-09-10', '2027-09-13', 'Alan', true);
    const jobs = await ctx.db.query(
      `SELECT 1 FROM staykit_internal.automation_jobs WHERE booking_id = $1 AND trigger LIKE 'payment%'`, [bookingId]);
    assert.equal(jobs.rows.length, 0);
    await run('2027-08-24T08:00:00Z'); // 3 days before 2027-08-27
    assert.equal(mails('Alan', /./).length, 0);
  });

  it('follows its template: disabled, the pending reminders go; enabled again, they come back', async () => {
    const { bookingId } = await book('2027-10-10', '2027-10-13', 'Katherine');
    const template = (await ctx.db.query<{ id: string }>(
      `SELECT id FROM api.email_templates WHERE organization_id = $1 AND trigger = 'payment_due'`, [org.organization_id])).rows[0]!.id;
    const setType = async (type: string) => {
      const response = await app.inject({
        method: 'PATCH', url: `/v1/email_templates?id=eq.${template}`, headers: { authorization: `Bearer ${org.api_key}` }, payload: { type },
      });
      assert.equal(response.statusCode, 204, response.body);
    };
    const pending = async () => (await ctx.db.query(
      `SELECT 1 FROM staykit_internal.automation_jobs WHERE booking_id = $1 AND trigger = 'payment_due' AND done_at IS NULL`, [bookingId])).rows.length;
    assert.equal(await pending(), 1);
    await setType('manual');
    assert.equal(await pending(), 0);
    await setType('automated');
    assert.equal(await pending(), 1);
    await run('2027-09-23T08:00:00Z'); // 3 days before 2027-09-26
    assert.equal(mails('Katherine', REMINDER).length, 1);
  });
});
