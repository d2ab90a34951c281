/**
 * The host is told (issue: "nobody tells the host anything"): a new booking, a booking request, a guest's
 * cancellation request and a cancellation e-mail the members who get that notification — owners and admins by
 * default, others as they chose —, in the organization's language; booking.requested and
 * booking.cancellation_requested webhooks fire; the guest's request is shown as from the guest.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { PAYLOAD_SCHEMAS } from '../../src/webhooks/payload-schemas.js';
import { HOST_NOTIFICATIONS } from '../../src/automations/host-notification-labels.js';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { insert } from '../support/fixtures.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, textOf, type TestSmtpServer } from './support.js';

/** STAYKIT_PUBLIC_URL's origin when it is not set, as in these tests. */
const PUBLIC_ORIGIN = 'http://localhost:3000';

const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (instance: Ajv2020) => void)(ajv);
/** The payload is what the OpenAPI document's webhooks section promises. */
function assertDocumented(eventType: string, payload: unknown): void {
  const validate = ajv.compile(PAYLOAD_SCHEMAS[eventType]!);
  assert.ok(validate(payload), `${eventType}: ${ajv.errorsText(validate.errors)}`);
}

forEachBackend('host notifications', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let org: { id: string; key: string };
  let instant: { product: string; adults: string };
  let onRequest: { product: string; adults: string };
  const time = clock('2027-01-01T00:00:00Z');

  before(async () => {
    smtp = await startSmtpServer();
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Dune Rentals');
    instant = await bookableUnit(ctx.db, org.id);
    onRequest = await bookableUnit(ctx.db, org.id, { name: { default: 'Pine Cabin' }, interaction: 'request' });
    const member = (fields: Record<string, unknown>) => insert(ctx.db, 'members', { organization_id: org.id, ...fields });
    await member({ name: 'Olivia Owner', email: 'olivia@example.com', role: 'owner' });
    await member({ name: 'Adam Admin', email: 'adam@example.com', role: 'admin', notify: '{booking.cancellation_requested}' });
    await member({ name: 'Mia Manager', email: 'mia@example.com', role: 'manager' });
    await member({ name: 'Otto Oldowner', email: 'otto@example.com', role: 'owner', active: false });
    await member({ name: 'Norah Noemail', role: 'owner' });
    await insert(ctx.db, 'webhooks', {
      organization_id: org.id, endpoint: 'https://hooks.example.com/host',
      events: '{booking.created,booking.requested,booking.cancellation_requested}',
    });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  const api = () => client(app, org.key);
  const patch = (url: string, body: unknown) =>
    app.inject({ method: 'PATCH', url, headers: { authorization: `Bearer ${org.key}` }, payload: body as object });
  const book = async (unit: { product: string; adults: string }, start: string, end: string, extra: Record<string, unknown> = {}) => {
    const response = await api().post('/v1/book', {
      product_id: unit.product, interval: { start, end }, occupancy: { [unit.adults]: 2 },
      contact: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', phone: '+31 6 1234 5678' }, ...extra,
    });
    assert.equal(response.statusCode, 201, response.body);
    return response.json<{ booking_id: string; reference: string }>();
  };
  /** Works the due jobs and answers the e-mails the SMTP server took meanwhile: recipient, subject, text. */
  const mailsSent = async () => {
    const before = smtp.received.length;
    await runDue(ctx.db, schedulerOptions(smtp, time));
    return smtp.received.slice(before).map((raw) => {
      const mail = parseMime(raw);
      return { to: mail.headers.to ?? '', subject: mail.headers.subject ?? '', text: textOf(mail) };
    }).sort((a, b) => a.to.localeCompare(b.to));
  };
  const webhookEvents = async (type: string) => (await ctx.db.query<{ payload: { booking: { id: string }; message?: { body: string; from_address: string } } }>(
    `SELECT payload -> 'payload' AS payload FROM api.webhook_notifications WHERE organization_id = $1 AND event_type = $2 ORDER BY created_at`, [org.id, type])).rows;

  it('e-mails a new booking to the owners who have an e-mail address and are members still, not to others', async () => {
    const booking = await book(instant, '2027-07-03', '2027-07-05');
    const mails = await mailsSent();
    assert.deepEqual(mails.map((mail) => mail.to), ['olivia@example.com']);
    const [mail] = mails;
    assert.match(mail!.subject, new RegExp(`^New booking ${booking.reference}: Dune House, `));
    assert.match(mail!.text, /Hello Olivia Owner,/);
    assert.match(mail!.text, /Grace Hopper booked Dune House\./);
    assert.match(mail!.text, /Arrival: Saturday, July 3, 2027/);
    assert.match(mail!.text, /Departure: Monday, July 5, 2027/);
    assert.match(mail!.text, /Guests: 2/);
    assert.match(mail!.text, /Guest: Grace Hopper, grace@example\.com, \+31 6 1234 5678/);
    assert.match(mail!.text, /Total: €200\.00/);
    assert.match(mail!.text, new RegExp(`https://stay\\.example\\.com/admin/bookings/${booking.booking_id}`));
    assert.equal((await webhookEvents('booking.requested')).length, 0, 'an instant booking is no request');
  });

  it('e-mails a booking request asking to confirm or decline, and fires booking.requested', async () => {
    const booking = await book(onRequest, '2027-08-01', '2027-08-04');
    const mails = await mailsSent();
    assert.deepEqual(mails.map((mail) => mail.to), ['olivia@example.com']);
    assert.match(mails[0]!.subject, new RegExp(`^Booking request ${booking.reference}: Pine Cabin, .* — please confirm or decline$`));
    assert.match(mails[0]!.text, /Grace Hopper asks to book Pine Cabin\. The dates are held until you confirm or decline/);
    const requested = await webhookEvents('booking.requested');
    assert.deepEqual(requested.map((event) => event.payload.booking.id), [booking.booking_id]);
    assertDocumented('booking.requested', requested[0]!.payload);
  });

  it('a guest\'s cancellation request: shown from the guest with their reason, e-mailed to whoever chose it, booking.cancellation_requested fired', async () => {
    const booking = await book(instant, '2027-09-10', '2027-09-12');
    await mailsSent();
    const { rows: [stored] } = await ctx.db.query<{ secret: string }>('SELECT secret FROM api.bookings WHERE id = $1', [booking.booking_id]);
    const secret = stored!.secret;
    const sent = await app.inject({
      method: 'POST', url: `/g/${secret}/cancellation-request`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_ORIGIN }, payload: 'reason=My%20flight%20was%20cancelled',
    });
    assert.equal(sent.statusCode, 303, sent.body);

    const messages = await api().get(`/v1/messages?booking_id=eq.${booking.booking_id}&direction=eq.inbound&select=from_address,to_address,body`);
    assert.deepEqual(messages.json(), [{ from_address: 'grace@example.com', to_address: 'host', body: 'My flight was cancelled' }]);

    const [event, ...more] = await webhookEvents('booking.cancellation_requested');
    assert.equal(more.length, 0);
    assert.equal(event!.payload.booking.id, booking.booking_id);
    assert.equal(event!.payload.message!.body, 'My flight was cancelled');
    assert.equal(event!.payload.message!.from_address, 'grace@example.com');
    assertDocumented('booking.cancellation_requested', event!.payload);

    const mails = await mailsSent();
    assert.deepEqual(mails.map((mail) => mail.to), ['adam@example.com', 'olivia@example.com']);
    for (const mail of mails) {
      assert.match(mail.subject, new RegExp(`^Cancellation request for booking ${booking.reference}`));
      assert.match(mail.text, /Grace Hopper asks to cancel their booking at Dune House\.\s+Their message:\s+My flight was cancelled/);
    }
  });

  it('e-mails a cancellation to whoever chose it and may read it; a member who chose other notifications, or none, or may not read bookings and guests, gets nothing', async () => {
    const booking = await book(instant, '2027-10-01', '2027-10-03');
    await mailsSent();
    const { rows: [mia] } = await ctx.db.query<{ id: string }>(`SELECT id FROM api.members WHERE email = 'mia@example.com'`);
    const chose = await patch(`/v1/members?id=eq.${mia!.id}`, { notify: ['booking.cancelled'] });
    assert.equal(chose.statusCode, 204, chose.body);
    // Cleo chose it too, but as a cleaner she may not read bookings or guests: the e-mail would show them.
    await insert(ctx.db, 'members', { organization_id: org.id, name: 'Cleo Cleaner', email: 'cleo@example.com', role: 'cleaner', notify: '{booking.cancelled}' });
    await insert(ctx.db, 'permissions', { organization_id: org.id, member_id: mia!.id, resource: '*', access: 'read' });
    const cancelled = await api().post('/v1/booking-cancel', { booking_id: booking.booking_id });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const mails = await mailsSent();
    assert.deepEqual(mails.map((mail) => mail.to), ['mia@example.com', 'olivia@example.com']);
    assert.match(mails[0]!.subject, new RegExp(`^Booking ${booking.reference} cancelled: Dune House`));
  });

  it('words every notification the database knows, each named like a webhook event of the catalogue', async () => {
    const { rows: [kinds] } = await ctx.db.query<{ names: string[]; events: string[] }>(
      'SELECT staykit_internal.host_notification_kinds() AS names, staykit_internal.webhook_event_catalogue() AS events');
    assert.deepEqual([...HOST_NOTIFICATIONS], kinds!.names);
    assert.deepEqual(kinds!.names.filter((name) => !kinds!.events.includes(name)), []);
  });

  it('writes in the organization\'s language', async () => {
    await ctx.db.query(`UPDATE api.organizations SET language = 'nl' WHERE id = $1`, [org.id]);
    try {
      const booking = await book(instant, '2027-11-01', '2027-11-03');
      const [mail] = await mailsSent();
      assert.match(mail!.subject, new RegExp(`^Nieuwe boeking ${booking.reference}: Duinhuis, `));
      assert.match(mail!.text, /Grace Hopper heeft Duinhuis geboekt\./);
      assert.match(mail!.text, /Aankomst: maandag 1 november 2027/);
    } finally {
      await ctx.db.query(`UPDATE api.organizations SET language = 'en' WHERE id = $1`, [org.id]);
    }
  });

  it('tells nobody of a silent booking, and refuses a notification that does not exist', async () => {
    await book(instant, '2027-12-01', '2027-12-03', { silent: true });
    assert.deepEqual(await mailsSent(), []);
    const { rows: [olivia] } = await ctx.db.query<{ id: string }>(`SELECT id FROM api.members WHERE email = 'olivia@example.com'`);
    const wrong = await patch(`/v1/members?id=eq.${olivia!.id}`, { notify: ['booking.exploded'] });
    assert.equal(wrong.statusCode, 400, wrong.body);
    assert.match(wrong.json<{ message: string }>().message, /members_notify/);
  });
});
