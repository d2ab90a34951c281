/**
 * docs/automations.md stays true: it lists every template variable, and its copy-paste example's templates are
 * accepted and send what it says.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { TEMPLATE_VARIABLE_PATHS } from '../../src/automations/variables.js';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, textOf, type TestSmtpServer } from './support.js';

const DOC = readFileSync(new URL('../../docs/automations.md', import.meta.url), 'utf8');

it('docs/automations.md lists every template variable', () => {
  const missing = TEMPLATE_VARIABLE_PATHS.filter((path) => !DOC.includes(`\`${path}\``));
  assert.deepEqual(missing, []);
});

forEachBackend('docs/automations.md example', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;

  before(async () => {
    app = await startBookingApp(ctx.db);
    smtp = await startSmtpServer();
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  it('its templates are accepted, and the confirmation is sent as shown', async () => {
    const org = await createOrganization(ctx.db, 'Docs Rentals');
    const bodies = [...DOC.matchAll(/"\$API\/email_templates".*? -d '(\{[\s\S]*?\})'/g)].map((match) => match[1]!);
    assert.equal(bodies.length, 2);
    for (const body of bodies) {
      const response = await app.inject({
        method: 'POST', url: '/v1/email_templates', headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' }, payload: body,
      });
      assert.equal(response.statusCode, 201, response.body);
    }
    const unit = await bookableUnit(ctx.db, org.id);
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-06-10', end: '2027-06-12' }, occupancy: { [unit.adults]: 2 },
      contact: { first_name: 'Ada', email: 'ada@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const { reference } = booked.json() as { reference: string };
    await runDue(ctx.db, schedulerOptions(smtp, clock('2027-03-01T10:00:00Z')));
    const mail = parseMime(smtp.received.at(-1)!);
    assert.equal(mail.headers.subject, `Booking ${reference} confirmed`);
    assert.match(textOf(mail), /^Dear Ada,\n\nSee you on Thursday, June 10, 2027 at Dune House\.\nTotal: €200\.00\n/);
  });
});
