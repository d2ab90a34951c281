/**
 * Templates are checked when they are saved — a subject or body that does not render (unknown variable, unknown
 * filter, syntax error) is a 400 naming the field, language, line and column — and can be previewed for a booking
 * without sending anything.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';
import { bookableUnit } from './support.js';

forEachBackend('template checks and preview', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let unit: { product: string; adults: string };

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Preview Rentals');
    unit = await bookableUnit(ctx.db, org.id);
  });
  after(() => app.close());

  const send = (method: 'POST' | 'PATCH', url: string, payload: unknown, key = org.key) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${key}`, prefer: 'return=representation' }, payload: payload as object });

  it('refuses a subject or body that does not render, saying where', async () => {
    const unknown = await send('POST', '/v1/email_templates', { subject: { default: 'Hi {{ guest.frist_name }}' }, body: { default: 'ok' } });
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.deepEqual(unknown.json(), {
      code: 'SK680',
      message: 'subject.default does not render: undefined variable: guest.frist_name',
      details: 'line 1, column 7',
      hint: 'The variables a template may use are listed in docs/automations.md#variables',
    });

    const unclosed = await send('POST', '/v1/email_templates', {
      subject: { default: 'Hello' }, body: { default: 'ok', nl: 'Hallo\n{% if booking.reference %}tot snel' },
    });
    assert.equal(unclosed.statusCode, 400, unclosed.body);
    assert.equal(unclosed.json().message, 'body.nl does not render: tag {% if booking.reference %} not closed');
    assert.equal(unclosed.json().details, 'line 2, column 1');

    const filter = await send('POST', '/v1/message_templates', { name: 'x', body: { default: '{{ booking.total | shout }}' } });
    assert.equal(filter.statusCode, 400, filter.body);
    assert.match(filter.json().message, /^body\.default does not render: undefined filter: shout/);

    const attachment = await send('POST', '/v1/email_templates', {
      subject: { default: 'Hello' }, body: { default: 'ok' }, attachments: [{ filename: 'house-rules.pdf', content: 'not base64!' }],
    });
    assert.equal(attachment.statusCode, 400, attachment.body);
    assert.deepEqual([attachment.json().code, attachment.json().message], ['SK681', 'attachments[0].content must be base64']);

    const good = await send('POST', '/v1/email_templates', {
      subject: { default: 'Booking {{ booking.reference }}' },
      body: { default: '{% for item in line_items %}{{ item.name }}: {{ item.amount }}\n{% endfor %}Total {{ booking.total }}' },
    });
    assert.equal(good.statusCode, 201, good.body);
    const id = (good.json() as { id: string }[])[0]!.id;
    const patch = await send('PATCH', `/v1/email_templates?id=eq.${id}`, { body: { default: '{{ stay.nigths }}' } });
    assert.equal(patch.statusCode, 400, patch.body);
    assert.equal(patch.json().code, 'SK680');
  });

  it("reveals a hidden exact address in messages once the booking is confirmed, as the guest page does", async () => {
    const hidden = { hide_exact_address: true, exact_address: 'Duinweg 1, Bergen', approximate_address: 'Near the dunes, Bergen' };
    const template = await send('POST', '/v1/email_templates', {
      subject: { default: 'Where' }, body: { default: '{{ product.address }}' }, include_booking_details: false, include_booking_link: false,
    });
    assert.equal(template.statusCode, 201, template.body);
    const templateId = (template.json() as { id: string }[])[0]!.id;
    for (const [interaction, address] of [['request', 'Near the dunes, Bergen'], ['book', 'Duinweg 1, Bergen']]) {
      const house = await bookableUnit(ctx.db, org.id, { ...hidden, interaction });
      const booked = await client(app, org.key).post('/v1/book', {
        product_id: house.product, interval: { start: '2027-07-05', end: '2027-07-07' }, occupancy: { [house.adults]: 2 },
        contact: { first_name: 'Ada', email: 'ada@example.com' },
      });
      assert.equal(booked.statusCode, 201, booked.body);
      const preview = await send('POST', '/v1/template-preview', { booking_id: (booked.json() as { booking_id: string }).booking_id, email_template_id: templateId });
      assert.equal(preview.statusCode, 200, preview.body);
      assert.equal(preview.json().body, `${address}\n`, interaction);
    }
  });

  it('counts the guests once when a capacity group sums others', async () => {
    const f = fixtures(ctx.db, org.id);
    const children = await f.group('Children');
    const everyone = await f.group('Guests');
    await f.dependency(everyone, unit.adults);
    await f.dependency(everyone, children);
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-08-02', end: '2027-08-04' }, occupancy: { [unit.adults]: 2, [children]: 1 },
      contact: { first_name: 'Ida', email: 'ida@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const template = await send('POST', '/v1/email_templates', {
      subject: { default: 'Guests' }, body: { default: '{{ booking.guests }} guests' }, include_booking_details: false, include_booking_link: false,
    });
    const preview = await send('POST', '/v1/template-preview', {
      booking_id: (booked.json() as { booking_id: string }).booking_id, email_template_id: (template.json() as { id: string }[])[0]!.id,
    });
    assert.equal(preview.statusCode, 200, preview.body);
    assert.equal(preview.json().body, '3 guests\n');
  });

  it('previews a template for a booking without sending it', async () => {
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-05-03', end: '2027-05-05' }, occupancy: { [unit.adults]: 2 },
      language: 'nl', contact: { first_name: 'Joost', email: 'joost@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const { booking_id: bookingId, reference } = booked.json() as { booking_id: string; reference: string };
    const created = await send('POST', '/v1/email_templates', {
      type: 'manual', include_ical_data: true, include_booking_link: false, include_booking_details: false,
      subject: { default: 'Booking {{ booking.reference }}', nl: 'Boeking {{ booking.reference }}' },
      body: { default: 'Hello', nl: 'Hallo {{ guest.first_name }}, {{ stay.nights }} nachten in {{ product.name }}.' },
      attachments: [{ filename: 'rules.txt', content_type: 'text/plain', content: Buffer.from('No parties').toString('base64') }],
    });
    assert.equal(created.statusCode, 201, created.body);
    const templateId = (created.json() as { id: string }[])[0]!.id;

    const preview = await send('POST', '/v1/template-preview', { booking_id: bookingId, email_template_id: templateId });
    assert.equal(preview.statusCode, 200, preview.body);
    const body = preview.json();
    assert.equal(body.to, 'joost@example.com');
    assert.equal(body.language, 'nl');
    assert.equal(body.subject, `Boeking ${reference}`);
    assert.equal(body.body, 'Hallo Joost, 2 nachten in Duinhuis.\n');
    assert.deepEqual(body.attachments.map((file: { filename: string }) => file.filename), ['rules.txt', `booking-${reference}.ics`]);
    const messages = await ctx.db.query('SELECT 1 FROM api.messages WHERE booking_id = $1', [bookingId]);
    assert.equal(messages.rows.length, 0, 'nothing was sent');

    const narrow = await createKey(ctx.db, org.id, ['bookings:read']);
    const refused = await send('POST', '/v1/template-preview', { booking_id: bookingId, email_template_id: templateId }, narrow);
    assert.equal(refused.statusCode, 403, refused.body);
    const other = await createOrganization(ctx.db, 'Someone Else');
    const foreign = await send('POST', '/v1/template-preview', { booking_id: bookingId, email_template_id: templateId }, other.key);
    assert.equal(foreign.statusCode, 404, foreign.body);
    const both = await send('POST', '/v1/template-preview', { booking_id: bookingId });
    assert.equal(both.statusCode, 400, both.body);
  });
});
