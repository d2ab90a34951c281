/**
 * On PostgreSQL the background workers of `serve` and `staykit worker` are woken by NOTIFY: a booking's e-mail goes
 * out at once even though the scheduler would look only once a minute on its own.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createSmtpMailer } from '../../src/automations/smtp.js';
import { startBackgroundWorkers, type BackgroundWorkers } from '../../src/cli/commands/worker.js';
import { silentLogger } from '../../src/observability/worker-logger.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { insert } from '../support/fixtures.js';
import { bookableUnit, parseMime, startSmtpServer, type TestSmtpServer } from './support.js';

describe('automation wake-ups', { skip: BACKENDS.includes('postgres') ? false : 'PostgreSQL is not available' }, () => {
  let testDb: TestDatabase;
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let workers: BackgroundWorkers | undefined;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    smtp = await startSmtpServer();
    app = await startBookingApp(testDb.db);
  });
  after(async () => {
    await workers?.stop();
    await app?.close();
    await smtp?.close();
    await testDb?.drop();
  });

  it('sends a triggered e-mail as soon as the booking commits', async () => {
    const org = await createOrganization(testDb.db, 'Awake Rentals');
    const unit = await bookableUnit(testDb.db, org.id);
    await insert(testDb.db, 'email_templates', {
      organization_id: org.id, trigger: 'created', subject: { default: 'Booked: {{ booking.reference }}' }, body: { default: 'Thanks' },
    });
    const config = loadConfig({ DATABASE_URL: testDb.url, STAYKIT_WORKER_POLL_INTERVAL: '60' });
    workers = startBackgroundWorkers(testDb.db, config, silentLogger, {
      automations: { mailer: createSmtpMailer(smtp.url, 5000), pollIntervalMs: 60_000 },
    });
    // Let the first (empty) look and the LISTEN happen, so only a wake-up can bring the job.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-11-01', end: '2027-11-03' }, occupancy: { [unit.adults]: 1 },
      contact: { email: 'awake@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const until = Date.now() + 20_000;
    while (smtp.received.length < 1 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(smtp.received.length, 1, 'sent well before the next poll');
    assert.equal(parseMime(smtp.received[0]!).headers.subject, `Booked: ${(booked.json() as { reference: string }).reference}`);
  });
});
