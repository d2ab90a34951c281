/**
 * Scheduled e-mails: a template with a moment ("2 days before check-in, at 10:00") is sent when the scheduler's
 * clock reaches that moment in the unit's time zone; moving the booking moves it, cancelling the booking removes
 * it; a moment already past is skipped or sent at once (past_schedule_behavior); a message template linked to one
 * unit acts for that unit only.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { insert } from '../support/fixtures.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, textOf, type TestSmtpServer } from './support.js';

forEachBackend('scheduled e-mails', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let org: { id: string; key: string };
  let unit: { product: string; adults: string };
  const time = clock('2027-03-01T10:00:00Z');

  before(async () => {
    smtp = await startSmtpServer();
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Moment Rentals');
    unit = await bookableUnit(ctx.db, org.id);
    await insert(ctx.db, 'email_templates', {
      organization_id: org.id, moment: { type: 'check-in', offset: -2 }, time: '10:00',
      subject: { default: 'See you on {{ stay.arrival }}' },
      body: { default: 'Hello {{ guest.name }}, {{ stay.nights }} nights at {{ product.name }} start in 2 days.' },
      include_booking_details: true, include_booking_link: false,
    });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  const book = async (start: string, end: string, name = 'Ada') => {
    const response = await client(app, org.key).post('/v1/book', {
      product_id: unit.product, interval: { start, end }, occupancy: { [unit.adults]: 2 },
      contact: { first_name: name, last_name: 'Lovelace', email: `${name.toLowerCase()}@example.com` },
    });
    assert.equal(response.statusCode, 201, response.body);
    const { booking_id: bookingId } = response.json() as { booking_id: string };
    const event = (await ctx.db.query<{ id: string }>('SELECT id FROM api.calendar_events WHERE booking_id = $1', [bookingId])).rows[0]!.id;
    return { bookingId, event };
  };
  const patchEvent = async (id: string, body: unknown) => {
    const response = await app.inject({ method: 'PATCH', url: `/v1/calendar_events?id=eq.${id}`, headers: { authorization: `Bearer ${org.key}` }, payload: body as object });
    assert.equal(response.statusCode, 204, response.body);
  };
  /** Moves a booking as a client does: POST /v1/booking-change (the rules and the price are checked again). */
  const move = async (bookingId: string, start: string, end: string) => {
    const response = await client(app, org.key).post('/v1/booking-change', { booking_id: bookingId, interval: { start, end } });
    assert.equal(response.statusCode, 200, response.body);
  };
  const sentTo = (address: string) => smtp.received.map(parseMime).filter((mail) => (mail.headers.to ?? '').endsWith(`<${address}>`));

  it('sends at the moment in the unit\'s time zone, not before', async () => {
    await book('2027-06-10', '2027-06-13');
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), [], 'nothing is due at booking time');
    // 2027-06-08 10:00 in Amsterdam (summer time) is 08:00 UTC.
    time.set('2027-06-08T07:59:59Z');
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
    time.set('2027-06-08T08:00:00Z');
    assert.deepEqual((await runDue(ctx.db, schedulerOptions(smtp, time))).map((r) => r.outcome), ['queued', 'sent']);
    const [mail] = sentTo('ada@example.com');
    assert.ok(mail);
    assert.match(mail.headers.subject ?? '', /^See you on Thursday, June 10, 2027$/);
    const text = textOf(mail);
    assert.match(text, /^Hello Ada Lovelace, 3 nights at Dune House start in 2 days\./);
    assert.match(text, /Arrival: Thursday, June 10, 2027\nDeparture: Sunday, June 13, 2027\n {2}Rent × 3: €300\.00\nTotal: €300\.00/);
  });

  it('moves with the booking\'s dates', async () => {
    const { bookingId } = await book('2027-07-10', '2027-07-12', 'Grace');
    await move(bookingId, '2027-07-20', '2027-07-22');
    time.set('2027-07-08T08:00:00Z'); // the old moment
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
    time.set('2027-07-18T08:00:00Z'); // the new one
    assert.deepEqual((await runDue(ctx.db, schedulerOptions(smtp, time))).map((r) => r.outcome), ['queued', 'sent']);
    assert.equal(sentTo('grace@example.com').length, 1);
    // Moved again after it was sent: not sent a second time.
    await move(bookingId, '2027-07-25', '2027-07-27');
    time.set('2027-07-23T08:00:00Z');
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
    assert.equal(sentTo('grace@example.com').length, 1);
  });

  it('is removed when the booking is cancelled', async () => {
    const { event, bookingId } = await book('2027-08-10', '2027-08-12', 'Edsger');
    await patchEvent(event, { status: 'CANCELLED' });
    time.set('2027-08-08T08:00:00Z');
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
    assert.equal(sentTo('edsger@example.com').length, 0);
    const messages = await ctx.db.query('SELECT 1 FROM api.messages WHERE booking_id = $1', [bookingId]);
    assert.equal(messages.rows.length, 0);
  });

  it('skips or sends at once a moment that is already past, as the template says', async () => {
    // The database's clock decides what is past when a booking is written: a stay in 2020 is.
    const other = await createOrganization(ctx.db, 'Late Rentals');
    const late = await bookableUnit(ctx.db, other.id);
    for (const [behavior, subject] of [['skip', 'Skipped'], ['send', 'Sent late']] as const) {
      await insert(ctx.db, 'email_templates', {
        organization_id: other.id, moment: { type: 'checkout', offset: 1 }, past_schedule_behavior: behavior,
        subject: { default: subject }, body: { default: 'How was {{ product.name }}?' },
      });
    }
    const booking = await insert<{ id: string }>(ctx.db, 'bookings', { organization_id: other.id });
    const contact = await insert<{ id: string }>(ctx.db, 'contacts', { organization_id: other.id, first_name: 'Alan', email: 'alan@example.com' });
    await insert(ctx.db, 'contact_bookings', { organization_id: other.id, booking_id: booking.id, contact_id: contact.id });
    await insert(ctx.db, 'calendar_events', {
      organization_id: other.id, product_id: late.product, booking_id: booking.id, type: 'booking', status: 'CONFIRMED',
      start_date: '2020-05-01', end_date: '2020-05-03',
    });
    assert.deepEqual((await runDue(ctx.db, schedulerOptions(smtp, time))).map((r) => r.outcome), ['queued', 'sent']);
    assert.deepEqual(sentTo('alan@example.com').map((mail) => mail.headers.subject), ['Sent late']);
  });

  it('acts through a message template only for the units it is linked to', async () => {
    const other = await createOrganization(ctx.db, 'Unit Rentals');
    const linked = await bookableUnit(ctx.db, other.id);
    const unlinked = await bookableUnit(ctx.db, other.id, { name: { default: 'Other House' } });
    const email = await insert<{ id: string }>(ctx.db, 'email_templates', {
      organization_id: other.id, trigger: 'created', subject: { default: 'Thanks for booking {{ product.name }}' }, body: { default: 'Hi' },
    });
    const message = await insert<{ id: string }>(ctx.db, 'message_templates', { organization_id: other.id, name: 'Thanks', email_template_id: email.id });
    await insert(ctx.db, 'product_message_templates', { organization_id: other.id, product_id: linked.product, message_template_id: message.id });
    for (const [target, name] of [[linked, 'Linus'], [unlinked, 'Barbara']] as const) {
      const response = await client(app, other.key).post('/v1/book', {
        product_id: target.product, interval: { start: '2027-09-01', end: '2027-09-03' }, occupancy: { [target.adults]: 1 },
        contact: { first_name: name, email: `${name.toLowerCase()}@example.com` },
      });
      assert.equal(response.statusCode, 201, response.body);
    }
    await runDue(ctx.db, schedulerOptions(smtp, time));
    assert.deepEqual(sentTo('linus@example.com').map((mail) => mail.headers.subject), ['Thanks for booking Dune House']);
    assert.equal(sentTo('barbara@example.com').length, 0);
  });

  it('schedules a template created later for the bookings already made, and follows its changes', async () => {
    const other = await createOrganization(ctx.db, 'Later Rentals');
    const later = await bookableUnit(ctx.db, other.id);
    for (const [start, end, name] of [['2027-10-10', '2027-10-12', 'Kathleen'], ['2027-10-20', '2027-10-22', 'Margaret']]) {
      const response = await client(app, other.key).post('/v1/book', {
        product_id: later.product, interval: { start, end }, occupancy: { [later.adults]: 1 },
        contact: { first_name: name, email: `${name!.toLowerCase()}@example.com` },
      });
      assert.equal(response.statusCode, 201, response.body);
    }
    const headers = { authorization: `Bearer ${other.key}`, prefer: 'return=representation' };
    const created = await app.inject({
      method: 'POST', url: '/v1/email_templates', headers,
      payload: { moment: { type: 'check-in', offset: -1 }, time: '18:00', subject: { default: 'Tomorrow!' }, body: { default: 'See you' } },
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = (created.json() as { id: string }[])[0]!.id;
    // Moved to 08:00: 2027-10-09 08:00 in Amsterdam (summer time) is 06:00 UTC.
    const changed = await app.inject({ method: 'PATCH', url: `/v1/email_templates?id=eq.${id}`, headers, payload: { time: '08:00' } });
    assert.equal(changed.statusCode, 200, changed.body);
    time.set('2027-10-09T05:59:59Z');
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
    time.set('2027-10-09T06:00:00Z');
    await runDue(ctx.db, schedulerOptions(smtp, time));
    assert.equal(sentTo('kathleen@example.com').length, 1);
    assert.equal(sentTo('margaret@example.com').length, 0);
    time.set('2027-10-19T16:00:00Z'); // the old time for the second booking: already moved to 06:00 UTC
    await runDue(ctx.db, schedulerOptions(smtp, time));
    assert.equal(sentTo('margaret@example.com').length, 1);
    assert.equal(sentTo('kathleen@example.com').length, 1);
  });
});
