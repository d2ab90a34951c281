/**
 * Guest communication works out of the box (issue: default messages): an organization Staykit creates has e-mail
 * templates from the start — request received, confirmed, cancelled, changed, before arrival, during the stay,
 * after departure — in English, Dutch and German, each one passing the check every saved template passes; a booking
 * made in German sends the German confirmation with the stay attached.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_TEMPLATES } from '../../src/automations/default-templates.js';
import { createOrganization } from '../../src/cli/commands/org.js';
import { forEachBackend } from '../support/databases.js';
import { client, startBookingApp } from '../booking/support.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, textOf, type TestSmtpServer } from './support.js';

const GREETINGS = { en: 'Dear Lena,', nl: 'Beste Lena,', de: 'Guten Tag Lena,' } as const;

forEachBackend('default e-mail templates', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let org: { organization_id: string; api_key: string };
  let templates: { id: string; trigger: string; status: string; subject: Record<string, string> }[];

  before(async () => {
    app = await startBookingApp(ctx.db);
    smtp = await startSmtpServer();
    org = await createOrganization(ctx.db, 'Alpenblick Ferienwohnungen');
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  const api = (method: 'GET' | 'POST', url: string, payload?: object) => app.inject({
    method, url, payload, headers: { authorization: `Bearer ${org.api_key}`, prefer: 'return=representation' },
  });

  it('a new organization has one template per moment of a stay, each in English, Dutch and German', async () => {
    const answer = await api('GET', '/v1/email_templates?select=id,trigger,moment,status,subject,body,include_ical_data&order=created_at');
    templates = answer.json();
    assert.equal(templates.length, DEFAULT_TEMPLATES.length);
    assert.deepEqual(templates.map((template) => `${template.trigger} ${template.status}`).sort(), [
      'cancelled CANCELLED', 'confirmed CONFIRMED', 'created TENTATIVE', 'moment CONFIRMED', 'moment CONFIRMED', 'moment CONFIRMED', 'updated CONFIRMED',
    ]);
    for (const template of templates) assert.deepEqual(Object.keys(template.subject).sort(), ['de', 'default', 'nl']);
  });

  it('each passes the check a saved template passes (every language renders against a full booking)', async () => {
    for (const template of DEFAULT_TEMPLATES) {
      const row: Record<string, unknown> = { ...template, type: 'manual', trigger: 'manual' };
      delete row.purpose;
      const saved = await api('POST', '/v1/email_templates', row);
      assert.equal(saved.statusCode, 201, `${template.purpose}: ${saved.body}`);
    }
  });

  it("renders in the guest's language with nothing left unrendered", async () => {
    const unit = await bookableUnit(ctx.db, org.organization_id, { name: { default: 'Mountain View', nl: 'Bergzicht', de: 'Bergblick' } });
    for (const [language, start, end] of [['en', '2027-04-05', '2027-04-08'], ['nl', '2027-04-12', '2027-04-15'], ['de', '2027-04-19', '2027-04-22']] as const) {
      const booked = await client(app, org.api_key).post('/v1/book', {
        product_id: unit.product, interval: { start, end },
        occupancy: { [unit.adults]: 2 }, language, silent: true, contact: { first_name: 'Lena', email: `lena.${language}@example.com` },
      });
      assert.equal(booked.statusCode, 201, booked.body);
      const bookingId = booked.json<{ booking_id: string }>().booking_id;
      for (const template of templates) {
        const preview = await api('POST', '/v1/template-preview', { booking_id: bookingId, email_template_id: template.id });
        assert.equal(preview.statusCode, 200, preview.body);
        const { subject, body } = preview.json<{ subject: string; body: string }>();
        assert.ok(body.startsWith(GREETINGS[language]), `${template.trigger} in ${language}: ${body.slice(0, 40)}`);
        assert.doesNotMatch(`${subject}\n${body}`, /\{\{|\{%|undefined/);
        assert.match(subject, language === 'en' ? /Mountain View|booking/ : language === 'nl' ? /Bergzicht|boeking/ : /Bergblick|Buchung/);
      }
    }
  });

  it('a booking made in German sends the German confirmation, with the stay attached for the calendar', async () => {
    const unit = await bookableUnit(ctx.db, org.organization_id, { name: { default: 'Lake House', de: 'Seehaus' } });
    const booked = await client(app, org.api_key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-05-03', end: '2027-05-07' }, occupancy: { [unit.adults]: 2 },
      language: 'de', contact: { first_name: 'Lena', last_name: 'Huber', email: 'lena.huber@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    await runDue(ctx.db, schedulerOptions(smtp, clock('2027-03-01T10:05:00Z')));
    const mail = smtp.received.find((message) => /^To: .*lena\.huber@example\.com/im.test(message));
    assert.ok(mail, 'the confirmation was sent');
    const parsed = parseMime(mail);
    assert.match(parsed.headers.subject ?? '', /Ihr Aufenthalt in Seehaus ist bestätigt/);
    const text = textOf(parsed);
    assert.match(text, /^Guten Tag Lena,\n\nIhre Buchung ist bestätigt: Seehaus, vom /);
    assert.match(text, /Mit freundlichen Grüßen\nAlpenblick Ferienwohnungen/);
    assert.match(mail, /Content-Type: text\/calendar/i);
  });
});
