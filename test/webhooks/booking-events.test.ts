import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';
import { PAYLOAD_SCHEMAS } from '../../src/webhooks/payload-schemas.js';

interface BookingPayload {
  booking: {
    id: string; status?: string; total: number; occupancy: Record<string, number>;
    calendar_events: { start_date: string; end_date: string; status: string }[];
    product: { id: string; name: Record<string, string> } | null;
    contact: { first_name: string; email: string } | null;
    line_items: { amount: number }[];
  };
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (instance: Ajv2020) => void)(ajv);

function assertValid(eventType: string, payload: unknown): void {
  const validate = ajv.compile(PAYLOAD_SCHEMAS[eventType]!);
  assert.ok(validate(payload), `${eventType}: ${ajv.errorsText(validate.errors)}`);
}

forEachBackend('booking.* webhook events', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let product: string;
  let adults: string;

  const bookingEvents = async (bookingId: string) => (await ctx.db.query<{ event_type: string; payload: { payload: BookingPayload } }>(
    `SELECT event_type, payload FROM api.webhook_notifications
     WHERE organization_id = $1 AND event_type LIKE 'booking.%' AND payload -> 'payload' -> 'booking' ->> 'id' = $2
     ORDER BY created_at, event_type`, [org.id, bookingId])).rows;

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Booking events');
    const f = fixtures(ctx.db, org.id);
    product = await f.product({ name: { default: 'Dune House', nl: 'Duinhuis' } });
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    adults = await f.group('Adults');
    await f.capacity(product, adults, 0, 6);
    await f.webhook({ events: ['booking.created', 'booking.updated', 'booking.confirmed', 'booking.cancelled'] });
  });
  after(() => app.close());

  it('a booking made through /v1/book is one booking.created with dates, status, product, contact, occupancy, totals and lines', async () => {
    const made = await client(app, org.key).post('/v1/book', {
      product_id: product, interval: { start: '2027-05-03', end: '2027-05-06' }, occupancy: { [adults]: 2 },
      contact: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
    });
    assert.equal(made.statusCode, 201, made.body);
    const bookingId = made.json<{ booking_id: string }>().booking_id;
    const events = await bookingEvents(bookingId);
    assert.deepEqual(events.map((event) => event.event_type), ['booking.created'], 'one event for the whole transaction');
    const payload = events[0]!.payload.payload;
    assertValid('booking.created', payload);
    const { booking } = payload;
    assert.deepEqual(booking.calendar_events.map((event) => [event.start_date, event.end_date]), [['2027-05-03', '2027-05-06']]);
    assert.equal(booking.product?.id, product);
    assert.equal(booking.product?.name.nl, 'Duinhuis');
    assert.equal(booking.contact?.first_name, 'Grace');
    assert.equal(booking.contact?.email, 'grace@example.com');
    assert.equal(booking.occupancy[adults], 2);
    assert.ok(booking.line_items.length > 0);
    assert.equal(booking.total, 30000);
    assert.equal('secret' in booking, false);
  });

  it('cancelling sends booking.cancelled with the event cancelled, valid against the schema', async () => {
    const made = await client(app, org.key).post('/v1/book', { product_id: product, interval: { start: '2027-06-07', end: '2027-06-09' } });
    assert.equal(made.statusCode, 201, made.body);
    const bookingId = made.json<{ booking_id: string }>().booking_id;
    const cancelled = await client(app, org.key).post('/v1/booking-cancel', { booking_id: bookingId, reason: 'Plans changed' });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const events = await bookingEvents(bookingId);
    assert.deepEqual(events.map((event) => event.event_type), ['booking.created', 'booking.cancelled']);
    const payload = events[1]!.payload.payload;
    assertValid('booking.cancelled', payload);
    assert.equal(payload.booking.calendar_events[0]?.status, 'CANCELLED');
    assert.equal(payload.booking.contact, null);
  });

  it('a changed line is booking.updated; a rolled back change sends nothing', async () => {
    const made = await client(app, org.key).post('/v1/book', { product_id: product, interval: { start: '2027-07-05', end: '2027-07-07' } });
    const bookingId = made.json<{ booking_id: string }>().booking_id;
    await ctx.db.query('UPDATE api.bookings SET occupancy = $2 WHERE id = $1', [bookingId, { [adults]: 3 }]);
    await assert.rejects(ctx.db.transaction(async (tx) => {
      await tx.query('UPDATE api.bookings SET occupancy = $2 WHERE id = $1', [bookingId, { [adults]: 4 }]);
      throw new Error('roll back');
    }), /roll back/);
    const events = await bookingEvents(bookingId);
    assert.deepEqual(events.map((event) => event.event_type), ['booking.created', 'booking.updated']);
    assertValid('booking.updated', events[1]!.payload.payload);
    assert.equal(events[1]!.payload.payload.booking.occupancy[adults], 3);
    const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM staykit_internal.booking_event_pending');
    assert.equal(rows[0]?.n, 0, 'nothing left pending after commit');
  });
});
