/**
 * Templates are a tenant's program, and run as one (issue: security round 3):
 * - they reach no file: `include`, `render` and `layout` are refused when a template is saved, and a template
 *   written around the API renders to an error, never to a file of the server (package.json here);
 * - their work never holds the event loop: while one organization saves a template that renders for seconds,
 *   another organization's request is answered first, and the heavy save is refused once its time budget is spent;
 * - a preview shows data derived from the booking's tables only to a principal that may read each of them, and is
 *   authenticated before its body is looked at.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { BOOKING_RECORD_TABLES } from '../../src/automations/context.js';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { insert } from '../support/fixtures.js';
import { bookableUnit } from './support.js';

const FILE_TAGS = ["{% include 'package.json' %}", "{% render 'package.json' %}", "{% layout 'package.json' %}x{% endlayout %}",
  "{% include '.staykit/demo-login' %}"];

forEachBackend('templates cannot reach the server', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let bookingId: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Isolated Rentals');
    const unit = await bookableUnit(ctx.db, org.id);
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-05-03', end: '2027-05-05' }, occupancy: { [unit.adults]: 2 },
      contact: { first_name: 'Mila', email: 'mila@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    bookingId = (booked.json() as { booking_id: string }).booking_id;
  });
  after(() => app.close());

  const send = (method: 'POST' | 'PATCH', url: string, payload: unknown, key = org.key) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${key}`, prefer: 'return=representation' }, payload: payload as object });

  it('refuses include, render and layout when a template is saved, reading no file', async () => {
    for (const tag of FILE_TAGS) {
      for (const table of ['email_templates', 'message_templates']) {
        const name = table === 'message_templates' ? { name: 'Rules' } : {};
        const saved = await send('POST', `/v1/${table}`, { ...name, subject: { default: 'Hi' }, body: { default: `Rules: ${tag}` } });
        assert.equal(saved.statusCode, 400, `${table} ${tag}: ${saved.body}`);
        assert.equal(saved.json().code, 'SK680');
        assert.match(saved.json().message, /^body\.default does not render: \{% (include|render|layout) %\} is not available/);
        assert.doesNotMatch(saved.body, /staykit|"name"|password/i);
      }
    }
  });

  it('renders a template written around the API to an error, never to a file', async () => {
    const template = await insert<{ id: string }>(ctx.db, 'email_templates', {
      organization_id: org.id, subject: { default: 'Hi' }, body: { default: "{% include 'package.json' %}" },
    });
    const preview = await send('POST', '/v1/template-preview', { booking_id: bookingId, email_template_id: template.id });
    assert.equal(preview.statusCode, 400, preview.body);
    assert.equal(preview.json().code, 'SK680');
    assert.doesNotMatch(preview.body, /staykit|dependencies/);
  });

  it("answers another organization's request while a template's check renders for seconds, and bounds the check", async () => {
    const other = await createOrganization(ctx.db, 'Neighbour Rentals');
    // Every language renders 640,000 loop steps (about half a second), ten languages: more than a save may take.
    const slow = '{% for i in (1..800) %}{% for j in (1..800) %}.{% endfor %}{% endfor %}';
    const languages = Object.fromEntries(['default', 'nl', 'de', 'fr', 'es', 'it', 'pt', 'da', 'sv', 'pl'].map((language) => [language, slow]));
    const finished: string[] = [];
    const heavy = send('POST', '/v1/email_templates', { subject: { default: 'Hi' }, body: languages }).then((response) => {
      finished.push('heavy');
      return response;
    });
    const light = app.inject({ method: 'GET', url: '/v1/products?select=id&limit=1', headers: { authorization: `Bearer ${other.key}` } })
      .then((response) => {
        finished.push('other organization');
        return response;
      });
    const [heavyAnswer, lightAnswer] = await Promise.all([heavy, light]);
    assert.equal(lightAnswer.statusCode, 200, lightAnswer.body);
    assert.deepEqual(finished, ['other organization', 'heavy']);
    assert.equal(heavyAnswer.statusCode, 400, heavyAnswer.body);
    assert.equal(heavyAnswer.json().code, 'SK680');
    assert.match(heavyAnswer.json().message, /took longer than 2 s|limit/);
  });

  it('refuses a text with more languages than a template may have', async () => {
    const body = Object.fromEntries(Array.from({ length: 31 }, (_, index) => [index === 0 ? 'default' : `x-${index}`, 'Hi']));
    const saved = await send('POST', '/v1/email_templates', { subject: { default: 'Hi' }, body });
    assert.equal(saved.statusCode, 400, saved.body);
    assert.deepEqual([saved.json().code, saved.json().message], ['SK686', 'body has 31 languages; a template may have at most 30']);
  });

  it("previews only for a principal that may read every table the message is derived from", async () => {
    const template = await send('POST', '/v1/email_templates', { subject: { default: 'For {{ guest.email }}' }, body: { default: 'Hi {{ guest.first_name }}' } });
    assert.equal(template.statusCode, 201, template.body);
    const templateId = (template.json() as { id: string }[])[0]!.id;
    const payload = { booking_id: bookingId, email_template_id: templateId };

    const withoutContacts = await createKey(ctx.db, org.id, ['bookings:read', 'email_templates:read']);
    const refused = await send('POST', '/v1/template-preview', payload, withoutContacts);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().code, 'SK403');
    assert.doesNotMatch(refused.body, /mila/i);

    const allButContacts = BOOKING_RECORD_TABLES.filter((table) => table !== 'contacts').map((table) => `${table}:read`);
    const stillRefused = await send('POST', '/v1/template-preview', payload, await createKey(ctx.db, org.id, ['email_templates:read', ...allButContacts]));
    assert.equal(stillRefused.statusCode, 403, stillRefused.body);
    assert.match(stillRefused.json().message, /contacts:read/);

    const everything = await createKey(ctx.db, org.id, ['email_templates:read', ...BOOKING_RECORD_TABLES.map((table) => `${table}:read`)]);
    const shown = await send('POST', '/v1/template-preview', payload, everything);
    assert.equal(shown.statusCode, 200, shown.body);
    assert.equal(shown.json().to, 'mila@example.com');
    assert.equal(shown.json().subject, 'For mila@example.com');
  });

  it('authenticates a preview before looking at its body', async () => {
    for (const payload of [{}, { booking_id: 'not-a-uuid' }, []]) {
      const anonymous = await app.inject({ method: 'POST', url: '/v1/template-preview', payload });
      assert.equal(anonymous.statusCode, 401, anonymous.body);
    }
    const keyed = await send('POST', '/v1/template-preview', { booking_id: 'not-a-uuid' });
    assert.equal(keyed.statusCode, 400, keyed.body);
  });
});
