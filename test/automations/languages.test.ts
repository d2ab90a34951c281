/**
 * Texts an organization wrote in `nl-NL` reach a guest whose language is `nl`, and back; Staykit's own words in an
 * e-mail (the booking-details block, the link) are in the guest's language (issue: a first real day, item 7).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { bookableUnit } from './support.js';

forEachBackend('languages of texts and e-mails', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Taal Rentals');
  });
  after(() => app.close());

  const send = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${org.key}`, prefer: 'return=representation' }, payload: payload as object });

  async function book(unitName: Record<string, string>, language: string, start: string): Promise<{ bookingId: string; secret: string }> {
    const unit = await bookableUnit(ctx.db, org.id, { name: unitName });
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: unit.product, interval: { start, end: `${start.slice(0, 8)}${String(Number(start.slice(8)) + 2).padStart(2, '0')}` },
      occupancy: { [unit.adults]: 2 }, language, contact: { first_name: 'Sanne', email: 'sanne@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const { booking_id: bookingId } = booked.json() as { booking_id: string };
    const { rows } = await ctx.db.query<{ secret: string }>('SELECT secret FROM api.bookings WHERE id = $1', [bookingId]);
    return { bookingId, secret: rows[0]!.secret };
  }

  it("shows an nl-NL unit name to an nl guest, and an nl name to an nl-NL guest, in e-mails and on the guest page", async () => {
    const template = await send('/v1/email_templates', {
      include_booking_details: true, include_booking_link: true,
      subject: { default: '{{ product.name }}' }, body: { default: 'Hello', nl: 'Hallo' },
    });
    assert.equal(template.statusCode, 201, template.body);
    const templateId = (template.json() as { id: string }[])[0]!.id;

    for (const [unitName, language] of [[{ default: 'Dune House', 'nl-NL': 'Duinhuis' }, 'nl'], [{ default: 'Dune House', nl: 'Duinhuis' }, 'nl-NL']] as const) {
      const { bookingId, secret } = await book(unitName, language, language === 'nl' ? '2027-06-07' : '2027-06-14');
      const preview = await send('/v1/template-preview', { booking_id: bookingId, email_template_id: templateId });
      assert.equal(preview.statusCode, 200, preview.body);
      const message = preview.json() as { subject: string; body: string };
      assert.equal(message.subject, 'Duinhuis', `${language}: subject`);
      assert.match(message.body, /^Hallo\n\nBoeking [A-Z0-9-]+ — Duinhuis\nAankomst: .+\nVertrek: .+\n/, `${language}: body`);
      assert.match(message.body, /\nTotaal: .+\n\nJe boeking: http/);
      assert.doesNotMatch(message.body, /Arrival|Departure|Total|Your booking/);

      const page = await app.inject({ method: 'GET', url: `/g/${secret}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Duinhuis/, `${language}: guest page`);
      assert.doesNotMatch(page.body, /Dune House/);
    }
  });
});
